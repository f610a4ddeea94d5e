"""A game DPjudge was playing, copied in, is processed through its next phase by the judge with the
position DPjudge itself gave (DPjudge's own status files before and after each phase, recorded)."""
from __future__ import annotations

from datetime import UTC, datetime

import pytest

from judge.runtime.store import GameStore
from judge.status import parse_status
from tests.support.dpjudge import PHASES, dpjudge_games, position
from tests.support.master import process, rollback

NOW = datetime(2026, 11, 24, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize("before, after", [
    ("alpha.W1901A.orders", "../games/alpha/status.S1902M"),  # builds and a waived build
    ("alpha.S1902M.orders", "alpha.S1902R.dpjudge"),  # a supported attack dislodges A MUN
    ("alpha.S1902R.orders", "alpha.F1902M.dpjudge"),  # its retreat
])
def test_the_judge_gives_the_position_dpjudge_gave(tmp_path, before, after):
    games = dpjudge_games(tmp_path)
    (games / "alpha" / "status").write_bytes((PHASES / before).read_bytes())
    process(GameStore(games), "alpha", NOW, force=True)
    judged = parse_status((games / "alpha" / "status").read_bytes().decode("latin-1"))
    expected = parse_status((PHASES / after).read_bytes().decode("latin-1"))
    assert position(judged) == position(expected)


def test_dpjudge_s_snapshots_roll_the_game_back(tmp_path):
    games = dpjudge_games(tmp_path)
    rollback(GameStore(games), "alpha", NOW, "S1902M")
    status = (games / "alpha" / "status").read_bytes()
    assert b"PHASE SPRING 1902 MOVEMENT\n" in status and "René_Dürr".encode("latin-1") in status
    rollback(GameStore(games), "alpha", NOW)
    assert b"PHASE WINTER 1901 ADJUSTMENTS\n" in (games / "alpha" / "status").read_bytes()
