"""Two game-years of one standard game driven by `judge check --now`, every twenty minutes.

The game: `TIMING MOVE 8H RETREAT 4H ADJUST 4H WARN 3H,1H GRACE 9H DAYS SMTWTFS`, CIVIL_DISORDER,
DEFAULT_UNORDERED, on New York's clock across the spring DST change. The players act between ticks, as
mail would (orders stored, then `after_mail`); each phase shows one way a phase goes:

- S1901M: every power orders early: DELAY 1, processed at the second tick after the last orders;
- F1901M: Italy and Turkey never order: reminders at D-3H and D-1H, a late notice at D (DELAY 24),
  another eight hours and twenty minutes later, civil disorder at the grace end D+9H;
- W1901A: France builds an hour after the deadline: a late notice at D, processed at the next tick
  after its orders (the DELAY 24 on file does not hold it);
- S1902M: everyone orders early but England asks to WAIT: processed at the deadline;
- S1902R: France never retreats: reminders, late notices, at D+9H its dislodged army disbanded;
- F1902M: Russia orders between the two reminders: one reminder, then DELAY 1 and processing;
- W1902A: France builds early: DELAY 1, processed; the game is in SPRING 1903.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from zoneinfo import ZoneInfo

import pytest

from judge.timing import parse_deadline
from judge.types import Phase
from tests.support.cycle import MASTER, Judge, recipients
from tests.support.games import build, orders

H = timedelta(hours=1)
M = timedelta(minutes=1)
TICK = 20 * M
START = datetime(2025, 3, 8, 12, 0, tzinfo=UTC)  # New York goes to summer time on 9 March
LINES = ["RULE CIVIL_DISORDER DEFAULT_UNORDERED", "ZONE America/New_York",
         "TIMING MOVE 8H RETREAT 4H ADJUST 4H WARN 3H,1H GRACE 9H DAYS SMTWTFS"]
EVERYONE = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


def given(power: str, *lines: str):
    return lambda s: orders(s, power, *lines)


def everyone(*, but: tuple[str, ...] = (), **given_orders: list[str]):
    def change(s):
        for power in EVERYONE:
            if power not in but:
                s = orders(s, power, *given_orders.get(power.lower(), []))
        return s
    return change


def waiting(power: str):
    return lambda s: s.with_power(replace(s.power(power), wait=True))


def then(*changes):
    def change(s):
        for c in changes:
            s = c(s)
        return s
    return change


# phase -> [(when, relative to the phase's deadline D, what the players do)]
SCRIPT = {
    "S1901M": [(-10 * H, everyone(france=["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"],
                                  germany=["A MUN - RUH", "A BER - MUN"]))],
    "F1901M": [(-6 * H, everyone(but=("ITALY", "TURKEY"), france=["F MAO - POR", "A SPA H", "A BUR H"]))],
    "W1901A": [(1 * H, lambda s: build(s, "FRANCE", "A PAR", "F BRE"))],
    "S1902M": [(-6 * H, then(everyone(germany=["A MUN - BUR", "A RUH S A MUN - BUR"]), waiting("ENGLAND")))],
    "S1902R": [],
    "F1902M": [(-6 * H, everyone(but=("RUSSIA",))), (-2 * H, given("RUSSIA"))],
    "W1902A": [(-2 * H, lambda s: build(s, "FRANCE", "A MAR"))],
}

def delayed(first: timedelta, ticks: int, delay: int) -> list[tuple[timedelta, str]]:
    """The lines of a DELAY counting down from `delay`, one tick each from `first`."""
    return [(first + n * TICK, f"delayed, DELAY {delay - 1 - n} left") for n in range(ticks)]


LATE_TWICE_THEN_CD = [(0 * H, "late notice: {late}, DELAY 24"), *delayed(20 * M, 24, 24),
                      (8 * H + 20 * M, "late notice: {late}, DELAY 24"), *delayed(8 * H + 40 * M, 1, 24),
                      (9 * H, "civil disorder: {late}")]


def late_twice_then_cd(late: str) -> list[tuple[timedelta, str]]:
    return [(when, text.format(late=late)) for when, text in LATE_TWICE_THEN_CD]


# phase -> the report lines at each tick, by the tick's time relative to the phase's deadline D
EXPECTED = {
    "S1901M": [(-10 * H, "delayed, DELAY 0 left"), (-10 * H + TICK, "processed S1901M, next F1901M")],
    "F1901M": [(-3 * H, "reminded ITALY, TURKEY"), (-1 * H, "reminded ITALY, TURKEY"),
               *late_twice_then_cd("ITALY, TURKEY"), (9 * H, "processed F1901M, next W1901A")],
    "W1901A": [(-3 * H, "reminded FRANCE"), (-1 * H, "reminded FRANCE"),
               (0 * H, "late notice: FRANCE, DELAY 24"), *delayed(20 * M, 2, 24),
               (1 * H, "processed W1901A, next S1902M")],
    "S1902M": [(0 * H, "processed S1902M, next S1902R")],
    "S1902R": [(-3 * H, "reminded FRANCE"), (-1 * H, "reminded FRANCE"),
               *late_twice_then_cd("FRANCE"), (9 * H, "processed S1902R, next F1902M")],
    "F1902M": [(-3 * H, "reminded RUSSIA"), (-2 * H, "delayed, DELAY 0 left"),
               (-2 * H + TICK, "processed F1902M, next W1902A")],
    "W1902A": [(-3 * H, "reminded FRANCE"), (-2 * H, "delayed, DELAY 0 left"),
               (-2 * H + TICK, "processed W1902A, next S1903M")],
}


@dataclass
class Transcript:
    """What the simulation saw: per phase, the report lines and the mails of each tick, by the tick's
    time relative to the phase's deadline; the deadlines; the judge folder."""

    judge: Judge
    lines: dict[str, list[tuple[timedelta, str]]] = field(default_factory=dict)
    mails: dict[str, list[tuple[timedelta, EmailMessage]]] = field(default_factory=dict)
    deadlines: dict[str, datetime] = field(default_factory=dict)

    def mails_at(self, phase: str, offset: timedelta, subject: str) -> list[EmailMessage]:
        return [m for when, m in self.mails.get(phase, []) if when == offset and subject in m["Subject"]]


def play(judge: Judge) -> Transcript:
    """Run the game tick by tick until SPRING 1903."""
    judge.start("sim", LINES, START)
    judge.take_outbox()
    seen = Transcript(judge)
    now = START + TICK
    while now < START + 10 * 24 * H:
        status = judge.status("sim")
        phase = status.phase
        assert isinstance(phase, Phase)
        if phase.abbrev == "S1903M":
            return seen
        deadline = seen.deadlines.setdefault(phase.abbrev, parse_deadline(status.deadline, status.zone))
        for offset, change in SCRIPT[phase.abbrev]:
            if deadline + offset - TICK < now - 10 * M <= deadline + offset:
                judge.mail_in("sim", change, now - 10 * M)
        code, lines = judge.check(now)
        assert code == 0
        for line in lines:
            if line.startswith("sim: "):
                text = line[len("sim: "):].split(", deadline ")[0].split(" (deadline ")[0]
                seen.lines.setdefault(phase.abbrev, []).append((now - deadline, text))
        seen.mails.setdefault(phase.abbrev, []).extend((now - deadline, m) for m in judge.take_outbox())
        now += TICK
    raise AssertionError("the game should be in SPRING 1903 by now")


@pytest.fixture(scope="module")
def transcript(tmp_path_factory) -> Transcript:
    return play(Judge(tmp_path_factory.mktemp("judge")))


def player_of(judge: Judge, power: str) -> str:
    block = judge.status("sim").power(power)
    return block.address[0]


def test_every_action_at_its_cycle(transcript):
    assert transcript.lines == EXPECTED


def test_the_first_deadline_is_doubled_and_later_ones_never_earlier(transcript):
    deadlines = transcript.deadlines
    assert deadlines["S1901M"] == START + 16 * H  # twice MOVE 8H
    # S1901M was processed ten hours early; F1901M's deadline may not come before S1901M's
    assert deadlines["F1901M"] == deadlines["S1901M"]
    # W1901A: ADJUST 4H from the processing at F1901M's grace end
    assert deadlines["W1901A"] == deadlines["F1901M"] + 9 * H + 4 * H
    assert deadlines["W1901A"].astimezone(ZoneInfo("America/New_York")).utcoffset() == -4 * H  # summer time


def test_reminders_go_to_the_late_powers_only(transcript):
    judge = transcript.judge
    mails = transcript.mails_at("F1901M", -3 * H, "reminder")
    assert set().union(*(recipients(m) for m in mails)) == {player_of(judge, "ITALY"), player_of(judge, "TURKEY")}


def test_a_late_notice_tells_everyone_in_the_deadlines_hour_later_only_the_master_and_the_late(transcript):
    judge = transcript.judge
    first = transcript.mails_at("F1901M", 0 * H, "late notice") + \
        transcript.mails_at("F1901M", 0 * H, "deadline missed")
    everybody = {player_of(judge, p) for p in EVERYONE} | {MASTER}
    assert set().union(*(recipients(m) for m in first)) == everybody
    again = transcript.mails_at("F1901M", 8 * H + 20 * M, "late notice") + \
        transcript.mails_at("F1901M", 8 * H + 20 * M, "deadline missed")
    assert set().union(*(recipients(m) for m in again)) == \
        {player_of(judge, "ITALY"), player_of(judge, "TURKEY"), MASTER}


def test_civil_disorder_is_told_to_the_master_and_results_to_everyone(transcript):
    judge = transcript.judge
    mails = transcript.mails_at("F1901M", 9 * H, "")
    cd = [m for m in mails if "CD notice" in m["Subject"]]
    assert cd and all(recipients(m) == {MASTER} for m in cd)
    told = [m for m in mails if "civil disorder" in m["Subject"].lower()]
    assert told and all(MASTER not in recipients(m) for m in told)
    results = [m for m in mails if m not in cd and m not in told]
    everybody = {player_of(judge, p) for p in EVERYONE} | {MASTER}
    assert results and set().union(*(recipients(m) for m in results)) == everybody


def test_no_mail_names_another_players_address(transcript):
    judge = transcript.judge
    people = {player_of(judge, p) for p in EVERYONE} | {MASTER}
    mails = [m for phase in transcript.mails.values() for _, m in phase]
    assert mails and all(len(recipients(m)) == 1 for m in mails)
    for mail in mails:
        text = bytes(mail).decode("utf-8", "replace")
        assert [a for a in people - recipients(mail) if a in text] == [], mail["Subject"]


def test_the_board_after_two_years(transcript):
    status = transcript.judge.status("sim")
    assert {str(u) for u in status.power("FRANCE").units} == {"A PAR", "F BRE", "A SPA", "F POR", "A MAR"}
    assert {str(u) for u in status.power("GERMANY").units} == {"A BUR", "A RUH", "F KIE"}
    results = (transcript.judge.root / "games" / "sim" / "results").read_text()
    assert [line.split()[-1] for line in results.splitlines()
            if line.startswith("Subject: Diplomacy results sim ")] == \
        ["S1901M", "F1901M", "W1901A", "S1902M", "S1902R", "F1902M", "W1902A"]
