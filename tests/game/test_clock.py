"""The game's clock (`judge.game.clock`): the deadline in force, the steps due at a moment and when
the next is due, as tables; then, for random games and moments, the tick does something exactly when
the clock says a step is due, and nothing is due before the time the clock gives (the idle index
keeps that time: it can never leave a due game unread)."""
from __future__ import annotations

import os
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from judge.game import make_dummy, resign
from judge.game.clock import Step, agenda
from judge.game.deadlines import InForce, in_force
from judge.game.rules import rules_in_force
from judge.game.standing import FREE, GameState, Standing
from judge.status.model import PhaseMode
from judge.timing import format_deadline
from judge.game.schedule import on_tick
from tests.support.games import NOW, everyone_orders, forming, running

H, M = timedelta(hours=1), timedelta(minutes=1)
D = NOW + 48 * H  # the deadline: Wednesday 8 January 2025, 12:00 GMT
AT_NOW = "now"  # the next time expected: the moment asked about


@dataclass(frozen=True)
class Row:
    """A started standard game with a deadline at D, nobody ordered unless `ordered`."""

    id: str
    now: timedelta  # from D
    steps: tuple[Step, ...]
    next: timedelta | str | None  # from D; AT_NOW; None: nothing is ever due as things are
    lines: tuple[str, ...] = ()
    ordered: tuple[str, ...] | None = None  # every power ordered but these (DEFAULT_UNORDERED)
    delay: int | None = None
    mode: PhaseMode = PhaseMode.PHASE
    standing: Standing = FREE
    dummies: tuple[str, ...] = ()
    resigned: tuple[str, ...] = ()
    waits: tuple[str, ...] = ()
    deadline: bool = True


S = Step
ROWS = [
    # what the cycle leaves alone: its clock stands
    Row("await", H, (), None, mode=PhaseMode.AWAIT),
    Row("waiting for replacements", H, (), None, resigned=("ITALY",)),
    Row("held by the state file", H, (), None, standing=Standing(GameState.WAITING)),
    Row("no deadline, orders missing", H, (), None, deadline=False),
    Row("no deadline, everybody ordered", H, (S.PROCESS,), AT_NOW, ordered=(), deadline=False),
    # reminders, then the deadline
    Row("far off: quiet until the first WARN slot", -48 * H, (), -24 * H, ("TIMING WARN 1D,4H",)),
    Row("in a WARN time's slot", -24 * H + 5 * M, (S.REMIND,), AT_NOW, ("TIMING WARN 1D,4H",)),
    Row("past that slot: the next WARN", -24 * H + 25 * M, (), -4 * H, ("TIMING WARN 1D,4H",)),
    Row("past the last WARN: the deadline", -3 * H, (), timedelta(0), ("TIMING WARN 1D,4H",)),
    Row("default WARN 4H", -5 * H, (), -4 * H),
    Row("WARN 0: no reminder", -5 * H, (), timedelta(0), ("TIMING WARN 0",)),
    Row("a WARN time inside a slot: from the slot's start", -61 * M, (), -60 * M, ("TIMING WARN 50M",)),
    Row("nobody late: no reminder", -4 * H, (), timedelta(0), ("RULE ALWAYS_WAIT",), ordered=()),
    Row("the deadline passed, orders missing", timedelta(0), (S.LATE_NOTICE,), AT_NOW),
    Row("a late notice's DELAY", H, (S.COUNT_DOWN,), AT_NOW, delay=24),
    Row("a DELAY before the deadline", -H, (S.COUNT_DOWN,), AT_NOW, delay=1, ordered=()),
    # processing
    Row("everybody ordered", -24 * H, (S.PROCESS,), AT_NOW, ordered=()),
    Row("the PREVIEW rule", -24 * H, (S.PREVIEW,), AT_NOW, ("RULE PREVIEW",), ordered=()),
    Row("ALWAYS_WAIT: ready at the deadline", -H, (), timedelta(0), ("RULE ALWAYS_WAIT",), ordered=()),
    Row("ALWAYS_WAIT at the deadline", timedelta(0), (S.PROCESS,), AT_NOW, ("RULE ALWAYS_WAIT",),
        ordered=()),
    Row("a power's wait flag", -H, (), timedelta(0), ordered=(), waits=("ENGLAND",)),
    Row("the Master's WAIT", -H, (), timedelta(0), mode=PhaseMode.WAIT),
    Row("the Master's WAIT at the deadline", timedelta(0), (S.PROCESS,), AT_NOW, mode=PhaseMode.WAIT),
    # the grace end
    Row("GRACE 0H dismisses at the deadline", timedelta(0), (S.DISMISS,), AT_NOW, ("TIMING GRACE 0H",),
        ordered=("ITALY",)),
    Row("GRACE 6H: a late notice first", timedelta(0), (S.LATE_NOTICE,), AT_NOW, ("TIMING GRACE 6H",),
        ordered=("ITALY",)),
    Row("GRACE 6H over, whatever the DELAY", 6 * H, (S.DISMISS,), AT_NOW, ("TIMING GRACE 6H",),
        ordered=("ITALY",), delay=20),
    Row("a late DUMMY is not dismissed", 2 * H, (S.LATE_NOTICE,), AT_NOW, ("TIMING GRACE 1H",),
        ordered=("ITALY",), dummies=("ITALY",)),
    Row("no GRACE: nobody is dismissed", 30 * 24 * H, (S.LATE_NOTICE,), AT_NOW, ordered=("ITALY",)),
    Row("CIVIL_DISORDER without GRACE", timedelta(0), (S.CIVIL_DISORDER,), AT_NOW,
        ("RULE CIVIL_DISORDER",), ordered=("ITALY",)),
    Row("CIVIL_DISORDER before its GRACE end", 6 * H - 20 * M, (S.COUNT_DOWN,), AT_NOW,
        ("RULE CIVIL_DISORDER", "TIMING GRACE 6H"), ordered=("ITALY",), delay=10),
    Row("CIVIL_DISORDER at its GRACE end, whatever the DELAY", 6 * H, (S.CIVIL_DISORDER,), AT_NOW,
        ("RULE CIVIL_DISORDER", "TIMING GRACE 6H"), ordered=("ITALY",), delay=10),
    Row("CIVIL_PREVIEW counts its DELAY down", H, (S.COUNT_DOWN,), AT_NOW,
        ("RULE CIVIL_PREVIEW", "TIMING GRACE 0H"), ordered=("ITALY",), delay=3),
    Row("CIVIL_PREVIEW then previews", H, (S.PREVIEW,), AT_NOW, ("RULE CIVIL_PREVIEW", "TIMING GRACE 0H"),
        ordered=("ITALY",)),
    # NO_DEADLINE: a DEADLINE line is not in force
    Row("NO_DEADLINE: nobody late nor reminded", 24 * H, (), None, ("RULE NO_DEADLINE CIVIL_DISORDER",)),
    Row("NO_DEADLINE, everybody ordered", -24 * H, (S.PROCESS,), AT_NOW, ("RULE NO_DEADLINE",),
        ordered=()),
    Row("NO_DEADLINE, ALWAYS_WAIT: the Master processes", 24 * H, (), None,
        ("RULE NO_DEADLINE ALWAYS_WAIT",), ordered=()),
    # absences (TIMING NOT)
    Row("a vacation still on: quiet until it ends", -48 * H, (), -12 * H, ("TIMING NOT 20250107",)),
    Row("a vacation on another wall clock", -48 * H, (), -13 * H, ("TIMING NOT 20250107",
                                                                  "ZONE Europe/Paris")),
    Row("a vacation over: dropped beside the step", -H, (S.VACATIONS_OVER,), AT_NOW,
        ("TIMING NOT 20250107",)),
    Row("a vacation over and a reminder", -4 * H, (S.VACATIONS_OVER, S.REMIND), AT_NOW,
        ("TIMING NOT 20250107",)),
]


def situation(m, row: Row):
    """The status and standing a row describes."""
    rules = ["RULE DEFAULT_UNORDERED"] if row.ordered is not None else []
    s = running(m, *row.lines, *rules)
    s = replace(s, deadline=format_deadline(D) if row.deadline else None, delay=row.delay,
                phase_mode=row.mode)
    if row.ordered is not None:
        s = everyone_orders(s, {})
        for power in row.ordered:
            s = s.with_power(replace(s.power(power), orders=None))
    for power in row.waits:
        s = s.with_power(replace(s.power(power), wait=True))
    for power in row.dummies:
        s, _ = make_dummy(s, m, power)
    for power in row.resigned:
        s, _ = resign(s, m, power, by_master=True)
    return s, row.standing


@pytest.mark.parametrize("row", ROWS, ids=[r.id for r in ROWS])
def test_the_steps_due_and_the_next_time(standard, row: Row):
    s, standing = situation(standard, row)
    now = D + row.now
    plan = agenda(s, standard, now, standing)
    expected = now if row.next == AT_NOW else None if row.next is None else D + row.next
    assert (plan.steps, plan.next) == (row.steps, expected)
    assert (on_tick(s, standard, now, standing) != (s, [])) is bool(row.steps)


def test_a_game_not_in_play_has_no_clock(standard):
    s = forming(map_name="standard")
    assert agenda(s, standard, D) == agenda(s, standard, D, Standing(GameState.WAITING))
    assert agenda(s, standard, D).steps == () and agenda(s, standard, D).next is None


# --- the deadline in force and the outage guard's view ---------------------------------------------------

@pytest.mark.parametrize("lines, deadline, grace", [
    ((), D, None),
    (("TIMING GRACE 6H",), D, D + 6 * H),
    (("RULE CIVIL_DISORDER",), D, D),
    (("RULE CIVIL_DISORDER", "TIMING GRACE 2H"), D, D + 2 * H),
    (("RULE NO_DEADLINE", "TIMING GRACE 6H"), None, None),
    (("RULE SOLITAIRE",), None, None),  # brings NO_DEADLINE
])
def test_the_deadline_in_force_and_its_grace_end(standard, lines, deadline, grace):
    s = replace(running(standard, *lines), deadline=format_deadline(D))
    assert in_force(s, rules_in_force(s, standard)) == InForce(deadline, grace)


def test_the_deadline_is_read_on_the_games_wall_clock(standard):
    s = replace(running(standard, "ZONE Asia/Kolkata"), deadline="202501081200")
    assert in_force(s, rules_in_force(s, standard)).deadline == D - 5 * H - 30 * M


@pytest.mark.parametrize("row, since, missed", [
    (Row("deadline in the gap", H, (), None), -H, True),
    (Row("deadline at the gap's end", 0 * H, (), None), -2 * H, True),
    (Row("deadline at the gap's start", 2 * H, (), None), 0 * H, False),
    (Row("grace end in the gap", 7 * H, (), None, ("TIMING GRACE 6H",)), 5 * H, True),
    (Row("nothing in the gap", 5 * H, (), None, ("TIMING GRACE 6H",)), 3 * H, False),
    (Row("no deadline in force", H, (), None, ("RULE NO_DEADLINE",)), -H, False),
    (Row("waiting for replacements", H, (), None, resigned=("ITALY",)), -H, False),
    (Row("held by the state file", H, (), None, standing=Standing(GameState.WAITING)), -H, False),
    (Row("being processed", H, (), None, mode=PhaseMode.AWAIT), -H, True),
], ids=lambda v: v.id if isinstance(v, Row) else None)
def test_the_outage_guards_view(standard, row, since, missed):
    s, standing = situation(standard, row)
    assert agenda(s, standard, D + row.now, standing).missed(D + since, D + row.now) is missed


# --- consistency with the tick ---------------------------------------------------------------------------

TIMINGS = ["", "WARN 4H", "WARN 1D,4H,20M", "WARN 0", "WARN 7M", "GRACE 24H", "GRACE 0H",
           "WARN 2H GRACE 0H", "NEXT 2D WARN 90M", "NOT 20250107", "NOT 2025010715", "NOT -202501081230",
           "NOT 20250106-20250109 WARN 12H", "NOT 20250107,2025010812 GRACE 3H"]
RULES = ["", "NO_DEADLINE", "CIVIL_DISORDER", "CIVIL_PREVIEW", "PREVIEW", "REAL_TIME", "ALWAYS_WAIT"]
ZONES = [None, "Europe/London", "America/New_York", "Asia/Kolkata"]
POWERS = ["FRANCE", "ITALY", "RUSSIA"]


@pytest.fixture(scope="module")
def base(standard):
    return running(standard)


@st.composite
def games(draw, base, m):
    """A game in play in any state the clock reads, and a moment around its deadline."""
    timing = draw(st.sampled_from(TIMINGS))
    rules = {draw(st.sampled_from(RULES)), draw(st.sampled_from(["", "DEFAULT_UNORDERED"]))} - {""}
    s = replace(base, timing=timing or None, rules=base.rules | rules, zone=draw(st.sampled_from(ZONES)))
    deadline = D + draw(st.integers(-3000, 3000)) * M
    s = replace(s, deadline=format_deadline(deadline, s.zone) if draw(st.integers(0, 4)) else None,
                delay=draw(st.sampled_from([None] * 6 + [1, 2, 24])),
                phase_mode=draw(st.sampled_from([PhaseMode.PHASE] * 8 + [PhaseMode.WAIT, PhaseMode.AWAIT])))
    if draw(st.booleans()):
        s = everyone_orders(s, {})
        for power in draw(st.lists(st.sampled_from(POWERS), max_size=2)):
            s = s.with_power(replace(s.power(power), orders=None))
    for power in draw(st.lists(st.sampled_from(POWERS), max_size=1)):
        s, _ = make_dummy(s, m, power)
    if draw(st.booleans()):
        s = s.with_power(replace(s.power("ENGLAND"), wait=True))
    if draw(st.integers(0, 9)) == 0:
        s, _ = resign(s, m, "TURKEY", by_master=True)
    standing = draw(st.sampled_from([FREE] * 4 + [Standing(GameState.ACTIVE), Standing(GameState.WAITING)]))
    minutes = draw(st.one_of(st.integers(-4000, 1500), st.integers(-300, 30)))  # often near the end
    now = deadline + minutes * M + draw(st.integers(0, 59)) * timedelta(seconds=1)
    return s, standing, now


def acts(s, m, now, standing) -> bool:
    return on_tick(s, m, now, standing) != (s, [])


def probes(start: datetime, end: datetime, offset: timedelta) -> list[datetime]:
    """Moments in [start, end): every cycle slot shifted by `offset`, and the last microsecond."""
    found = {start, end - timedelta(microseconds=1)}
    t = start + offset
    while t < end:
        found.add(t)
        t += 20 * M
    return sorted(t for t in found if start <= t < end)


@settings(max_examples=int(os.environ.get("CLOCK_EXAMPLES", "150")), deadline=None,
          suppress_health_check=list(HealthCheck))
@given(st.data())
def test_the_tick_acts_exactly_when_the_clock_says_a_step_is_due(standard, base, data):
    s, standing, now = data.draw(games(base, standard))
    plan = agenda(s, standard, now, standing)
    assert acts(s, standard, now, standing) is bool(plan.steps)
    assert (plan.next == now) is bool(plan.steps)
    end = now + 5 * 24 * H if plan.next is None else min(plan.next, now + 5 * 24 * H)
    offset = data.draw(st.integers(0, 20 * 60 - 1)) * timedelta(seconds=1)
    for t in probes(now, end, offset):
        assert not agenda(s, standard, t, standing).steps, (t, plan)
        assert not acts(s, standard, t, standing), (t, plan)
    if plan.next is not None and plan.next > now:
        assert agenda(s, standard, plan.next, standing).steps, plan  # exact: due at that moment
        assert acts(s, standard, plan.next, standing), plan
