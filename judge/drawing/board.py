"""What a picture shows: a `Board` (units, centres, dislodged units and, for a processed phase, the
orders with their outcome and the position after it), made from a position (`board_of_position`)
or from a phase's results (`board_of_results`).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from judge.adjudicator.model import Position, Resolution
from judge.orders.model import Build, Convoy, Disband, Hold, Move, Retreat, Support
from judge.types import ADJUSTMENTS, RETREATS, Phase, Unit

_UnitOrder = Hold | Move | Support | Convoy | Retreat | Disband  # the orders naming a unit

MOVE, SUPPORT, CONVOY, HOLD, RETREAT, DISBAND, BUILD = (
    "move", "support", "convoy", "hold", "retreat", "disband", "build")


@dataclass(frozen=True)
class DrawnOrder:
    """One order as drawn: from the unit at `at` to `to`; `via` is the unit a support or convoy is
    for (its location); `ok` False for an order that failed (bounced, cut, void, dislodged...)."""

    kind: str
    power: str
    at: str
    to: str | None = None
    via: str | None = None
    ok: bool = True


@dataclass(frozen=True)
class Outcome:
    """What stands after a processed phase, drawn over the board its orders were given on: the units
    standing after it (dislodged ones apart), and the units of the board before it that stand there
    no more (moved, retreated, disbanded, removed), drawn faded where they stood; the units each
    power built and removed in it."""

    units: Mapping[str, tuple[Unit, ...]]
    gone: Mapping[str, tuple[Unit, ...]]
    built: Mapping[str, int]
    removed: Mapping[str, int]


@dataclass(frozen=True)
class Board:
    game: str
    phase: Phase
    units: Mapping[str, tuple[Unit, ...]]
    centers: Mapping[str, frozenset[str]]
    dislodged: Mapping[str, Mapping[Unit, tuple[str, ...]]] = field(default_factory=dict)
    orders: tuple[DrawnOrder, ...] = ()
    results: bool = False  # the picture of a processed phase (its orders drawn)
    # a BLIND reader's board (None: the whole board is seen): the powers it sees in full, the
    # others' counts left out of the legend; the centres whose owner it is told, the others
    # drawn as unknown rather than unowned
    full_sight: frozenset[str] | None = None
    known_centers: frozenset[str] | None = None
    # a processed phase's units per power after it (None: count those drawn): the board drawn is the
    # one the orders were given on, with removed units crossed out and dislodged ones beside
    standing: Mapping[str, int] | None = None
    # a processed phase's position after it (None: the board before it is drawn as it stood)
    outcome: Outcome | None = None


def board_of_position(game: str, position: Position) -> Board:
    return Board(game, position.phase, position.units, position.centers, position.dislodged)


def board_of_results(game: str, resolution: Resolution) -> Board:
    """The board the phase's orders were given on, with the orders drawn and the dislodged units of
    a movement phase with where they may retreat, and the position after the phase (`Outcome`); the
    centres and the count of units as they are after the phase."""
    board = _ordered_board(game, resolution)
    return replace(board, outcome=_outcome(board, resolution))


def _outcome(board: Board, resolution: Resolution) -> Outcome:
    gone = {}
    for power in {*board.units, *board.dislodged}:
        after, still = resolution.units.get(power, ()), resolution.dislodged.get(power, {})
        before = dict.fromkeys([*board.units.get(power, ()), *board.dislodged.get(power, {})])
        left = tuple(u for u in before if u not in after and u not in still)
        if left:
            gone[power] = left
    built: dict[str, int] = {}
    removed: dict[str, int] = {}
    for order in board.orders:
        if order.ok and order.kind in (BUILD, DISBAND):
            counts = built if order.kind == BUILD else removed
            counts[order.power] = counts.get(order.power, 0) + 1
    return Outcome(resolution.units, gone, built, removed)


def _ordered_board(game: str, resolution: Resolution) -> Board:
    """The board the phase's orders were given on (see `board_of_results`)."""
    drawn = (_drawn(r.order, not r.results) for r in resolution.results)
    orders = tuple(o for o in drawn if o is not None)
    units: dict[str, list[Unit]] = {}
    standing = {p: len(resolution.units.get(p, ())) + len(resolution.dislodged.get(p, {}))
                for p in {*resolution.units, *resolution.dislodged}}
    if resolution.phase.type == RETREATS:
        arrived = {(o.power, o.to) for o in orders if o.kind == RETREAT and o.ok}
        for power, mine in resolution.units.items():
            units[power] = [u for u in mine if (power, u.location) not in arrived]
        dislodged = _ordered_units(resolution, (Retreat, Disband))
        return Board(game, resolution.phase, _frozen(units), resolution.centers,
                     {p: {u: () for u in us} for p, us in dislodged.items()},
                     tuple(o for o in orders if o.kind in (RETREAT, DISBAND)), results=True, standing=standing)
    if resolution.phase.type == ADJUSTMENTS:
        for power, mine in resolution.units.items():
            units[power] = list(mine)
        for power, gone in _ordered_units(resolution, (Disband,)).items():
            units.setdefault(power, []).extend(gone)
        return Board(game, resolution.phase, _frozen(units), resolution.centers,
                     orders=tuple(o for o in orders if o.kind in (BUILD, DISBAND)), results=True,
                     standing=standing)
    units.update(_ordered_units(resolution, (Hold, Move, Support, Convoy)))
    return Board(game, resolution.phase, _frozen(units), resolution.centers, resolution.dislodged,
                 orders, results=True, standing=standing)


def _ordered_units(resolution: Resolution, kinds: tuple[type[_UnitOrder], ...]) -> dict[str, list[Unit]]:
    found: dict[str, list[Unit]] = {}
    for result in resolution.results:
        order = result.order
        if isinstance(order, kinds):
            found.setdefault(order.power, []).append(order.unit)
    return found


def _frozen(units: dict[str, list[Unit]]) -> dict[str, tuple[Unit, ...]]:
    return {p: tuple(dict.fromkeys(us)) for p, us in units.items()}


def _drawn(order, ok: bool) -> DrawnOrder | None:
    """The drawing of one typed order (None for those with nothing to draw: WAIVE, KEEP)."""
    if isinstance(order, Move):
        return DrawnOrder(MOVE, order.power, order.unit.location, order.dest, ok=ok)
    if isinstance(order, Support):
        return DrawnOrder(SUPPORT, order.power, order.unit.location, order.dest or order.target.location,
                          via=order.target.location, ok=ok)
    if isinstance(order, Convoy):
        return DrawnOrder(CONVOY, order.power, order.unit.location, order.dest, via=order.army, ok=ok)
    if isinstance(order, Hold):
        return DrawnOrder(HOLD, order.power, order.unit.location, ok=ok)
    if isinstance(order, Retreat):
        return DrawnOrder(RETREAT, order.power, order.unit.location, order.dest, ok=ok)
    if isinstance(order, Disband):
        return DrawnOrder(DISBAND, order.power, order.unit.location, ok=ok)
    if isinstance(order, Build):
        return DrawnOrder(BUILD, order.power, order.unit.location, via=order.unit.type.value, ok=ok)
    return None  # KEEP and WAIVE leave the board as it is
