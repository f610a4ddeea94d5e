"""Record seeded random games played by DPjudge, as fixtures for `tests/game/test_dpjudge_games.py`.

    python -m tests.support.record_dpjudge_games [MAP ...] [--seed N] [--years N]

For each map, a game starts from its map's opening position (written as a DPjudge status file, a
player on each power) in a scratch DPjudge host (`../shared/tools/dpjudge` beside the checkout,
or $DPJUDGE). Phase by phase the orders come from `tests.support.random_orders`, each power's in a
mail of its own (now and then after a mail holding a line no judge reads; orders DPjudge refuses
are drawn again, the refused mail kept for the replay), and the Master's PROCESS ends the phase.
Each phase's mails in, DPjudge's results mails out and the status file it saved are written to
`tests/game/fixtures/dpjudge_games/<MAP>.json`. Needs Python 2.7 for DPjudge; the tests that
read the fixtures do not."""
from __future__ import annotations

import argparse
import email
import json
import os
import random
import subprocess
import tempfile
from collections.abc import Callable
from email import policy
from pathlib import Path

from judge.maps import MapCache
from judge.maps.model import Map
from judge.status import parse_status
from judge.types import Phase
from tests.support.random_orders import bad_line, phase_orders

FIXTURES = Path(__file__).parent.parent / "game" / "fixtures" / "dpjudge_games"
DPJUDGE = os.environ.get("DPJUDGE", str(Path(__file__).resolve().parents[3] / "shared" / "tools" / "dpjudge"))
JUDGE_ID, JUDGE_ADDRESS, URL = "TEST", "judge@example.org", "http://dpj.example.org"
MASTER, MASTER_PASSWORD = "master@example.org", "m4ster"
DEADLINE = "203001070800"  # far ahead: no phase is processed before the Master's PROCESS
# The shipped maps DPjudge plays: it refuses every order on its own chaos and youngstown maps
# (their files fail its map checks), and it has no testing map.
MAPS = ("standard", "1900", "modern", "ancmed", "fleetrome", "pure")
BAD_MAIL = 0.08  # how often a power's orders come after a mail DPjudge must refuse
TRIES = 6  # orders drawn for a power before giving up


def dpjudge_name(name: str) -> str:
    """A power's name as DPjudge writes it in a status file (no `+` for a space)."""
    return name.replace("+", "")


def game_name(map_name: str) -> str:
    return f"dpj{map_name}"


def player(n: int) -> tuple[str, str]:
    """The address and password of the player of the n-th power."""
    return f"p{n}@example.org", f"pw{n}"


def opening(m: Map) -> str:
    """The game's status file as DPjudge would hold it on its first phase."""
    lines = [f"GAME {game_name(m.name)}", f"PHASE {m.begin}", f"MAP {m.name}",
             f"MASTER |{MASTER}|Master", f"ADDRESS {MASTER}", f"PASSWORD {MASTER_PASSWORD}",
             f"DEADLINE {DEADLINE}", ""]
    for n, info in enumerate(p for p in m.powers.values() if not p.name.startswith("_")):
        address, password = player(n)
        lines += [dpjudge_name(info.name), f"PLAYER |{address}|Player_{n}", f"ADDRESS {address}",
                  f"PASSWORD {password}", "OWNS " + " ".join(sorted(info.centers)),
                  *(str(u) for u in info.units), ""]
    return "\n".join(lines)


def mail(sender: str, body: str) -> str:
    return f"From: {sender}\nTo: {JUDGE_ADDRESS}\nSubject: orders\n\n{body}"


class Host:
    """A scratch DPjudge host with one game."""

    def __init__(self, root: Path, game: str, status: str, variant: str = "standard"):
        self.root, self.game = root, game
        subprocess.run([DPJUDGE, str(root), "init", JUDGE_ID, JUDGE_ADDRESS, URL], check=True,
                       capture_output=True)
        folder = root / "games" / game
        folder.mkdir(parents=True)
        (folder / "status").write_text(status, encoding="latin-1")
        (root / "games" / "status").write_text(f"{game} {variant} active\n")  # the variant, not the map

    def send(self, text: str) -> list[str]:
        """DPjudge handles the mail; the mails it sent."""
        done = subprocess.run([DPJUDGE, str(self.root), "mail"], input=text.encode("latin-1"),
                              capture_output=True, check=False)
        paths = done.stdout.decode().split()
        return [Path(p).read_bytes().decode("latin-1") for p in paths]

    def status(self) -> str:
        return (self.root / "games" / self.game / "status").read_bytes().decode("latin-1")


def results(sent: list[str]) -> list[dict]:
    """DPjudge's results mails, one for each text sent: its readers, subject and body."""
    out: dict[tuple[str, str], list[str]] = {}
    for raw in sent:
        msg = email.message_from_string(raw, policy=policy.compat32)
        if "results" in str(msg["Subject"]):
            readers = out.setdefault((str(msg["Subject"]), str(msg.get_payload())), [])
            readers += [a.strip() for a in str(msg["To"]).split(",")]
    return [{"to": sorted(to), "subject": subject, "body": body}
            for (subject, body), to in out.items()]


def accepted(sent: list[str]) -> bool:
    """Whether DPjudge took a power's orders: it answered with the orders it now holds."""
    return any("Current orders for" in text for text in sent)


def play_phase(host: Host, m: Map, status_text: str, addresses: dict[str, tuple[str, str]],
               rng: random.Random) -> tuple[list[dict], list[str]]:
    """The phase's mails in (each power's orders, some after a mail with a bad line; orders
    DPjudge refuses are drawn again), and then the Master's PROCESS: the mails, and DPjudge's."""
    status = parse_status(status_text)
    mails: list[dict] = []
    sent: list[str] = []

    def send(sender: str, body: str) -> list[str]:
        mails.append({"from": sender, "body": body})
        out = host.send(mail(sender, body))
        sent.extend(out)
        return out

    for power, lines in phase_orders(m, status, rng).items():
        address, password = addresses[power]
        head = f"SIGNON {power}@{host.game} {password}\n"
        if rng.random() < BAD_MAIL:
            send(address, head + f"{lines[0]}\n{bad_line(rng)}\nSIGNOFF\n")
        for _ in range(TRIES):
            if accepted(send(address, head + "".join(f"{line}\n" for line in lines) + "SIGNOFF\n")):
                break
            lines = phase_orders(m, status, rng)[power]
        else:
            raise SystemExit(f"{m.name}: DPjudge refused every order drawn for {power}:\n" + sent[-1])
    send(MASTER, f"SIGNON M{host.game} {MASTER_PASSWORD}\nPROCESS\nSIGNOFF\n")
    return mails, sent


def record(map_name: str, seed: int, years: int) -> dict:
    m = MapCache().get(map_name)
    game = game_name(map_name)
    start = opening(m)
    powers = [p for p in m.powers.values() if not p.name.startswith("_")]
    addresses = {dpjudge_name(info.name): player(n) for n, info in enumerate(powers)}
    rng = random.Random(f"{map_name}|{seed}")
    phases = []
    with tempfile.TemporaryDirectory() as scratch:
        host = Host(Path(scratch), game, start)
        text = start
        while True:
            phase = parse_status(text).phase
            assert isinstance(phase, Phase)
            if phase.year >= m.begin.year + years:
                break
            mails, sent = play_phase(host, m, text, addresses, rng)
            after = host.status()
            if parse_status(after).phase == phase:
                raise SystemExit(f"{map_name}: DPjudge did not process {phase}:\n" + "\n".join(sent))
            phases.append({"phase": phase.abbrev, "mails": mails, "results": results(sent),
                           "status": after})
            text = after
    return {"map": map_name, "seed": seed, "game": game, "start": start, "phases": phases}


def write_recorded(doc: str, fixture: Path, recorded: Callable[[], object]) -> None:
    """A recorder's command line: `--out FILE` (`fixture` by default) gets what it recorded."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--out", type=Path, default=fixture)
    args = parser.parse_args()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(recorded(), indent=1, ensure_ascii=False) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("maps", nargs="*", default=MAPS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--years", type=int, default=3)
    parser.add_argument("--out", type=Path, default=FIXTURES, help="the folder to write to")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for map_name in args.maps:
        game = record(map_name, args.seed, args.years)
        (args.out / f"{map_name}.json").write_text(json.dumps(game, indent=1, ensure_ascii=False) + "\n")
        print(f"{map_name}: {len(game['phases'])} phases, "
              f"{sum(len(p['results']) for p in game['phases'])} results mails")


if __name__ == "__main__":
    main()
