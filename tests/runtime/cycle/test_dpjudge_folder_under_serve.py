"""A copy of DPjudge's games folder started under the daemon's tick (as `judge serve` runs it, no
socket opened): its active game, all orders in, is processed at its deadline into the position
DPjudge itself gave from the same file (recorded), its results archive appended in DPjudge's
layout, the index kept, and the games DPjudge would not process left alone."""
from __future__ import annotations

import re

import pytest

from judge.status import parse_status
from tests.support.dpjudge import ARCHIVE, GAMES, PHASES, position, served

LEFT_ALONE = ("beta", "delta", "epsilon", "eta", "gamma", "zeta")


@pytest.fixture
def folder(tmp_path):
    """The games folder after the daemon's ticks (`served`); its files' bytes before."""
    before = {str(path.relative_to(GAMES)): path.read_bytes() for path in GAMES.rglob("*") if path.is_file()}
    return served(tmp_path), before


def entries(archive: bytes) -> list[list[str]]:
    """The archive's entries (DPjudge's mail-box layout: each opens with a `From ` line)."""
    text = archive.decode("latin-1")
    return [("From " + entry).splitlines() for entry in re.split(r"^From ", text, flags=re.M)[1:]]


def test_the_active_game_gets_the_position_dpjudge_gave(folder):
    games, _ = folder
    judged = parse_status((games / "alpha" / "status").read_bytes().decode("latin-1"))
    dpjudge = parse_status((PHASES / "alpha.W1902A.dpjudge").read_bytes().decode("latin-1"))
    assert position(judged) == position(dpjudge)


def test_the_results_archive_gets_the_phase_in_dpjudge_s_layout(folder):
    games, before = folder
    archive = (games / "alpha" / "results").read_bytes()
    assert archive.startswith(before["alpha/results"])
    old, new = entries(before["alpha/results"]), entries(archive)
    assert new[:-1] == old  # one entry added, the earlier ones kept as DPjudge wrote them
    added, dpjudge = new[-1], entries((ARCHIVE / "alpha.F1902M").read_bytes())[0]
    stamp = r"From \S+@\S+ \w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4}$"
    assert re.match(stamp, added[0]) and re.match(stamp, dpjudge[0])
    assert added[1] == dpjudge[1] == "Subject: Diplomacy results alpha F1902M"
    assert added[2] == dpjudge[2] == ""
    assert body(added) == body(dpjudge)


def body(entry: list[str]) -> list[str]:
    """An entry's results, less what differs between two judges: the `::` lines (the judge's id,
    its URL) and the next deadline (DPjudge's was processed by the Master before the deadline)."""
    return [line for line in entry[2:] if not line.startswith(("::", "The deadline for orders"))]


def test_the_index_and_the_games_dpjudge_would_not_process_are_left_alone(folder):
    games, before = folder
    for name in LEFT_ALONE:
        files = [path for path in (games / name).iterdir() if not path.name.startswith(".")]
        assert {str(path.relative_to(games)) for path in files} == {
            key for key in before if key.startswith(f"{name}/")}
        for path in files:
            assert path.read_bytes() == before[str(path.relative_to(games))], path
    assert (games / "status").read_bytes() == before["status"]
    assert (games / "alpha" / "status.F1902M").exists()  # the snapshot of the phase processed
