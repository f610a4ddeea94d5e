"""What the mail layer calls so that mail and cycle share one logic: `on_orders` (DELAY 1 after the
last orders), `after_mail` (a game back from waiting gets a fresh deadline), and SET DEADLINE / SET
ABSENCE / SET ZONE feeding the deadline functions."""
from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from judge.events import DeadlineSet
from judge.game import GameError, takeover
from judge.game.deadlines import current_deadline, deadline_for
from judge.timing import format_deadline, parse_timing
from judge.game.schedule import (
    add_absence,
    after_mail,
    on_orders,
    on_tick,
    set_deadline,
    set_zone,
)
from tests.support.games import D, H, M, NOW, game, kinds, ordered, player

# --- orders complete -----------------------------------------------------------------------------------

def test_the_last_orders_before_the_deadline_set_delay_1(standard):
    s = ordered(game(standard, "RULE DEFAULT_UNORDERED"))
    after, events = on_orders(s, standard, D - 5 * H)
    assert (after.delay, events) == (1, [])
    waited, events = on_tick(after, standard, D - 5 * H + 10 * M)
    assert (waited.delay, events) == (None, [])  # twenty to forty minutes to change their minds
    assert kinds(on_tick(waited, standard, D - 5 * H + 30 * M)[1])[0] == "PhaseResults"


def test_orders_completed_after_the_deadline_clear_the_late_notice_delay(standard):
    s = ordered(game(standard, "RULE DEFAULT_UNORDERED"), but=("ITALY",))
    late, _ = on_tick(s, standard, D)
    assert late.delay == 24
    after, events = on_orders(ordered(late), standard, D + H)
    assert (after.delay, events) == (None, [])
    assert kinds(on_tick(after, standard, D + H + 20 * M)[1])[0] == "PhaseResults"


def test_incomplete_orders_change_nothing(standard):
    s = ordered(game(standard, "RULE DEFAULT_UNORDERED"), but=("ITALY",))
    assert on_orders(s, standard, D - H) == (s, [])


def test_a_wait_flag_means_no_delay_the_deadline_decides(standard):
    s = ordered(game(standard, "RULE DEFAULT_UNORDERED"))
    s = s.with_power(replace(s.power("ENGLAND"), wait=True))
    assert on_orders(s, standard, D - H) == (s, [])


@pytest.mark.parametrize("rules", ["REAL_TIME", "NO_DEADLINE"])
def test_real_time_and_no_deadline_games_process_at_once(standard, rules):
    s = ordered(game(standard, f"RULE DEFAULT_UNORDERED {rules}"))
    after, events = on_orders(s, standard, D - H)
    assert kinds(events)[0] == "PhaseResults" and after.phase.season == "FALL"


def test_the_preview_rule_previews_at_once_without_a_deadline(standard):
    s = ordered(game(standard, "RULE DEFAULT_UNORDERED PREVIEW", deadline=None))
    after, events = on_orders(s, standard, D - H)
    assert kinds(events) == ["Preview"] and after.delay == 72


def test_after_mail_runs_on_orders(standard):
    s = game(standard, "RULE DEFAULT_UNORDERED")
    after, _ = after_mail(s, ordered(s), standard, D - H)
    assert after.delay == 1


# --- back from waiting ------------------------------------------------------------------------------------

def test_a_game_back_from_waiting_gets_a_fresh_deadline(standard):
    s = ordered(game(standard, "TIMING NEXT 1D GRACE 0H", "RULE DEFAULT_UNORDERED"), but=("ITALY",))
    waiting, _ = on_tick(s, standard, D)
    assert [n.power for n in waiting.need] == ["ITALY"]
    later = D + 3 * 24 * H  # Saturday: the next deadline skips the weekend
    taken, _ = takeover(waiting, standard, "ITALY", player(9), "pw9")
    after, events = after_mail(waiting, taken, standard, later)
    fresh = deadline_for(taken, standard, later).moment
    assert events == [DeadlineSet("demo", s.phase, fresh, "judge")]
    assert current_deadline(after) == fresh == datetime(2025, 1, 13, 12, 0, tzinfo=UTC)
    assert on_tick(after, standard, later + 20 * M) == (after, [])  # not dismissed again at once


def test_a_held_game_is_not_processed_when_its_orders_are_in(standard):
    s = ordered(game(standard, "RULE DEFAULT_UNORDERED REAL_TIME"))
    assert after_mail(s, s, standard, D - H, held=True) == (s, [])
    assert kinds(after_mail(s, s, standard, D - H)[1]) == ["PhaseResults"]


def test_a_game_out_of_a_hold_after_its_deadline_gets_a_fresh_deadline(standard):
    s = game(standard, "TIMING NEXT 1D")
    later = D + 3 * 24 * H  # Saturday: the next deadline skips the weekend
    after, events = after_mail(s, s, standard, later, was_held=True)
    fresh = datetime(2025, 1, 13, 12, 0, tzinfo=UTC)
    assert events == [DeadlineSet("demo", s.phase, fresh, "judge")] and current_deadline(after) == fresh


def test_a_game_out_of_a_hold_before_its_deadline_keeps_it(standard):
    s = game(standard, "TIMING NEXT 1D")
    assert after_mail(s, s, standard, D - H, was_held=True) == (s, [])


def test_a_game_that_did_not_wait_keeps_its_deadline(standard):
    s = game(standard, "RULE DEFAULT_UNORDERED")
    after, events = after_mail(s, s, standard, D - H)
    assert (after, events) == (s, [])


# --- SET DEADLINE, SET ABSENCE, SET ZONE ------------------------------------------------------------------

def test_set_deadline_writes_the_game_clock_and_clears_the_delay(standard):
    s = replace(game(standard, "ZONE America/New_York"), delay=24)
    moment = datetime(2025, 1, 10, 23, 0, tzinfo=UTC)  # 18:00 in New York
    after, events = set_deadline(s, standard, moment, "MASTER")
    assert after.deadline == "202501101800" and after.delay is None
    assert events == [DeadlineSet("demo", s.phase, moment, "MASTER")]
    assert current_deadline(after) == moment


def test_a_deadline_set_earlier_acts_at_once(standard):
    s = ordered(game(standard, "RULE DEFAULT_UNORDERED"), but=("ITALY",))
    after, _ = set_deadline(s, standard, NOW + H)
    assert kinds(on_tick(after, standard, NOW + H)[1]) == ["LateNotice"]


def test_set_deadline_refuses_a_forming_game(standard):
    from tests.support.games import forming
    with pytest.raises(GameError, match="forming"):
        set_deadline(forming(), standard, D)


def test_an_absence_shapes_the_next_deadline(standard):
    s = game(standard, "TIMING NEXT 1D NOT 20241201")
    after = add_absence(s, "20250107", "20250109", NOW)
    assert after.timing == "NEXT 1D NOT 20250107-20250109"  # the ended vacation dropped
    assert deadline_for(after, standard, NOW).moment == datetime(2025, 1, 10, 12, 0, tzinfo=UTC)
    assert current_deadline(after) == current_deadline(s)  # the deadline on file stays


def test_an_open_absence_and_a_single_day(standard):
    s = game(standard, "TIMING NEXT 1D")
    after = add_absence(add_absence(s, None, "20250108", NOW), "20250109", "20250109", NOW)
    assert parse_timing(after.timing).vacations[0].start is None
    assert after.timing == "NEXT 1D NOT -20250108,20250109"
    assert deadline_for(after, standard, NOW).moment == datetime(2025, 1, 10, 12, 0, tzinfo=UTC)


def test_set_zone_keeps_the_instant_of_the_deadline(standard):
    s = game(standard)
    paris = set_zone(s, "Europe/Paris")
    assert (paris.zone, paris.deadline) == ("Europe/Paris", "202501081300")
    assert current_deadline(paris) == D
    back = set_zone(paris, None)
    assert (back.zone, back.deadline) == (None, format_deadline(D))


def test_set_zone_refuses_an_unknown_zone(standard):
    with pytest.raises(ValueError, match="Mars"):
        set_zone(game(standard), "Mars/Olympus")


def test_the_next_deadline_reads_the_new_zone(standard):
    s = set_zone(game(standard, "TIMING NEXT 1D AT 18:00"), "America/New_York")
    moment = deadline_for(s, standard, NOW).moment
    assert moment == datetime(2025, 1, 7, 23, 0, tzinfo=UTC)  # 18:00 New York, the next day
    assert moment - NOW == timedelta(hours=35)
