"""Work on one game never interleaves: a mail for a game arriving while its tick processes it, or while
a judgekeeper runs `judge process` by hand, waits for the game's lock and is carried out after;
and a tick over fifty games with one broken status file processes the other forty-nine and tells
the broken one's Master and the judgekeeper."""
from __future__ import annotations

import re
import time
from email import message_from_bytes, policy
from pathlib import Path

import pytest

from judge.runtime.cycle import check
from judge.status import parse_status
from judge.runtime.store import GameStore
from tests.support.faults import (
    TICK_AT,
    everyone_ordered,
    judge_command,
    mail,
    make_judge,
    player,
    start,
    started,
    write_config,
)

pytestmark = pytest.mark.faults

SLOW = 2.0


def france(store: GameStore, game: str) -> tuple[int, str]:
    """Which player plays FRANCE, and one of its units."""
    status = parse_status((store.root / game / "status").read_text())
    block = status.power("FRANCE")
    number = int(re.search(r"player(\d)@", block.player.current.email).group(1))
    return number, str(block.units[0])


def wait_for(process, line: str) -> None:
    while True:
        got = process.stdout.readline().decode()
        assert got, f"the worker ended before saying {line!r}"
        if got.strip() == line:
            return


def replies(config, subject: str) -> list[str]:
    folder = Path(config.paths.spool) / "outbox"
    found = []
    for path in folder.glob("*.eml"):
        msg = message_from_bytes(path.read_bytes(), policy=policy.default)
        if msg["Subject"] == subject:
            found.append(" ".join(msg.get_content().split()))
    return found


@pytest.mark.parametrize("kind, game", [("tick", "due"), ("process", "g")])
def test_a_mail_waits_for_the_game_being_processed_and_comes_after(tmp_path, kind, game):
    config = make_judge(tmp_path / "judge", kind)
    store = GameStore(config.paths.games)
    number, unit = france(store, game)
    when = TICK_AT
    worker = start(config, kind, when, JUDGE_TEST_SLOW=str(SLOW))
    wait_for(worker, f"inside {game}")
    sent_at = time.perf_counter()
    orders = mail(player(number).email, f"SIGNON F{game} pw{number}\n{unit} H", 7)
    piped = judge_command(config, "mail", stdin=orders)
    waited = time.perf_counter() - sent_at
    output = worker.communicate(timeout=60)[0].decode()
    assert worker.returncode == 0 and "done" in output, output
    assert piped.returncode == 0, piped.stderr
    assert waited > SLOW / 2, "the mail did not wait for the game's lock"
    status = parse_status((store.root / game / "status").read_text())
    results = (store.root / game / "results").read_text()
    assert str(status.phase) == "FALL 1901 MOVEMENT" and results.count(f"Diplomacy results {game} S1901M\n") == 1
    assert status.power("FRANCE").orders == (unit + " H",)  # the mail's, for the new phase
    # the mail's orders only: its order confirmation, for the new phase, answers it
    assert any("Current orders for France" in text
               for text in replies(config, f"Diplomacy orders {game} F1901M"))


def copy_game(store: GameStore, source: str, name: str) -> None:
    folder = store.root / name
    folder.mkdir()
    text = (store.root / source / "status").read_text()
    (folder / "status").write_text(text.replace(f"GAME {source}", f"GAME {name}", 1))


def test_fifty_games_one_broken_the_others_processed_the_master_and_keeper_told(tmp_path):
    config = write_config(tmp_path)
    store = GameStore(config.paths.games)
    started(store, "g00")
    everyone_ordered(store, "g00")
    for n in range(1, 50):
        copy_game(store, "g00", f"g{n:02d}")
    broken = store.root / "g17" / "status"
    broken.write_text(broken.read_text().replace("\nPOWER ", "\nRULE\nPOWER ", 1))
    lines: list[str] = []
    assert check(config, TICK_AT, out=lines.append, err=lines.append) == 0
    processed = [line for line in lines if re.match(r"g\d\d: processed S1901M, next F1901M", line)]
    assert len(processed) == 49 and not any(line.startswith("g17: processed") for line in lines)
    assert any(line.startswith("g17: broken status file: ") for line in lines)
    for n in range(50):
        status_text = (store.root / f"g{n:02d}" / "status").read_text()
        assert ("PHASE FALL 1901 MOVEMENT" in status_text) == (n != 17)
    alerts = [m for m in _outbox(config) if m["Subject"] == "Diplomacy ERRORS (g17)"]
    assert sorted(str(m["To"]) for m in alerts) == ["gm@crash.test", "keeper@crash.test"]
    results = [m for m in _outbox(config) if "S1901M" in str(m["Subject"])]
    assert len({str(m["Subject"]) for m in results}) == 49


def _outbox(config):
    folder = Path(config.paths.spool) / "outbox"
    return [message_from_bytes(p.read_bytes(), policy=policy.default) for p in folder.glob("*.eml")]
