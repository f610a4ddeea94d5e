"""What happened in a game: the events the game's life returns and the mail layer turns into mailings.

Every function of the game's life (`judge.game`) returns the new status and a list of these. They are
plain frozen values: no text for people (the templates write that), only what a template needs. Each
docstring says who should be told; "everyone" means every power's player, observers and the Master
(monitors get results, deadlines and the end of the game only), except where a rule hides it.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

from judge.adjudicator.model import Resolution
from judge.orders.model import Order
from judge.status.model import Dppd, Vote
from judge.types import Phase, Unit


@dataclass(frozen=True)
class PlayerJoined:
    """A player took a seat in a forming game. Tell the player (the seat, e.g. POWER#3) and, unless
    SILENT_JOIN, everyone else ("N positions left")."""

    game: str
    seat: str
    player: Dppd
    remaining: int


@dataclass(frozen=True)
class PlayerLeft:
    """A player left a forming game before it started. Tell the player and the Master."""

    game: str
    seat: str
    player: Dppd | None


@dataclass(frozen=True)
class GameFull:
    """The last seat is filled but START_MASTER holds the start. Tell the Master."""

    game: str


@dataclass(frozen=True)
class Assignment:
    """Who plays a power from the start (`seat` was its name while forming: POWER#2 or the power)."""

    power: str
    seat: str
    player: Dppd | None  # None: a dummy


@dataclass(frozen=True)
class GameStarted:
    """The game began. Tell each player the power assigned (Diplomacy power assignment), and everyone
    the starting position (`units`, `centers`) and the first deadline."""

    game: str
    phase: Phase
    deadline: datetime | None
    assignments: tuple[Assignment, ...]
    units: Mapping[str, tuple[Unit, ...]]
    centers: Mapping[str, frozenset[str]]


@dataclass(frozen=True)
class UnitSighting:
    """BLIND: Who reads a unit's order line, and who is told it was FOUND, ARRIVES, DEPARTS or LOST.
    `there`: where the unit is at the end of the phase (FOUND and ARRIVES name it there)."""

    power: str
    unit: Unit
    there: Unit
    readers: frozenset[str]
    found: frozenset[str] = frozenset()
    arrives: frozenset[str] = frozenset()
    departs: frozenset[str] = frozenset()
    lost: frozenset[str] = frozenset()


@dataclass(frozen=True)
class ListsPlayed:
    """A Crystal Ball movement phase's locked lists as processing read them: each power with units
    (in the map's order) and each line of its SOONER list with its fate (ordered, revoked, ignored,
    no unit, noProxy or foreign: another power's unit; default: a hold added for a unit no line
    orders). `largest`: the most centres a power has, the lines that count. Mailed to everyone
    under PUBLIC_LISTS."""

    game: str
    phase: Phase
    lists: tuple[tuple[str, tuple[tuple[str, str], ...]], ...]
    largest: int


@dataclass(frozen=True)
class BribeStatement:
    """A power's account after a Payola movement phase (`judge.game.bribe_statements`): each of
    its units with its flag (`*`: paid nothing by the power), the total paid, the unit and the
    order it carries out; each winning bribe it paid (amount, unit, order); its sheet's lines as
    shown; whether it offered anything; its balance before, its reductions for overspending, what
    it paid and what it has left."""

    power: str
    units: tuple[tuple[str, int, str, str], ...]
    accepted: tuple[tuple[int, str, str], ...]
    sheet: tuple[str, ...]
    offered: bool
    previous: int
    reductions: int
    spent: int
    remaining: int
    costs_hidden: bool = False  # HIDE_COST: the units' orders without what was paid
    offers_hidden: bool = False  # HIDE_OFFERS: no `*`, and nothing of the power's own bribes


@dataclass(frozen=True)
class BribesSettled:
    """A Payola movement phase's bribes settled: each power is sent its statement."""

    game: str
    phase: Phase
    statements: tuple[BribeStatement, ...]


@dataclass(frozen=True)
class IncomePaid:
    """A Payola year's end: each power's treasury before, the year's income, and after; each power
    with money is sent its report."""

    game: str
    year: int
    reports: tuple[tuple[str, int, int, int], ...]


@dataclass(frozen=True)
class FundsTransferred:
    """A Payola power gave money to another: each is sent its account of it, with its balance
    before (`anonymous`, ANON_TRANSFER: the receiver's does not name the giver)."""

    game: str
    giver: str
    receiver: str
    amount: int
    giver_before: int
    receiver_before: int
    anonymous: bool = False


@dataclass(frozen=True)
class PhaseResults:
    """A phase was adjudicated (or, for a WAIT phase, passed by the Master). Tell everyone; append to
    the results log. `orders` are the orders each power had on file (typed), `unreadable` the lines
    that could not be read any more; `resolution` is None for a phase the judge does not adjudicate.
    `captured`: centres that changed owner at the year's end (centre -> new owner, None: unowned);
    `hidden_builds`: powers -> number of units built hidden (HIDE_BUILDS, `~` sites);
    `revealed`: hidden builds of the last adjustment phase, now shown (FOUND);
    `lost`: units destroyed because the map changed under them; `skipped`: phases passed over
    because nobody had anything to do; `next_phase` None when the game is over, `deadline` its
    deadline. `processed_deadline`: the deadline the phase processed had (the time it was processed
    when it had none), as the `:: Deadline:` line shows it; `units_before`: each power's units when
    the phase began, in the status file's order (the order the results list their orders);
    `torn`: vassal units destroyed (TORN_ALLEGIANCE); `allegiance`: each minor power's controller
    at the year's end (VASSAL_DUMMIES)."""

    game: str
    phase: Phase
    resolution: Resolution | None
    orders: Mapping[str, tuple[Order, ...]]
    unreadable: Mapping[str, tuple[str, ...]]
    civil_disorder: tuple[str, ...]
    captured: Mapping[str, str | None]
    hidden_builds: Mapping[str, int]
    revealed: Mapping[str, tuple[Unit, ...]]
    lost: Mapping[str, tuple[Unit, ...]]
    skipped: tuple[Phase, ...]
    next_phase: Phase | None
    deadline: datetime | None
    torn: Mapping[str, tuple[Unit, ...]] = field(default_factory=dict)  # TORN_ALLEGIANCE
    allegiance: tuple[tuple[str, str | None], ...] = ()  # VASSAL_DUMMIES: minor -> controller
    # BLIND: (power, unit) -> who reads its line and who is told of it (judge.game.visibility)
    sightings: Mapping[tuple[str, Unit], UnitSighting] = field(default_factory=dict)
    # BLIND: the units readers stop seeing when dislodged units with no retreat are destroyed
    blinded: tuple[UnitSighting, ...] = ()
    processed_deadline: datetime | None = None
    units_before: Mapping[str, tuple[Unit, ...]] = field(default_factory=dict)
    income: str = ""  # Payola: the year's income phase, paid on the way (`Winter 1901 Income`)


@dataclass(frozen=True)
class Preview:
    """What processing would give, the game left unchanged (PREVIEW command or rule, CIVIL_PREVIEW).
    Tell the Master only."""

    game: str
    results: PhaseResults
    completed: GameCompleted | None


@dataclass(frozen=True)
class DeadlineSet:
    """A new deadline (after a rollback, or set by the Master). Tell everyone."""

    game: str
    phase: Phase
    deadline: datetime | None
    by: str  # "judge", "MASTER" or the power that moved it


@dataclass(frozen=True)
class CivilDisorder:
    """Powers whose missing orders the judge filled in (HOLD, DISBAND, WAIVE, random REMOVE).
    Tell the Master (Diplomacy CD notice)."""

    game: str
    phase: Phase
    powers: tuple[str, ...]


@dataclass(frozen=True)
class LateNotice:
    """The deadline passed with orders missing. Tell the late powers and the Master; in the deadline's
    own hour everyone (unless HIDE_LATE_POWERS, where each late power learns only of itself)."""

    game: str
    phase: Phase
    late: tuple[str, ...]
    deadline: datetime | None


@dataclass(frozen=True)
class Reminder:
    """A WARN time before the deadline: orders are still missing. Tell each power in `powers`."""

    game: str
    phase: Phase
    powers: tuple[str, ...]
    deadline: datetime | None


@dataclass(frozen=True)
class Dismissal:
    """The grace period ended without CIVIL_DISORDER: these late powers were resigned and the game
    waits for replacements. Tell everyone (Diplomacy player dismissal). `deadline`: the one missed."""

    game: str
    phase: Phase
    powers: tuple[str, ...]
    deadline: datetime | None = None


@dataclass(frozen=True)
class Resigned:
    """A player resigned a power (or the Master resigned it); the power is on the NEED line. Tell the
    player who left and the Master; everyone learns of the vacancy from `need`."""

    game: str
    power: str
    player: Dppd | None
    by_master: bool = False


@dataclass(frozen=True)
class TookOver:
    """A player took over a vacant power. Tell the player, the Master and everyone (takeover notice)."""

    game: str
    power: str
    player: Dppd


@dataclass(frozen=True)
class Dummied:
    """The Master turned a power over to the judge (PLAYER DUMMY). Tell the old player and the Master."""

    game: str
    power: str
    player: Dppd | None


@dataclass(frozen=True)
class VoteCast:
    """A vote or proposal changed (PROPOSE_DIAS: a proposal made, or vetoed). Tell the voter; under
    PROPOSE_DIAS tell every voter of a new proposal (the proposer hidden under HIDE_PROPOSER)."""

    game: str
    power: str
    vote: Vote | None
    proposal: str | None = None
    vetoed: bool = False


@dataclass(frozen=True)
class ControlRotated:
    """ROTATE passed control of powers to their next controllers (power -> new controller).
    Tell the old and new controllers and the Master."""

    game: str
    phase: Phase
    controllers: Mapping[str, str]


@dataclass(frozen=True)
class GameCompleted:
    """The game is over: a solo (`kind` "solo"), a victory shared, a concession or a draw voted.
    Tell everyone (Diplomacy game complete). `deadline`: the one the game had when it ended (the
    time it ended when it had none), for the `:: Deadline:` line."""

    game: str
    phase: Phase  # the phase the game ended in, as its RESULT line names it
    kind: str  # "solo", "shared" (SHARED_VICTORY), "concession", "draw" (voted) or "last man"
    victors: tuple[str, ...]
    unit: Unit | None = None  # "last man": the one unit left on the board
    deadline: datetime | None = None


@dataclass(frozen=True)
class RolledBack:
    """The Master rolled the game back (or forward) to `phase`. Tell everyone, with the new deadline."""

    game: str
    phase: Phase | str  # a Phase, or "FORMING"
    forward: bool
    restored_orders: bool
    full: bool
    deadline: datetime | None
    left: str = ""  # the phase the game was in (S1902M), kept for a ROLLFORWARD back to it


Event = (PlayerJoined | PlayerLeft | GameFull | GameStarted | PhaseResults | Preview | DeadlineSet
         | CivilDisorder | LateNotice | Reminder | Dismissal | Resigned | TookOver | Dummied | VoteCast
         | ControlRotated | GameCompleted | RolledBack | ListsPlayed | BribesSettled
         | IncomePaid | FundsTransferred)
