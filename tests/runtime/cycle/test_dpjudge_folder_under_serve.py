"""A copy of DPjudge's games folder started under the daemon's tick (as `judge serve` runs it, no
socket opened): its active game, all orders in, is processed at its deadline into the position
DPjudge itself gave from the same file (recorded), its results archive appended in DPjudge's
layout, the index kept, and the games DPjudge would not process left alone."""
from __future__ import annotations

import asyncio
import re
from datetime import UTC, datetime, timedelta

import pytest

from judge.runtime.daemon import Daemon
from judge.status import parse_status
from tests.support.cycle import Judge
from tests.support.dpjudge import PHASES, dpjudge_games, position

DEADLINE = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)  # alpha's, epsilon's and eta's
LEFT_ALONE = ("beta", "delta", "epsilon", "eta", "gamma", "zeta")


@pytest.fixture
def served(tmp_path):
    """The folder after the daemon's ticks at the deadline and the next one; the bytes before."""
    games = dpjudge_games(tmp_path)
    (games / "alpha" / "status").write_bytes((PHASES / "alpha.F1902M.orders").read_bytes())
    before = {path.relative_to(games): path.read_bytes() for path in games.rglob("*") if path.is_file()}
    judge = Judge(tmp_path)
    for now in (DEADLINE, DEADLINE + timedelta(minutes=20)):
        asyncio.run(Daemon(judge.config, clock=lambda now=now: now).run_tick())
    return games, before


def entries(archive: bytes) -> list[list[str]]:
    """The archive's entries (DPjudge's mail-box layout: each opens with a `From ` line)."""
    text = archive.decode("latin-1")
    return [("From " + entry).splitlines() for entry in re.split(r"^From ", text, flags=re.M)[1:]]


def test_the_active_game_gets_the_position_dpjudge_gave(served):
    games, _ = served
    judged = parse_status((games / "alpha" / "status").read_bytes().decode("latin-1"))
    dpjudge = parse_status((PHASES / "alpha.W1902A.dpjudge").read_bytes().decode("latin-1"))
    assert position(judged) == position(dpjudge)


def test_the_results_archive_gets_the_phase_in_dpjudge_s_layout(served):
    games, before = served
    archive = (games / "alpha" / "results").read_bytes()
    assert archive.startswith(before[(games / "alpha" / "results").relative_to(games)])
    old, new = entries(before[(games / "alpha" / "results").relative_to(games)]), entries(archive)
    assert new[:-1] == old  # one entry added, the earlier ones kept as DPjudge wrote them
    added, dpjudge = new[-1], entries((PHASES / "alpha.F1902M.results").read_bytes())[0]
    stamp = r"From \S+@\S+ \w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4}$"
    assert re.match(stamp, added[0]) and re.match(stamp, dpjudge[0])
    assert added[1] == dpjudge[1] == "Subject: Diplomacy results alpha F1902M"
    assert added[2] == dpjudge[2] == ""
    assert body(added) == body(dpjudge)


def body(entry: list[str]) -> list[str]:
    """An entry's results, less what differs between two judges: the `::` lines (the judge's id,
    its URL) and the next deadline (DPjudge's was processed by the Master before the deadline)."""
    return [line for line in entry[2:] if not line.startswith(("::", "The deadline for orders"))]


def test_the_index_and_the_games_dpjudge_would_not_process_are_left_alone(served):
    games, before = served
    for name in LEFT_ALONE:
        for path in (games / name).iterdir():
            if not path.name.startswith("."):
                assert path.read_bytes() == before[path.relative_to(games)], path
    assert (games / "status").read_bytes() == before[(games / "status").relative_to(games)]
    assert (games / "alpha" / "status.F1902M").exists()  # the snapshot of the phase processed
