"""`on_tick`, one behaviour per test, in DPjudge's order: what is left alone, the grace end, DELAY,
processing, late notices, WARN reminders."""
from __future__ import annotations

from dataclasses import replace

import pytest

from judge.events import (
    CivilDisorder,
    Dismissal,
    LateNotice,
    PhaseResults,
    Preview,
    Reminder,
)
from judge.game import make_dummy
from judge.game.standing import GameState, Standing
from judge.status.model import PhaseMode
from judge.game.schedule import on_tick
from tests.support.games import D, H, M, NOW, game, kinds, ordered, round_trip


# --- what the cycle leaves alone ---------------------------------------------------------------------

def test_a_game_being_processed_await_is_left_alone(standard):
    s = replace(game(standard), phase_mode=PhaseMode.AWAIT)
    assert on_tick(s, standard, D + H) == (s, [])


def test_a_game_waiting_for_replacements_gets_no_late_notices(standard):
    s = game(standard, "TIMING GRACE 0H")
    dismissed, events = on_tick(s, standard, D)
    assert kinds(events)[0] == "Dismissal" and dismissed.need
    assert on_tick(dismissed, standard, D + 20 * M) == (dismissed, [])
    assert on_tick(dismissed, standard, D + 24 * H) == (dismissed, [])


@pytest.mark.parametrize("state", [GameState.PREPARATION, GameState.WAITING, GameState.TERMINATED])
def test_a_game_held_by_its_state_file_ignores_its_deadline(standard, state):
    s = ordered(game(standard, "TIMING GRACE 0H", "RULE CIVIL_DISORDER"), but=("ITALY",))
    for now in (D - 4 * H, D, D + 24 * H):  # a reminder, civil disorder at the deadline and after
        assert on_tick(s, standard, now, Standing(state)) == (s, [])
    assert kinds(on_tick(s, standard, D - 4 * H)[1]) == ["Reminder"]  # unheld, it acts
    assert kinds(on_tick(s, standard, D)[1]) == ["CivilDisorder", "PhaseResults"]


def test_a_ready_game_held_by_the_master_is_not_processed(standard):
    s = ordered(game(standard, "RULE DEFAULT_UNORDERED"))
    assert on_tick(s, standard, D - H, Standing(GameState.WAITING)) == (s, [])
    assert kinds(on_tick(s, standard, D - H)[1]) == ["PhaseResults"]


def test_a_forming_game_is_left_alone(standard):
    from tests.support.games import forming
    s = forming(map_name="standard")
    assert on_tick(s, standard, D) == (s, [])


def test_under_no_deadline_nobody_is_late_nor_reminded(standard):
    s = game(standard, "RULE NO_DEADLINE CIVIL_DISORDER")
    for now in (D - 4 * H, D, D + 24 * H):
        assert on_tick(s, standard, now) == (s, [])


def test_under_no_deadline_a_ready_game_is_processed(standard):
    s = ordered(game(standard, "RULE NO_DEADLINE DEFAULT_UNORDERED", deadline=None))
    after, events = on_tick(s, standard, NOW)
    assert kinds(events)[0] == "PhaseResults" and after.phase.season == "FALL"


# --- the grace end -------------------------------------------------------------------------------------

def test_civil_disorder_without_grace_acts_at_the_deadline(standard):
    s = ordered(game(standard, "RULE CIVIL_DISORDER DEFAULT_UNORDERED"), but=("ITALY",))
    assert on_tick(s, standard, D - 20 * M)[1] == []
    after, events = on_tick(s, standard, D)
    assert isinstance(events[0], CivilDisorder) and events[0].powers == ("ITALY",)
    assert isinstance(events[1], PhaseResults) and after.power("ITALY").cd


def test_civil_disorder_with_grace_waits_for_the_grace_end_whatever_the_delay(standard):
    s = ordered(game(standard, "RULE CIVIL_DISORDER DEFAULT_UNORDERED", "TIMING GRACE 6H"), but=("ITALY",))
    late, events = on_tick(s, standard, D)
    assert isinstance(events[0], LateNotice) and late.delay == 24
    assert on_tick(late, standard, D + 6 * H - 20 * M)[1] == []  # still counting DELAY down
    after, events = on_tick(late, standard, D + 6 * H)
    assert kinds(events)[:2] == ["CivilDisorder", "PhaseResults"] and after.delay is None


def test_grace_zero_dismisses_at_the_deadline(standard):
    s = ordered(game(standard, "TIMING GRACE 0H", "RULE DEFAULT_UNORDERED"), but=("ITALY", "TURKEY"))
    after, events = on_tick(s, standard, D)
    assert isinstance(events[0], Dismissal) and events[0].powers == ("ITALY", "TURKEY")
    assert kinds(events)[1:] == ["Resigned", "Resigned"]
    assert [n.power for n in after.need] == ["ITALY", "TURKEY"] and after.phase == s.phase


def test_without_grace_nobody_is_ever_dismissed(standard):
    s = ordered(game(standard, "RULE DEFAULT_UNORDERED"), but=("ITALY",))
    for now in (D, D + 8 * H + 20 * M, D + 30 * 24 * H):
        after, events = on_tick(s, standard, now)
        assert kinds(events) == ["LateNotice"] and not after.need


def test_a_late_dummy_cannot_be_dismissed_and_gets_late_notices(standard):
    s = ordered(game(standard, "TIMING GRACE 1H", "RULE DEFAULT_UNORDERED"), but=("ITALY",))
    s, _ = make_dummy(s, standard, "ITALY")
    after, events = on_tick(s, standard, D + 2 * H)
    assert kinds(events) == ["LateNotice"] and after.delay == 24


def test_only_the_late_players_are_dismissed_not_the_late_dummies(standard):
    s = ordered(game(standard, "TIMING GRACE 1H", "RULE DEFAULT_UNORDERED"), but=("ITALY", "TURKEY"))
    s, _ = make_dummy(s, standard, "ITALY")
    _, events = on_tick(s, standard, D + 2 * H)
    assert isinstance(events[0], Dismissal) and events[0].powers == ("TURKEY",)


def test_civil_preview_shows_the_master_and_waits(standard):
    s = ordered(game(standard, "RULE CIVIL_PREVIEW DEFAULT_UNORDERED", "TIMING GRACE 2H"), but=("ITALY",))
    late, events = on_tick(s, standard, D)
    assert kinds(events) == ["LateNotice"]
    counted, events = on_tick(late, standard, D + 2 * H)  # CIVIL_PREVIEW lets the DELAY count down
    assert events == [] and counted.delay == 23
    shown, events = on_tick(replace(counted, delay=None), standard, D + 2 * H)
    assert isinstance(events[0], Preview) and shown.delay == 72 and shown.phase == s.phase


# --- DELAY, processing ---------------------------------------------------------------------------------

def test_a_delay_counts_down_one_per_cycle_before_anything_else(standard):
    s = replace(ordered(game(standard, "RULE DEFAULT_UNORDERED")), delay=2)
    one, events = on_tick(s, standard, D + H)
    assert (one.delay, events) == (1, [])
    none, events = on_tick(one, standard, D + H + 20 * M)
    assert (none.delay, events) == (None, [])
    _, events = on_tick(none, standard, D + H + 40 * M)
    assert kinds(events)[0] == "PhaseResults"


def test_a_ready_game_is_processed_before_its_deadline(standard):
    s = ordered(game(standard, "RULE DEFAULT_UNORDERED"))
    after, events = on_tick(s, standard, D - 24 * H)
    assert kinds(events)[0] == "PhaseResults" and after.phase.season == "FALL"


def test_the_preview_rule_previews_a_ready_game_each_72_cycles(standard):
    s = ordered(game(standard, "RULE PREVIEW DEFAULT_UNORDERED"))
    after, events = on_tick(s, standard, D)
    assert isinstance(events[0], Preview) and after.delay == 72 and after.phase == s.phase


@pytest.mark.parametrize("rules, phase_ready", [("ALWAYS_WAIT", False), ("", True)])
def test_always_wait_holds_a_ready_game_until_the_deadline(standard, rules, phase_ready):
    s = ordered(game(standard, f"RULE DEFAULT_UNORDERED {rules}".strip()))
    _, events = on_tick(s, standard, D - H)
    assert bool(events) is phase_ready
    assert kinds(on_tick(s, standard, D)[1])[0] == "PhaseResults"


def test_a_wait_flag_holds_until_the_deadline(standard):
    s = ordered(game(standard, "RULE DEFAULT_UNORDERED"))
    s = s.with_power(replace(s.power("ENGLAND"), wait=True))
    assert on_tick(s, standard, D - 20 * M)[1] == []
    assert kinds(on_tick(s, standard, D)[1])[0] == "PhaseResults"


# --- late notices and reminders ------------------------------------------------------------------------

def test_a_late_notice_then_eight_hours_of_delay(standard):
    s = ordered(game(standard, "RULE DEFAULT_UNORDERED"), but=("RUSSIA",))
    after, events = on_tick(s, standard, D)
    assert events == [LateNotice("demo", s.phase, ("RUSSIA",), D)] and after.delay == 24


def test_the_late_notice_comes_at_the_first_cycle_after_the_deadline(standard):
    s = ordered(game(standard, "RULE DEFAULT_UNORDERED"), but=("RUSSIA",))
    assert on_tick(s, standard, D - 20 * M)[1] == []
    assert kinds(on_tick(s, standard, D + 5 * M)[1]) == ["LateNotice"]


WARN_CASES = [
    # (TIMING, minutes before the deadline of the cycles that remind)
    ("", [240]),
    ("TIMING WARN 1D,12H,6H", [1440, 720, 360]),
    ("TIMING WARN 0", []),
    ("TIMING WARN 0H", []),
    ("TIMING WARN 50M", [60]),  # 11:10 is in the slot of the 11:00 cycle
    ("TIMING WARN 4H,4H", [240]),
    ("TIMING WARN 20M", [20]),
]


@pytest.mark.parametrize("timing, minutes", WARN_CASES, ids=[c[0] or "default" for c in WARN_CASES])
def test_reminders_fire_in_the_cycle_holding_each_warn_time(standard, timing, minutes):
    s = ordered(game(standard, "RULE DEFAULT_UNORDERED", *([timing] if timing else [])), but=("ITALY",))
    fired = []
    now = D - 2 * 24 * H
    while now < D:
        _, events = on_tick(s, standard, now)
        if events:
            assert events == [Reminder("demo", s.phase, ("ITALY",), D)]
            fired.append(int((D - now) / M))
        now += 20 * M
    assert fired == minutes


def test_a_late_cycle_still_reminds(standard):
    s = ordered(game(standard, "RULE DEFAULT_UNORDERED"), but=("ITALY",))
    assert kinds(on_tick(s, standard, D - 4 * H + 7 * M)[1]) == ["Reminder"]


def test_nobody_is_reminded_once_everybody_ordered(standard):
    s = ordered(game(standard, "RULE DEFAULT_UNORDERED ALWAYS_WAIT"))
    assert on_tick(s, standard, D - 4 * H)[1] == []


def test_ended_vacations_leave_the_timing_line(standard):
    s = game(standard, "TIMING NEXT 1D NOT 20250101-20250103,20250201")
    after, _ = on_tick(s, standard, NOW)
    assert after.timing == "NEXT 1D NOT 20250201"
    assert on_tick(after, standard, NOW)[0].timing == "NEXT 1D NOT 20250201"


def test_a_timing_line_of_ended_vacations_only_goes(standard):
    s = game(standard, "TIMING NOT 20250101-20250103")
    after, _ = on_tick(s, standard, NOW)
    assert after.timing is None
    assert "TIMING" not in round_trip(after)


def test_a_deadline_on_another_wall_clock(standard):
    s = ordered(game(standard, "RULE DEFAULT_UNORDERED", "ZONE Asia/Kolkata", deadline=None), but=("ITALY",))
    s = replace(s, deadline="202501081200")  # 06:30 GMT
    kolkata = D - 5 * H - 30 * M
    assert on_tick(s, standard, kolkata - 20 * M)[1] == []
    assert kinds(on_tick(s, standard, kolkata)[1]) == ["LateNotice"]
    assert kinds(on_tick(s, standard, kolkata - 4 * H - 10 * M)[1]) == ["Reminder"]  # the 02:20 cycle
