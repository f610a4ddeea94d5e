"""Record DPjudge's Payola transfers and acceptance lists, as the fixture of
`tests/game/test_payola_transfers.py`.

    python -m tests.support.record_payola_transfers [--out FILE]

DPjudge takes both on its web pages only (`Transfer` and `Accept`), which the scratch host has
not: a small Python 2 script in the host's `bin/` does what those pages do when a player submits
them (the transfer and its two account mails, the SENT line under ONE_TRANSFER; the acceptance
list checked and kept) and saves the game. For each game below (its rules, then its steps), the
mails DPjudge sent to itself are handed back to it as its own host would (they become press to
the powers), and after each step the status file it saved is kept. The game's Spring 1901 is then
played by mail (`record_payola_game.play_phase`), so that the fixture shows what the transfers and
lists left do to the bribes and to the SENT lines. Needs Python 2.7 for DPjudge; the tests do not."""
from __future__ import annotations

import os
import random
import shutil
import subprocess
import tempfile
from pathlib import Path

from judge.maps import MapCache
from judge.status import parse_status
from judge.types import Phase
from tests.support.record_dpjudge_games import Host, dpjudge_name, player, results, write_recorded
from tests.support.record_payola_game import GAME, offer_sheets, payola_opening, play_phase
from tests.support.record_xtalball_game import broadcasts, to_itself

FIXTURE = Path(__file__).parent.parent / "game" / "fixtures" / "payola_transfers.json"

# What DPjudge's Transfer and Accept pages do on a submitted form (Python 2).
DRIVER = """import os, sys
sys.path[:0] = [os.path.dirname(os.path.abspath(sys.argv[0])) + '/..']
import host, DPjudge
DPjudge.Game.makeMaps = lambda self: None
from DPjudge.Status import Status
game = Status().load(sys.argv[1])
power = [x for x in game.powers if x.name == sys.argv[3]][0]
if sys.argv[2] == 'transfer':
    getter = [x for x in game.powers if x.name == sys.argv[4]][0]
    game.transferCash(power, getter, int(sys.argv[5]))
    if 'ONE_TRANSFER' in game.rules: power.countTransfer(getter.name)
elif game.checkAccept(power, sys.argv[4]):
    sys.exit('refused')
game.save()
"""

# Each game: its rules and its steps (a transfer: giver, receiver, amount; a list: power, list).
GAMES = {
    "plain": ((), (("transfer", "FRANCE", "ENGLAND", "10"), ("transfer", "ENGLAND", "FRANCE", "3"),
                   ("transfer", "FRANCE", "ENGLAND", "7"), ("accept", "FRANCE", "fe"),
                   ("accept", "ENGLAND", "EGFRATI"), ("transfer", "TURKEY", "AUSTRIA", "48"))),
    "anonymous_once": (("ONE_TRANSFER", "ANON_TRANSFER"),
                       (("transfer", "GERMANY", "RUSSIA", "20"), ("transfer", "GERMANY", "ITALY", "1"),
                        ("transfer", "RUSSIA", "GERMANY", "5"), ("accept", "RUSSIA", "G?R"))),
}


def python2() -> str:
    for candidate in (os.environ.get("DPJUDGE_PYTHON", ""), f"{_pyenv_root()}/versions/2.7.18/bin/python",
                      "/root/.pyenv/versions/2.7.18/bin/python", "python2.7"):
        if candidate and shutil.which(candidate):
            return candidate
    raise SystemExit("no Python 2.7 here (set DPJUDGE_PYTHON)")


def _pyenv_root() -> str:
    done = subprocess.run(["pyenv", "root"], capture_output=True, text=True, check=False) \
        if shutil.which("pyenv") else None
    return done.stdout.strip() if done and done.returncode == 0 else "/nonexistent"


def step(host: Host, python: str, words: tuple[str, ...]) -> list[dict]:
    """DPjudge does what its page does for `words`; the press its account mails became."""
    outbox = host.root / "outbox"
    before = set(os.listdir(outbox))
    subprocess.run([python, str(host.root / "bin" / "payola"), host.game, *words], check=True,
                   cwd=host.root, capture_output=True)
    sent = [(outbox / f).read_bytes().decode("latin-1") for f in sorted(set(os.listdir(outbox)) - before)]
    relayed = [x for raw in sent if to_itself(raw) for x in host.send(raw)]
    return broadcasts(relayed)


def record(rules: tuple[str, ...], steps: tuple[tuple[str, ...], ...]) -> dict:
    m = MapCache().get("standard")
    rng = random.Random("payola transfers")
    start = payola_opening(m, rng, rules)
    powers = [p for p in m.powers.values() if not p.name.startswith("_")]
    addresses = {dpjudge_name(info.name): player(n) for n, info in enumerate(powers)}
    python = python2()
    with tempfile.TemporaryDirectory() as scratch:
        host = Host(Path(scratch), GAME, start, variant="payola")
        (host.root / "bin" / "payola").write_text(DRIVER)
        done = [{"step": list(words), "relayed": step(host, python, words), "status": host.status()}
                for words in steps]
        text = host.status()
        phase = parse_status(text).phase
        assert isinstance(phase, Phase)
        mails, sent, ready = play_phase(host, phase, offer_sheets(m, text, rng), addresses)
        played = {"phase": phase.abbrev, "mails": mails, "ready": ready, "results": results(sent),
                  "status": host.status()}
    return {"rules": list(rules), "game": GAME, "start": start, "steps": done, "played": played}


def main() -> None:
    write_recorded(__doc__ or "", FIXTURE,
                   lambda: {name: record(rules, steps) for name, (rules, steps) in GAMES.items()})


if __name__ == "__main__":
    main()
