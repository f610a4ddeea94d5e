"""The outage guard: when no cycle ran for more than an hour, nothing late is processed, the overdue
games are held and the judgekeeper is told; `judge check --release` lets them go."""
from __future__ import annotations

import json
from datetime import datetime, timedelta

from judge.timing import parse_deadline
from tests.support.cycle import KEEPER, recipients
from tests.support.games import NOW

H = timedelta(hours=1)
M = timedelta(minutes=1)
A_DEADLINE = NOW + 2 * 24 * H  # NEXT 1D, doubled: Wednesday 12:00
EVERYONE = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
HELD = "a: held since the outage of {} (judge check --release)"


def two_games(judge):
    judge.start("a", ["TIMING NEXT 1D"], NOW)
    judge.start("b", ["TIMING NEXT 2D"], NOW)
    assert parse_deadline(judge.status("a").deadline) == A_DEADLINE
    judge.take_outbox()


def status_text(judge, name: str) -> str:
    return (judge.root / "games" / name / "status").read_text()


def test_an_hour_without_a_cycle_holds_the_games_whose_deadline_passed_in_the_gap(judge):
    two_games(judge)
    before = A_DEADLINE - H
    assert judge.check(before) == (0, [])
    untouched = status_text(judge, "a")
    after = A_DEADLINE + H
    lines = judge.check(after)[1]
    outage = (f"outage: no cycle from {before.isoformat()} to {after.isoformat()}; held 1 overdue game: a; "
              "judgekeeper told")
    assert lines == [outage, HELD.format(before.isoformat()), "mail: 1 queued in the outbox"]
    assert status_text(judge, "a") == untouched  # no late notice, nothing processed
    [alert] = judge.take_outbox()
    assert recipients(alert) == {KEEPER} and alert["Subject"] == "TEST server outage"
    assert "1 overdue game is held: a." in alert.get_content()


def test_a_held_game_stays_held_cycle_after_cycle_until_released(judge):
    two_games(judge)
    before = A_DEADLINE - H
    judge.check(before)
    judge.check(A_DEADLINE + H)
    judge.take_outbox()
    assert judge.check(A_DEADLINE + H + 20 * M) == (0, [HELD.format(before.isoformat())])
    assert judge.take_outbox() == []  # the judgekeeper is told once
    lines = judge.check(A_DEADLINE + H + 40 * M, "--release")[1]
    assert lines[0] == "a: released"
    assert lines[1].startswith("a: late notice: AUSTRIA, ENGLAND, FRANCE")
    assert judge.check(A_DEADLINE + 2 * H)[1] == ["a: delayed, DELAY 23 left"]
    state = json.loads((judge.root / "games" / ".cycle.json").read_text())
    assert state["held"] == {} and state["last_run"] == (A_DEADLINE + 2 * H).isoformat()


def test_release_of_one_game(judge):
    two_games(judge)
    judge.start("c", ["TIMING NEXT 1D"], NOW)
    judge.check(A_DEADLINE - H)
    lines = judge.check(A_DEADLINE + H)[1]
    assert "held 2 overdue games: a, c" in lines[0]
    lines = judge.check(A_DEADLINE + H + 20 * M, "--release", "--game", "c")[1]
    assert lines[0] == "c: released" and lines[1].startswith("c: late notice")
    assert judge.check(A_DEADLINE + H + 40 * M)[1][0].startswith("a: held since the outage")


def test_a_grace_end_in_the_gap_holds_the_game(judge):
    judge.start("g", ["TIMING NEXT 1D GRACE 3H", "RULE CIVIL_DISORDER"], NOW)
    deadline = A_DEADLINE
    lines = judge.check(deadline)[1]
    assert lines[0].startswith("g: late notice")
    judge.check(deadline + H)
    lines = judge.check(deadline + 4 * H)[1]  # the grace end, deadline + 3H, fell in the gap
    assert lines[0].endswith("held 1 overdue game: g; judgekeeper told")
    assert judge.status("g").phase.season == "SPRING"  # nobody put in civil disorder after downtime
    lines = judge.check(deadline + 4 * H + 20 * M, "--release")[1]
    assert lines[:2] == ["g: released", "g: civil disorder: " + ", ".join(EVERYONE)]


def test_games_not_overdue_go_on_during_the_outage_cycle(judge):
    two_games(judge)
    judge.check(A_DEADLINE - 5 * H)
    lines = judge.check(A_DEADLINE - 3 * H)[1]  # a's 4H reminder fell in the gap: nothing due
    outage = (f"outage: no cycle from {(A_DEADLINE - 5 * H).isoformat()} to "
              f"{(A_DEADLINE - 3 * H).isoformat()}; held 0 overdue games; judgekeeper told")
    assert lines == [outage, "mail: 1 queued in the outbox"]
    for hours in (2, 1, 0):
        lines = judge.check(A_DEADLINE - hours * H)[1]
    assert lines[0].startswith("a: late notice")  # a was never held


def test_cycles_an_hour_apart_are_no_outage(judge):
    two_games(judge)
    judge.check(A_DEADLINE - H)
    lines = judge.check(A_DEADLINE)[1]
    assert lines[0].startswith("a: late notice")


def test_the_first_cycle_ever_is_no_outage(judge):
    two_games(judge)
    lines = judge.check(A_DEADLINE + 24 * H)[1]
    assert lines[0].startswith("a: late notice")


def test_a_cycle_of_one_game_does_not_count_as_a_full_cycle(judge):
    two_games(judge)
    judge.check(A_DEADLINE - 2 * H)
    judge.check(A_DEADLINE - H, "--game", "b")
    lines = judge.check(A_DEADLINE + 20 * M)[1]
    assert lines[0].startswith("outage: no cycle from " + (A_DEADLINE - 2 * H).isoformat())


def test_an_unreadable_state_file_starts_afresh(judge):
    two_games(judge)
    (judge.root / "games").mkdir(exist_ok=True)
    (judge.root / "games" / ".cycle.json").write_text("{not json")
    lines = judge.check(A_DEADLINE)[1]
    assert "unreadable" in lines[0] and "starting afresh" in lines[0]
    assert lines[1].startswith("a: late notice")
    state = json.loads((judge.root / "games" / ".cycle.json").read_text())
    assert datetime.fromisoformat(state["last_run"]) == A_DEADLINE
