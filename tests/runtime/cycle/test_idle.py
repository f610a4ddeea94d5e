"""The cycle's idle check (`judge.runtime.idle_index`, with the times of `judge.game.clock.agenda`): a game left
unread is one `on_tick` would leave alone, and whatever changes a game's files makes the next cycle
read it."""
from __future__ import annotations

import os
from dataclasses import replace
from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from judge.game.clock import agenda
from judge.runtime import idle_index as idle
from judge.runtime.cycle import run_cycle
from judge.game.deadlines import current_deadline
from judge.game.standing import FREE, GameState, Standing
from judge.status import write_status
from judge.status.model import PhaseMode
from judge.timing import format_deadline
from judge.game.schedule import on_tick
from tests.support.games import NOW, everyone_orders, running

H, M = timedelta(hours=1), timedelta(minutes=1)
D = NOW + 48 * H
TIMINGS = ["", "WARN 4H", "WARN 1D,4H,20M", "WARN 0", "WARN 7M", "GRACE 24H", "WARN 2H GRACE 0H",
           "NEXT 2D WARN 90M", "NOT 20250107"]
RULES = ["", "NO_DEADLINE", "CIVIL_DISORDER", "PREVIEW", "REAL_TIME", "ALWAYS_WAIT"]


def quiet_until(status, m, now, standing=FREE):
    """What the index keeps of a game read at `now`: when it is next due."""
    return agenda(status, m, now, standing).next or idle.FOREVER


@pytest.fixture(scope="module")
def base(standard):
    return running(standard)


@st.composite
def situations(draw, base):
    timing = draw(st.sampled_from(TIMINGS))
    rules = {draw(st.sampled_from(RULES)), draw(st.sampled_from(["", "DEFAULT_UNORDERED"]))} - {""}
    s = replace(base, timing=timing or None, rules=base.rules | rules)
    deadline = D + draw(st.integers(-3000, 3000)) * M
    s = replace(s, deadline=format_deadline(deadline) if draw(st.booleans()) else None,
                delay=draw(st.sampled_from([None, None, None, 1, 24])),
                phase_mode=draw(st.sampled_from([PhaseMode.PHASE] * 4 + [PhaseMode.WAIT, PhaseMode.AWAIT])))
    if draw(st.booleans()):
        s = everyone_orders(s, {})
        for power in draw(st.lists(st.sampled_from(["FRANCE", "ITALY", "RUSSIA"]), max_size=2)):
            s = s.with_power(replace(s.power(power), orders=None))
    standing = draw(st.sampled_from([Standing(GameState.ACTIVE), Standing(GameState.WAITING)]))
    now = D + draw(st.integers(-4000, 100)) * M + draw(st.integers(0, 59)) * timedelta(seconds=1)
    return s, standing, now


@settings(max_examples=int(os.environ.get("IDLE_EXAMPLES", "150")), deadline=None,
          suppress_health_check=list(HealthCheck))
@given(st.data())
def test_a_quiet_game_is_one_on_tick_leaves_alone(standard, base, data):
    s, standing, now = data.draw(situations(base))
    quiet = quiet_until(s, standard, now, standing)
    assert quiet >= now
    end = min(quiet, now + 5 * 24 * H)
    probes = {now, end - timedelta(seconds=1)} | {now + k * 20 * M for k in range(400) if now + k * 20 * M < end}
    for t in sorted(p for p in probes if now <= p < quiet):
        assert on_tick(s, standard, t, standing) == (s, []), (t, quiet)


def test_a_game_with_a_far_deadline_is_quiet_until_its_first_reminder(standard, base):
    s = replace(base, deadline=format_deadline(D), timing="WARN 1D,4H")
    assert quiet_until(s, standard, NOW) == D - 24 * H
    assert quiet_until(s, standard, D - 24 * H + 5 * M) == D - 24 * H + 5 * M  # its slot
    assert quiet_until(s, standard, D - 24 * H + 25 * M) == D - 4 * H
    assert quiet_until(s, standard, D - 3 * H) == D
    assert quiet_until(s, standard, D) == D


def test_due_now_and_quiet_for_ever(standard, base):
    s = replace(base, deadline=format_deadline(D))
    assert quiet_until(replace(s, delay=1), standard, NOW) == NOW
    assert quiet_until(replace(s, phase_mode=PhaseMode.AWAIT), standard, NOW) == idle.FOREVER
    assert quiet_until(replace(s, deadline=None), standard, NOW) == idle.FOREVER
    s = replace(s, rules=s.rules | {"DEFAULT_UNORDERED"})
    assert quiet_until(everyone_orders(s, {}), standard, NOW) == NOW  # ready: processed


# -- the index in the cycle ----------------------------------------------------------------------------
def started(judge, name, *lines):  # noqa: F811 - the fixture's name
    judge.start(name, ["TIMING NEXT 3D WARN 4H", *lines], NOW)


def test_an_idle_game_is_not_opened_again_until_it_is_due(judge):  # noqa: F811
    started(judge, "calm")
    first = run_cycle(judge.store, judge.config, NOW + H)
    assert first.unread == 0 and first.opened == ["calm"]
    again = run_cycle(judge.store, judge.config, NOW + H + 20 * M)
    assert again.unread == 1 and again.opened == []
    deadline = current_deadline(judge.status("calm"))
    quiet = run_cycle(judge.store, judge.config, deadline - 4 * H - 20 * M)
    assert quiet.unread == 1
    reminder = run_cycle(judge.store, judge.config, deadline - 4 * H)
    assert reminder.unread == 0 and any("reminded" in line for line in reminder.lines)


def test_the_report_keeps_the_outcome_of_a_game_with_something_to_say_only(judge):  # noqa: F811
    started(judge, "calm")
    (judge.store.root / "broken").mkdir()
    (judge.store.root / "broken" / "status").write_text("GAME broken\nNONSENSE\n")
    report = run_cycle(judge.store, judge.config, NOW + H)
    assert sorted(report.opened) == ["broken", "calm"]
    assert [o.game for o in report.outcomes] == ["broken"] and report.newly_broken == report.outcomes


def test_a_changed_status_or_state_file_is_read_at_the_next_cycle(judge):  # noqa: F811
    started(judge, "calm")
    run_cycle(judge.store, judge.config, NOW + H)
    judge.mail_in("calm", lambda s: replace(s, delay=2), NOW + H)
    assert run_cycle(judge.store, judge.config, NOW + 2 * H).unread == 0
    run_cycle(judge.store, judge.config, NOW + 3 * H)
    run_cycle(judge.store, judge.config, NOW + 4 * H)
    assert run_cycle(judge.store, judge.config, NOW + 5 * H).unread == 1
    (judge.store.root / "calm" / "state").write_text("STATE WAITING\n")
    touched = run_cycle(judge.store, judge.config, NOW + 6 * H)
    assert touched.unread == 0 and not touched.newly_broken or touched.opened


def test_a_damaged_or_foreign_index_only_costs_a_full_cycle(judge):  # noqa: F811
    started(judge, "calm")
    run_cycle(judge.store, judge.config, NOW + H)
    (judge.store.root / idle.INDEX_FILE).write_text("{broken")
    assert run_cycle(judge.store, judge.config, NOW + 2 * H).unread == 0
    assert run_cycle(judge.store, judge.config, NOW + 3 * H).unread == 1
    (judge.root / "maps").mkdir(exist_ok=True)
    (judge.root / "maps" / "new.map").write_text("USE standard\n")
    assert run_cycle(judge.store, judge.config, NOW + 4 * H).unread == 0


def test_an_earlier_now_reads_every_game(judge):  # noqa: F811
    started(judge, "calm")
    run_cycle(judge.store, judge.config, NOW + 2 * H)
    assert run_cycle(judge.store, judge.config, NOW + H).unread == 0


def test_the_index_is_read_again_on_a_change_of_a_games_files_and_not_otherwise(judge):  # noqa: F811
    started(judge, "calm")
    started(judge, "still")
    assert run_cycle(judge.store, judge.config, NOW + H).unread == 0
    (judge.store.root / "calm" / "status").read_bytes()  # reading changes nothing
    (judge.store.root / "calm" / "notes").write_text("not the game's\n")
    (judge.store.root / "stray").write_text("not a game\n")
    assert run_cycle(judge.store, judge.config, NOW + 2 * H).unread == 2
    calm = judge.status("calm")
    later = current_deadline(calm) + 24 * H
    with judge.store.locked("calm") as game:  # a hand edit: the deadline a day later
        game.write_status(write_status(replace(calm, deadline=format_deadline(later))))
    moved = run_cycle(judge.store, judge.config, NOW + 3 * H)
    assert moved.unread == 1 and moved.opened == ["calm"]
    assert idle.load_index(judge.store.root, idle.signature([judge.root / "maps"])).entries["calm"].quiet \
        == later - 4 * H  # its next reminder, from the new deadline
    (judge.store.root / "still" / "state").write_text("LISTED no\n")
    touched = run_cycle(judge.store, judge.config, NOW + 4 * H)
    assert touched.unread == 1 and touched.opened == ["still"]


def test_an_index_kept_between_cycles_follows_its_file(judge):  # noqa: F811
    started(judge, "calm")
    started(judge, "still")
    kept = idle.KeptIndex()

    def cycle(at):
        return run_cycle(judge.store, judge.config, at, kept=kept)

    assert cycle(NOW + H).unread == 0
    assert cycle(NOW + 2 * H).unread == 2
    judge.mail_in("calm", lambda s: replace(s, delay=2), NOW + 2 * H)  # a game's file changed
    assert cycle(NOW + 3 * H).opened == ["calm"]
    (judge.store.root / idle.INDEX_FILE).write_text("{broken")  # lost or edited by hand
    assert cycle(NOW + 4 * H).unread == 0
    run_cycle(judge.store, judge.config, NOW + 5 * H, fresh=True)  # another process's cycle
    assert cycle(NOW + 6 * H).unread == 2
