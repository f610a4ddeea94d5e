"""Status files for tests: small ones built from text (a game block, or one power's block under a
minimal game block), and Hypothesis strategies for status models, with values as the parser
normalises them."""
from __future__ import annotations

import string
from dataclasses import replace
from datetime import datetime
from pathlib import Path

from hypothesis import strategies as st

from judge.errors import StatusError
from judge.status import parse_status, write_status
from judge.status.keywords import is_keyword
from judge.status.model import (
    BuildOrder,
    DisbandOrder,
    Dislodged,
    Dppd,
    Fund,
    GameResult,
    GameStage,
    GameStatus,
    Handover,
    Layout,
    Need,
    Omniscience,
    PhaseMode,
    PlayerHistory,
    PowerStatus,
    Proposal,
    RemoveOrder,
    RetreatOrder,
    RotateStep,
    RotateWhen,
    Tax,
    Team,
    Vacancy,
    Vote,
    VoteKind,
)
from judge.types import Phase, Unit, UnitType

DATA = Path(__file__).parent.parent / "status" / "data"
PHASE_WORDS = ("PHASE", "AWAIT", "SKIP", "WAIT")


def game(text: str) -> GameStatus:
    """`text` as the game block; `PHASE FORMING` is added unless it has a phase line."""
    lines = text.strip("\n").splitlines()
    has_phase = any(line.split()[:1] and line.split()[0].upper() in PHASE_WORDS for line in lines)
    return parse_status(("" if has_phase else "PHASE FORMING\n") + "\n".join(lines) + "\n")


def power(text: str, heading: str = "POWER FRANCE") -> PowerStatus:
    """`text` as the lines of one power's block."""
    status = parse_status(f"PHASE SPRING 1901 MOVEMENT\n\n{heading}\n{text.strip()}\n")
    assert len(status.powers) == 1
    return status.powers[0]


def rewritten(status: GameStatus) -> str:
    """The status written, after checking that it reads back equal."""
    text = write_status(status)
    assert parse_status(text) == status
    return text


def problems(text: str) -> list[tuple[int, str]]:
    """(line, message) of every problem parsing `text` reports."""
    try:
        parse_status(text, "games/test/status")
    except StatusError as exc:
        assert all(p.file == "games/test/status" for p in exc.problems)
        return [(p.line, p.message) for p in exc.problems]
    raise AssertionError("no problem reported")


# --- Hypothesis strategies -------------------------------------------------------------------------

UPPER = string.ascii_uppercase
PUNCTUATION = "!#$%&'()*+,-./:;<=>?@[]^_`{|}~\"\\"

upper_word = st.text(UPPER, min_size=1, max_size=8)
word = st.text(string.ascii_letters + string.digits + PUNCTUATION + "éßøÆ", min_size=1, max_size=8)
free_text = st.lists(word, min_size=1, max_size=6).map(" ".join)
# (a power named as a directive or a unit word, `F`, could not head a block in DPjudge's layout)
power_name = st.text(UPPER + string.digits + "#_.+", min_size=1, max_size=9).filter(
    lambda name: not is_keyword(name))
province = st.text(UPPER, min_size=3, max_size=3)
location = st.one_of(province, st.tuples(province, st.sampled_from(["NC", "SC", "EC"])).map("/".join))
unit = st.builds(Unit, st.sampled_from(UnitType), location)
center = province
phase_abbrev = st.tuples(st.sampled_from(UPPER), st.integers(-50, 3000),
                         st.sampled_from(UPPER)).map(lambda t: f"{t[0]}{t[1]}{t[2]}")
token = st.text(string.ascii_letters + string.digits + "_-.", min_size=1, max_size=8)
email = st.tuples(token, token).map("@".join)
password = st.text(string.ascii_letters + string.digits + "!#$%&*+-.?@^_~", min_size=1, max_size=10)

phase = st.one_of(st.sampled_from(GameStage),
                  st.builds(Phase, upper_word, st.integers(-50, 3000), upper_word))
dppd = st.builds(Dppd, st.one_of(st.just("NO-ID"), st.just(""), st.integers(1, 9999).map("#{}".format)),
                 email, st.text(string.ascii_letters + "_.", max_size=10))
seat = st.one_of(dppd, st.sampled_from(Vacancy))


@st.composite
def player_history(draw) -> PlayerHistory:
    handovers = draw(st.lists(st.builds(Handover, phase_abbrev, seat), max_size=3))
    if handovers and draw(st.booleans()):  # a trailing phase with no earlier player
        handovers[-1] = Handover(handovers[-1].phase, None)
    return PlayerHistory(draw(seat), tuple(handovers))


@st.composite
def rotate(draw) -> tuple[RotateStep, ...]:
    types = upper_word.filter(lambda w: w not in RotateWhen.__members__)
    steps = st.one_of(
        st.just(RotateStep(RotateWhen.CONTROL)),
        st.builds(RotateStep, st.just(RotateWhen.AFTER), st.none() | types),
        st.builds(RotateStep, st.sampled_from([RotateWhen.BEFORE, RotateWhen.FOR]), types))
    return tuple(draw(st.lists(steps, max_size=4)))


vote = st.one_of(st.builds(Vote, st.sampled_from([VoteKind.YES, VoteKind.LOSS, VoteKind.SOLO])),
                 st.builds(Vote, st.just(VoteKind.DRAW), st.integers(1, 30)))
funds = st.lists(st.builds(Fund, st.integers(0, 10**6),
                           st.one_of(st.just("$"), st.text(string.ascii_letters, min_size=1, max_size=3))),
                 max_size=4, unique_by=lambda f: f.currency).map(tuple)
adjustment = st.one_of(
    st.builds(RetreatOrder, unit, location), st.builds(DisbandOrder, unit),
    st.builds(BuildOrder, st.none() | unit, st.booleans()).map(
        lambda b: b if b.unit else replace(b, hidden=False)),
    st.builds(RemoveOrder, unit))
order_text = st.tuples(unit, st.lists(st.text(UPPER + string.digits + "-/", min_size=1, max_size=5),
                                      min_size=1, max_size=5)).map(lambda t: " ".join([str(t[0]), *t[1]]))
texts = st.lists(free_text, max_size=5).map(tuple)
words = st.lists(power_name, max_size=5).map(tuple)
# Payola: an offer-sheet line (a bribe, a savings request or a `%` comment), an acceptance list, a
# vote of the Exchange, a TAX line
offer_line = st.tuples(st.sampled_from(string.digits + "%"), st.lists(word, max_size=6)).map(
    lambda t: " ".join([t[0] + t[1][0], *t[1][1:]]) if t[1] else t[0])
acceptance = st.lists(st.sampled_from(UPPER + "?"), min_size=1, max_size=8, unique=True).map("".join)
elect = st.lists(st.tuples(power_name, power_name).map(":".join).filter(lambda w: w.count(":") == 1),
                 min_size=1, max_size=3).map(tuple)
tax = st.builds(Tax, st.integers(0, 99), st.none() | center)


@st.composite
def power_status(draw, name: str) -> PowerStatus:
    has_control = draw(st.booleans())
    return PowerStatus(
        name=name,
        kind=draw(st.none() | st.sampled_from(["OBSERVER", "MONITOR", "INVESTOR"])),
        player=draw(st.none() | player_history()),
        address=tuple(draw(st.lists(email, max_size=3))),
        password=None if has_control else draw(st.none() | password),
        control=draw(words) if has_control else (),
        omniscient=draw(st.none() | st.sampled_from(Omniscience)),
        wait=draw(st.booleans()), cd=draw(st.booleans()), vote=draw(st.none() | vote),
        messages=tuple(draw(st.lists(st.just("") | free_text, max_size=3))),
        home=draw(st.none() | st.lists(center, max_size=4).map(tuple)),
        owns=tuple(draw(st.lists(center | st.sampled_from(["SC!", "SC?", "SC*"]), max_size=6))),
        sees=tuple(draw(st.lists(center, max_size=4))),
        hides=tuple(draw(st.lists(unit, max_size=3))),
        funds=draw(st.none() | funds),
        units=tuple(draw(st.lists(unit, max_size=5))),
        dislodged=tuple(draw(st.lists(st.builds(Dislodged, unit, st.lists(location, max_size=4).map(tuple)),
                                      max_size=2))),
        adjustments=tuple(draw(st.lists(adjustment, max_size=4))),
        orders=draw(st.none() | st.lists(order_text, max_size=5).map(tuple)),
        accept=draw(st.none() | acceptance),
        offers=tuple(draw(st.lists(offer_line, max_size=4))),
        sent=draw(words),
        elect=draw(st.just(()) | elect),
        state=draw(st.none() | upper_word),
    )


def _exclusive(powers: list[PowerStatus]) -> list[PowerStatus]:
    """Drop centres owned, and places occupied, by an earlier power (the parser rejects those)."""
    owned: set[str] = set()
    occupied: set[str] = set()
    retreating: set[str] = set()
    result = []
    for p in powers:
        owns = tuple(c for c in p.owns if c in ("SC!", "SC?", "SC*") or c not in owned)
        owned.update(owns)
        units = _first_per_province(p.units, occupied, lambda u: u)
        dislodged = _first_per_province(p.dislodged, retreating, lambda d: d.unit)
        result.append(replace(p, owns=owns, units=units, dislodged=dislodged))
    return result


def _first_per_province(items, taken: set[str], unit_of) -> tuple:
    kept = []
    for item in items:
        if unit_of(item).province not in taken:
            taken.add(unit_of(item).province)
            kept.append(item)
    return tuple(kept)


@st.composite
def game_status(draw, max_powers: int = 4) -> GameStatus:
    names = draw(st.lists(power_name, max_size=max_powers, unique=True))
    powers = _exclusive([draw(power_status(name)) for name in names])
    deadline = draw(st.none() | st.datetimes(datetime(1990, 1, 1), datetime(2200, 1, 1)).map(
        lambda d: d.strftime("%Y%m%d%H%M")))
    played = draw(phase)
    return GameStatus(
        name=draw(st.none() | token), phase=played, phase_mode=draw(st.sampled_from(PhaseMode)),
        map_name=draw(st.text(string.ascii_lowercase + string.digits + "_-", min_size=1,
                                          max_size=10)),
        trial=draw(st.booleans()), morphs=draw(texts), master=draw(st.none() | dppd),
        password=draw(st.none() | password), tester=draw(st.none() | st.just("") | email),
        start=draw(st.none() | free_text), finish=draw(st.none() | free_text),
        result=draw(st.none() | st.builds(GameResult, phase_abbrev, words)),
        need=tuple(draw(st.lists(st.builds(Need, power_name, st.none() | st.integers(0, 40),
                                           st.none() | st.integers(0, 40)), max_size=3))),
        description=draw(texts), origin=draw(texts),
        private=draw(st.none() | st.text(UPPER + string.digits, min_size=1, max_size=8)),
        rotate=draw(rotate()),
        rules=draw(st.frozensets(st.text(UPPER + "_", min_size=1, max_size=12), max_size=5)),
        rules_off=draw(st.frozensets(st.text(UPPER + "_", min_size=1, max_size=12), max_size=3)),
        allow=draw(st.frozensets(upper_word, max_size=3)),
        teams=tuple(draw(st.lists(st.lists(power_name, min_size=2, max_size=3).map(
            lambda ps: Team(tuple(ps))), max_size=3))),
        proposal=draw(st.none() | st.builds(Proposal, upper_word, power_name)),
        deadline=deadline, zone=draw(st.none() | token), delay=draw(st.none() | st.integers(1, 72)),
        timing=draw(st.none() | free_text),
        judge=draw(st.none() | free_text), signon=draw(st.none() | free_text),
        address=tuple(draw(st.lists(email, max_size=2))),
        groups=tuple(draw(st.lists(upper_word, max_size=3))),
        taxes=tuple(draw(st.lists(tax, max_size=3))), cap=draw(st.none() | st.integers(1, 999)),
        layout=_layout(draw(st.booleans()), played, powers),
        powers=tuple(powers),
    )


def _layout(dpjudge: bool, phase, powers: list[PowerStatus]) -> Layout:
    """DPjudge's layout shows (a power named alone) only in a started game with a power."""
    shows = isinstance(phase, Phase) and any(p.kind is None for p in powers)
    return Layout.DPJUDGE if dpjudge and shows else Layout.JUDGE
