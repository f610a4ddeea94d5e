"""The deadline cycle (`on_tick`), ROTATE, civil disorder and dummies, hidden builds, previews, and
ROLLBACK / ROLLFORWARD on a game directory."""
from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from judge.events import (
    CivilDisorder,
    ControlRotated,
    Dismissal,
    LateNotice,
    PhaseResults,
    Preview,
    Reminder,
    RolledBack,
)
from judge.game import (
    GameError,
    duties,
    on_process,
    preview,
    readiness,
    rules_in_force,
    takeover,
)
from judge.runtime.commit import run
from judge.runtime.commit import new_game
from judge.game.start import join
from judge.status import parse_status
from judge.status.model import BuildOrder, PlayerHistory, Vacancy
from judge.runtime.store import GameStore
from judge.game.schedule import on_tick
from judge.types import Phase
from tests.support.games import (
    DAY,
    NOW,
    build,
    everyone_orders,
    orders,
    player,
    round_trip,
    running,
    unit,
    units_of,
)
from tests.support.master import process, rollback

DEADLINE = NOW + 2 * DAY  # the first deadline of `running` games (default 3D movement, doubled: 6D)


def late_game(standard, *lines):
    s = running(standard, "TIMING NEXT 1D", *lines)
    return everyone_orders(s, {}), s  # (all ordered, nobody ordered)


def test_a_ready_game_is_processed_at_the_next_tick(standard):
    ready, _ = late_game(standard, "RULE DEFAULT_UNORDERED")
    s, events = on_tick(ready, standard, NOW + DAY)
    assert any(isinstance(e, PhaseResults) for e in events) and s.phase.season == "FALL"


def test_a_delay_counts_down_first(standard):
    ready, _ = late_game(standard, "RULE DEFAULT_UNORDERED")
    s, events = on_tick(replace(ready, delay=2), standard, NOW + DAY)
    assert (s.delay, events) == (1, [])


def test_always_wait_holds_until_the_deadline(standard):
    ready, _ = late_game(standard, "RULE DEFAULT_UNORDERED ALWAYS_WAIT")
    assert on_tick(ready, standard, NOW + DAY)[1] == []
    assert on_tick(ready, standard, DEADLINE)[0].phase.season == "FALL"


def test_a_wait_flag_holds_until_the_deadline(standard):
    ready, _ = late_game(standard, "RULE DEFAULT_UNORDERED")
    waiting = ready.with_power(replace(ready.power("ITALY"), wait=True))
    assert readiness(waiting, standard, NOW + DAY).reason.startswith("waiting for the deadline")


def test_reminders_then_a_late_notice(standard):
    _, s = late_game(standard)
    reminder = on_tick(s, standard, DEADLINE - timedelta(hours=4))[1]
    assert isinstance(reminder[0], Reminder) and len(reminder[0].powers) == 7
    assert on_tick(s, standard, DEADLINE - timedelta(hours=5))[1] == []
    after, events = on_tick(s, standard, DEADLINE + timedelta(minutes=5))
    assert isinstance(events[0], LateNotice) and after.delay == 24


def test_civil_disorder_at_the_deadline(standard):
    _, s = late_game(standard, "RULE CIVIL_DISORDER")
    s = orders(s, "FRANCE", "A PAR - BUR", "A MAR H", "F BRE H")
    after, events = on_tick(s, standard, DEADLINE)
    cd = next(e for e in events if isinstance(e, CivilDisorder))
    assert "FRANCE" not in cd.powers and len(cd.powers) == 6
    assert after.power("ITALY").cd and not after.power("FRANCE").cd
    assert "A BUR" in units_of(after, "FRANCE")


def test_without_civil_disorder_late_players_are_dismissed_at_the_grace_end(standard):
    _, s = late_game(standard, "TIMING GRACE 1D")
    for power in ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "RUSSIA"):
        s = orders(s, power)
    s = replace(s, rules=s.rules | {"DEFAULT_UNORDERED"})
    after, events = on_tick(s, standard, DEADLINE + 25 * timedelta(hours=1))
    assert isinstance(events[0], Dismissal) and set(events[0].powers) == {"ITALY", "TURKEY"}
    assert after.power("ITALY").player.current is Vacancy.RESIGNED and len(after.need) == 2
    assert not readiness(after, standard, DEADLINE + 2 * DAY).ready  # waits for replacements


def test_cd_dummies_does_not_wait_for_dummies(standard):
    s = running(standard, "RULE CD_DUMMIES DEFAULT_UNORDERED", players=5)
    assert s.forming
    from judge.game import start_game
    s, _ = start_game(s, standard, NOW)
    s = everyone_orders(s, {})
    dummies = [b.name for b in s.powers if b.player.current is Vacancy.DUMMY]
    for name in dummies:
        s = s.with_power(replace(s.power(name), orders=None))
    duty = duties(s, standard, rules_in_force(s, standard))
    assert set(duty.defaulted) == set(dummies) and duty.late == ()
    assert readiness(s, standard, NOW).ready


def test_rotate_before_movement_passes_control(standard):
    s = running(standard, "RULE DEFAULT_UNORDERED", "ROTATE BEFORE M", "TEAMS ENGLAND-FRANCE")
    s = s.with_power(replace(s.power("FRANCE"), control=("ENGLAND", "GERMANY")))
    s, events = on_process(everyone_orders(s, {}), standard, NOW + DAY)
    rotated = next(e for e in events if isinstance(e, ControlRotated))
    assert rotated.controllers == {"FRANCE": "GERMANY"} and s.power("FRANCE").control == ("GERMANY", "ENGLAND")


def test_rotate_for_retreats_only_when_the_power_retreats(standard):
    s = running(standard, "RULE DEFAULT_UNORDERED", "ROTATE FOR R")
    s = s.with_power(replace(s.power("TURKEY"), control=("RUSSIA", "AUSTRIA"),
                             player=PlayerHistory(Vacancy.DUMMY), password=None))
    s, events = on_process(everyone_orders(s, {}), standard, NOW + DAY)
    assert not any(isinstance(e, ControlRotated) for e in events)


def test_hidden_builds_are_recorded_then_revealed(standard):
    s = running(standard, "RULE DEFAULT_UNORDERED HIDE_BUILDS")
    s = everyone_orders(s, {"FRANCE": ["A MAR - SPA"]})
    s, _ = on_process(s, standard, NOW + DAY)
    s, _ = on_process(everyone_orders(s, {}), standard, NOW + 2 * DAY)
    assert s.phase == Phase("WINTER", 1901, "ADJUSTMENTS")
    s, events = on_process(build(s, "FRANCE", "A MAR"), standard, NOW + 3 * DAY, force=True)
    assert events[-1].hidden_builds == {"FRANCE": 1}
    assert "\nHIDES A MAR\n" in round_trip(s) and "HIDDEN" not in round_trip(s)
    s, events = on_process(everyone_orders(s, {}), standard, NOW + 4 * DAY)
    assert [str(u) for u in events[-1].revealed["FRANCE"]] == ["A MAR"]
    assert "HIDES" not in round_trip(s)


def test_a_hidden_build_kept_as_a_build_line_is_revealed(standard):
    """A status file may keep a hidden build as `BUILD A MAR HIDDEN` until the movement phase that
    reveals it: it is revealed then as a HIDES line's would be."""
    s = running(standard, "RULE DEFAULT_UNORDERED")
    s = s.with_power(replace(s.power("FRANCE"), adjustments=(BuildOrder(unit("A MAR"), hidden=True),)))
    s, events = on_process(everyone_orders(s, {}), standard, NOW + DAY)
    assert [str(u) for u in events[-1].revealed["FRANCE"]] == ["A MAR"]
    assert "HIDDEN" not in round_trip(s)


def test_preview_changes_nothing(standard):
    s = running(standard)
    shown = preview(s, standard, NOW)
    assert isinstance(shown, Preview) and shown.results.phase == Phase("SPRING", 1901, "MOVEMENT")
    _, events = on_tick(running(standard, "RULE PREVIEW DEFAULT_UNORDERED"), standard, NOW)
    assert events == []  # nobody has ordered yet
    ready = everyone_orders(running(standard, "RULE PREVIEW DEFAULT_UNORDERED"), {})
    after, events = on_tick(ready, standard, NOW)
    assert isinstance(events[0], Preview) and after.delay == 72 and after.phase == ready.phase


@pytest.fixture()
def store(tmp_path, standard):
    store = GameStore(tmp_path)
    new_game(store, "roll", "standard", "gm@example.org", "pw", ["RULE DEFAULT_UNORDERED"])
    for n in range(7):
        run(store, "roll", lambda s, m, n=n: join(s, m, NOW, player(n), "pw"))
    return store


def current(store):
    with store.locked("roll") as game:
        return parse_status(game.read_status())


def play(store, day, given):
    run(store, "roll", lambda s, m: (everyone_orders(s, given), []))
    return process(store, "roll", NOW + day * DAY)


def test_rollback_forward_and_restore(store):
    play(store, 1, {"FRANCE": ["A PAR - BUR"]})
    play(store, 2, {"FRANCE": ["A BUR - MUN"]})
    assert current(store).phase == Phase("SPRING", 1902, "MOVEMENT")  # nobody adjusts in W1901A
    events = rollback(store, "roll", NOW + 3 * DAY)
    assert isinstance(events[0], RolledBack) and current(store).phase == Phase("FALL", 1901, "MOVEMENT")
    assert current(store).power("FRANCE").orders is None
    rollback(store, "roll", NOW + 3 * DAY, "S1901M", restore=True)
    back = current(store)
    assert back.phase == Phase("SPRING", 1901, "MOVEMENT") and back.power("FRANCE").orders == ("A PAR - BUR",)
    rollback(store, "roll", NOW + 3 * DAY, forward=True)
    assert current(store).phase == Phase("FALL", 1901, "MOVEMENT")
    with pytest.raises(GameError):
        rollback(store, "roll", NOW + 3 * DAY, "S1901M", forward=True)


def test_processing_after_a_rollback_drops_the_later_snapshots(store):
    play(store, 1, {})
    play(store, 2, {})
    rollback(store, "roll", NOW + 3 * DAY, "S1901M")
    play(store, 4, {})
    with store.locked("roll") as game:
        assert sorted(game.snapshots()) == ["FORMING", "S1901M"]


def test_rollback_keeps_a_takeover_unless_full(store):
    play(store, 1, {})
    run(store, "roll", lambda s, m: __import__("judge.game", fromlist=["resign"]).resign(s, m, "ITALY"))
    run(store, "roll", lambda s, m: takeover(s, m, "ITALY", player("x"), "pw"))
    rollback(store, "roll", NOW + 2 * DAY)
    assert current(store).power("ITALY").player.current == player("x")
    rollback(store, "roll", NOW + 2 * DAY, "S1901M", full=True)
    assert current(store).power("ITALY").player.current != player("x")


def test_rollback_to_forming(store):
    rollback(store, "roll", NOW, "FORMING")
    s = current(store)
    assert s.forming and s.deadline is None and s.powers[0].name == "POWER#1"


@pytest.mark.parametrize("processed", [0, 1])
def test_a_rollforward_out_of_forming_takes_the_seats_of_its_phase(store, processed):
    for day in range(processed):
        play(store, day + 1, {})
    before = {b.name: b.player for b in current(store).powers}
    rollback(store, "roll", NOW + 2 * DAY, "FORMING")
    rollback(store, "roll", NOW + 2 * DAY, "S1901M", forward=True)
    s = current(store)
    assert s.phase == Phase("SPRING", 1901, "MOVEMENT")
    assert {b.name: b.player for b in s.powers} == before  # no seat of the forming left behind


def test_a_rollback_to_a_winter_clears_its_hidden_builds_ordered(standard):
    """A `BUILD A PAR HIDDEN` of an adjustment phase is an order (DPjudge's hidden build): rolled
    back to that phase without RESTORE, it goes with the other orders."""
    from judge.game.rollback import roll_to
    winter = replace(running(standard, "RULE HIDE_BUILDS"), phase=Phase("WINTER", 1901, "ADJUSTMENTS"))
    ordered = winter.with_power(replace(winter.power("FRANCE"),
                                        adjustments=(BuildOrder(unit("A PAR"), hidden=True),)))
    rolled, _ = roll_to(ordered, ordered, standard, NOW)
    assert rolled.power("FRANCE").adjustments == ()
    kept, _ = roll_to(ordered, ordered, standard, NOW, restore=True)
    assert kept.power("FRANCE").adjustments == ordered.power("FRANCE").adjustments
