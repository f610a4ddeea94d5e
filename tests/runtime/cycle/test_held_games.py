"""Games held by their state file (`games/<name>/state`): in preparation, waiting on the Master's WAIT,
or terminated. The cycle ignores their deadlines, the outage guard never holds them, and a broken
state file is reported like a broken status file."""
from __future__ import annotations

from datetime import timedelta

import pytest

from tests.support.games import NOW

H = timedelta(hours=1)
DEADLINE = NOW + 2 * 24 * H  # NEXT 1D, doubled: Wednesday 12:00


def state_file(judge, name: str, text: str) -> None:
    (judge.root / "games" / name / "state").write_text(text)


def status_text(judge, name: str) -> str:
    return (judge.root / "games" / name / "status").read_text()


@pytest.mark.parametrize("state", ["preparation", "waiting", "terminated"])
def test_the_cycle_ignores_the_deadline_of_a_held_game(judge, state):
    judge.start("held", ["TIMING NEXT 1D GRACE 0H", "RULE CIVIL_DISORDER"], NOW)
    judge.start("free", ["TIMING NEXT 1D GRACE 0H", "RULE CIVIL_DISORDER"], NOW)
    state_file(judge, "held", f"STATE {state}\n")
    judge.take_outbox()
    before = status_text(judge, "held")
    for now in (DEADLINE, DEADLINE + H / 3, DEADLINE + 2 * H / 3):
        code, lines = judge.check(now)
        assert code == 0 and not any(line.startswith("held") for line in lines)
    assert status_text(judge, "held") == before
    assert str(judge.status("free").phase) != "SPRING 1901 MOVEMENT"  # processed in civil disorder


def test_a_game_out_of_its_hold_goes_on(judge):
    judge.start("g", ["TIMING NEXT 1D"], NOW)
    state_file(judge, "g", "STATE waiting\nLISTED no\n")
    assert judge.check(DEADLINE)[1] == []
    state_file(judge, "g", "LISTED no\n")
    assert judge.check(DEADLINE + H)[1][0].startswith("g: late notice")


def test_the_outage_guard_never_holds_a_held_game(judge):
    judge.start("g", ["TIMING NEXT 1D"], NOW)
    state_file(judge, "g", "STATE waiting\n")
    judge.check(DEADLINE - H)
    lines = judge.check(DEADLINE + H)[1]
    assert lines[0].startswith("outage: ") and "held 0 overdue games;" in lines[0]
    assert not any(line.startswith("g: held") for line in lines)


def test_a_broken_state_file_is_reported_and_the_game_left_alone(judge):
    judge.start("g", ["TIMING NEXT 1D"], NOW)
    state_file(judge, "g", "STATE paused\n")
    before = status_text(judge, "g")
    lines = judge.check(DEADLINE)[1]
    assert lines[0] == ("g: broken status file: g/state:1: STATE is preparation, waiting or "
                        "terminated, not 'paused'")
    assert status_text(judge, "g") == before
