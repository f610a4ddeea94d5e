"""What the adjudicator reads (a Position and orders) and what it returns (a Resolution)."""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Mapping

from judge.orders.model import Order
from judge.types import Phase, Unit


class Result(str, Enum):
    """The closed set of order results; success has none."""

    BOUNCE = "bounce"
    CUT = "cut"
    DISLODGED = "dislodged"
    VOID = "void"
    NO_CONVOY = "no convoy"
    INVALID = "invalid"
    REORDER = "reorder"  # NO_CHECK: one of two or more orders given to one unit (DPjudge's word)
    DESTROYED = "destroyed"


# The notes on the orders the judge gives itself for a power in civil disorder, and on a hidden build.
CIVIL_DISORDER, HIDDEN = "civil disorder", "hidden"


@dataclass(frozen=True)
class Position:
    """Everything on the board at the start of a phase.

    `dislodged` (retreat phases): power -> unit -> the locations it may retreat to.
    `centers`: power -> owned supply centres (a centre nobody lists is unowned)."""

    phase: Phase
    units: Mapping[str, tuple[Unit, ...]]
    centers: Mapping[str, frozenset[str]]
    dislodged: Mapping[str, Mapping[Unit, tuple[str, ...]]] = field(default_factory=dict)
    homes: Mapping[str, frozenset[str]] | None = None  # current homes when they differ from the map's
    dummies: frozenset[str] = frozenset()  # powers nobody plays (DUMMY in the status file), beside the map's
    # power -> its build tokens (`SC!`, `SC?`) as its OWNS line holds them; None: the map's, in the
    # game's first adjustment phase
    tokens: Mapping[str, tuple[int, int]] | None = None


@dataclass(slots=True)  # not frozen: a frozen dataclass is three times as slow to make, and a phase
class OrderResult:  # makes one per order; nothing changes one once the adjudicator returns it
    order: Order
    results: tuple[Result, ...] = ()  # empty: succeeded
    note: str = ""  # why an order was void or invalid, for the results mail


@dataclass(frozen=True)
class Resolution:
    """The outcome of one phase: per-order results and the position after it.

    `units` excludes dislodged units and keeps DPjudge's order: each power's units as the position
    listed them, those that moved, retreated or were built last (the status file keeps it, and the
    results list orders by it); `dislodged` lists them with their legal retreats (empty tuple:
    none, the unit is destroyed); `centers` is the ownership after the phase."""

    phase: Phase
    results: tuple[OrderResult, ...]
    units: Mapping[str, tuple[Unit, ...]]
    dislodged: Mapping[str, Mapping[Unit, tuple[str, ...]]]
    centers: Mapping[str, frozenset[str]]
    homes: Mapping[str, frozenset[str]] | None = None
    tokens: Mapping[str, tuple[int, int]] | None = None  # the build tokens left (position's were given)
