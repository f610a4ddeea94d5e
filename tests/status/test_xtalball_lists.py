"""Crystal Ball's order lists in the status file: the status files DPjudge saved while it played a
Crystal Ball game (`tests/game/fixtures/xtalball`) read, and are written back byte for byte."""
from __future__ import annotations

from pathlib import Path

import pytest

from judge.errors import StatusError
from judge.status import parse_status, write_status

HERE = Path(__file__).parent.parent / "game" / "fixtures" / "xtalball"
SAVED = sorted([*HERE.glob("*.status"), *HERE.glob("*.after")])


@pytest.mark.parametrize("path", SAVED, ids=lambda p: p.name)
def test_a_crystal_ball_file_dpjudge_saved_round_trips_exactly(path):
    text = path.read_text()
    assert write_status(parse_status(text, path.name)) == text


def test_the_lists_are_read_apart_from_the_units_and_in_their_order():
    status = parse_status((HERE / "F1901M.status").read_text())
    france = status.power("FRANCE")
    assert [str(u) for u in france.units] == ["A PAR", "F ENG", "A SPA"]
    assert france.sooner == ("F BRE H", "A MAR - SPA", "A PAR - PIC")
    assert france.later is not None and france.later[0] == "A PAR - PIC"
    assert france.orders is None


def test_a_line_in_a_list_that_is_no_order_is_refused_with_its_line():
    with pytest.raises(StatusError, match=r"status:6: 'BRE' is not an order"):
        parse_status("GAME x\nPHASE SPRING 1901 MOVEMENT\n\nFRANCE\nSOONER\nBRE\n")
