"""Orders as the status file keeps them, and who still owes some.

Movement orders are the lines after a power's ORDERS line (`A PAR - BUR`), read again here with the
map; retreat and adjustment orders are its RETREAT, DISBAND, BUILD and REMOVE lines. A power owes
orders in a movement phase when it has units, in a retreat phase when a dislodged unit of its has
somewhere to go, in an adjustment phase when it must remove some (not all) of its units or may build
somewhere. Other phase types, and SKIP and WAIT phases, ask nobody for orders, but for a Crystal
Ball game's SKIP movement phase, where every power owes its list for the next one. In Payola a
movement phase asks for offer sheets (`judge.game.payola_orders`).
"""
from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from judge.adjudicator.builds import PowerBuilds, build_options
from judge.errors import OrderError
from judge.game.order_lists import lists_owed, lists_submitted, plays_lists
from judge.game.payola_orders import VARIANT as PAYOLA, owes_sheet, sheet_in
from judge.game.positions import build_tokens, centers_of, power_blocks, units_of
from judge.maps.model import Map
from judge.orders.model import Build, Convoy, Disband, Hold, Move, Order, Proxy, Retreat, Support, Waive
from judge.orders.parser import OrderReader
from judge.rule_names import Rule, Rules
from judge.status.model import (
    BuildOrder,
    DisbandOrder,
    GameStatus,
    PhaseMode,
    PowerStatus,
    RemoveOrder,
    RetreatOrder,
)
from judge.types import ADJUSTMENTS, MOVEMENT, RETREATS, Phase


@dataclass(frozen=True)
class OrderSheet:
    """Every power's orders on file, typed; lines that no longer read (a hand edit) apart."""

    orders: Mapping[str, tuple[Order, ...]]
    unreadable: Mapping[str, tuple[str, ...]]


def orders_on_file(status: GameStatus, m: Map, phase: Phase, rules: Rules,
                   powers: Collection[str] | None = None) -> OrderSheet:
    """The orders of `phase` in the status (`m`: the map in force in the phase); of `powers`
    only, when given (each power's orders read as they are in the whole sheet)."""
    orders: dict[str, tuple[Order, ...]] = {}
    unreadable: dict[str, tuple[str, ...]] = {}
    if phase.type == MOVEMENT:
        reader = OrderReader(m, rules)
        units = units_of(status, m)
        for block in power_blocks(status, m):
            if powers is not None and block.name not in powers:
                continue
            good, bad = [], []
            for text in block.orders or ():
                try:
                    good.append(reader.read(block.name, text, phase, units))
                except OrderError:
                    bad.append(text)
            if block.orders is not None:
                orders[block.name] = tuple(good)
            if bad:
                unreadable[block.name] = tuple(bad)
    elif phase.type in (RETREATS, ADJUSTMENTS):
        for block in power_blocks(status, m):
            if powers is not None and block.name not in powers:
                continue
            typed = tuple(_adjustment(block.name, o) for o in block.adjustments)
            if typed:
                orders[block.name] = typed
    return OrderSheet(orders, unreadable)


def proxied(orders: Mapping[str, tuple[Order, ...]], status: GameStatus, m: Map
            ) -> dict[str, tuple[Order, ...]]:
    """The orders the units follow under PROXY_OK, as DPjudge picks them: a unit its owner gave
    to another power with PROXY follows that power's order (none: it holds); an order for another
    power's unit counts only when the unit is proxied to the power giving it; a PROXY is no order
    itself."""
    owner = {unit.province: block.name for block in power_blocks(status, m) for unit in block.units}
    to = {o.unit.province: o.to for power, given in orders.items() for o in given
          if isinstance(o, Proxy) and owner.get(o.unit.province) == power}
    return {power: tuple(o for o in given if not isinstance(o, Proxy) and (
                not isinstance(o, (Hold, Move, Support, Convoy))
                or owner.get(o.unit.province) == power or to.get(o.unit.province) == power))
            for power, given in orders.items()}


def _adjustment(power: str, order: object) -> Order:
    if isinstance(order, RetreatOrder):
        return Retreat(power, order.unit, order.destination)
    if isinstance(order, (DisbandOrder, RemoveOrder)):
        return Disband(power, order.unit)
    assert isinstance(order, BuildOrder)
    return Waive(power) if order.unit is None else Build(power, order.unit)


@dataclass(frozen=True)
class Duties:
    """Who owes orders in the phase, who has given them, and who is late."""

    due: tuple[str, ...]
    submitted: tuple[str, ...]
    late: tuple[str, ...]  # due, not submitted, and waited for
    defaulted: tuple[str, ...]  # due, not submitted, not waited for (CD_DUMMIES dummies)
    waiting: tuple[str, ...]  # powers with their WAIT flag set

    @property
    def missing(self) -> tuple[str, ...]:
        return self.late + self.defaulted


def plays_offers(status: GameStatus) -> bool:
    """Whether the game's movement orders are bought with Payola's offer sheets (kept here, with
    who owes orders, so that a standard game's orders ask no Payola module)."""
    return status.variant == PAYOLA


INVESTOR = "INVESTOR"  # the Exchange's seat (`judge.game.exchange`)


def is_investor(status: GameStatus, block: PowerStatus | None) -> bool:
    """Whether the block is an investor of a Payola game: a seat with no power that mails offer
    sheets of its own (kept here, on an orders mail's path, with who owes orders)."""
    return block is not None and block.kind == INVESTOR and plays_offers(status)


def bids_freely(status: GameStatus, power: str, phase: Phase) -> bool:
    """Whether `power` may send an offer sheet in `phase` though none is owed: an investor, in a
    movement phase."""
    return phase.type == MOVEMENT and is_investor(status, status.power(power))


def due_powers(status: GameStatus, m: Map, rules: Rules) -> tuple[str, ...]:
    """`duties(...).due` without reading the orders on file: the powers owing orders now."""
    phase = status.phase
    if isinstance(phase, Phase) and skip_lists(status, phase):
        return lists_owed(power_blocks(status, m), skip=True)
    if not isinstance(phase, Phase) or status.phase_mode in (PhaseMode.SKIP, PhaseMode.WAIT):
        return ()
    return tuple(owing(status, m, phase, rules))


def duties(status: GameStatus, m: Map, rules: Rules) -> Duties:
    """`m`: the map in force in the status's phase."""
    phase = status.phase
    if isinstance(phase, Phase) and skip_lists(status, phase):
        return _skip_duties(status, m)
    if not isinstance(phase, Phase) or status.phase_mode in (PhaseMode.SKIP, PhaseMode.WAIT):
        return Duties((), (), (), (), ())
    sheet = orders_on_file(status, m, phase, rules)
    due = owing(status, m, phase, rules)
    counts = adjustment_counts(status, m, phase, rules) if phase.type == ADJUSTMENTS else {}
    if phase.type == MOVEMENT and plays_lists(status):
        submitted = lists_submitted(power_blocks(status, m))
    elif phase.type == MOVEMENT and plays_offers(status):
        submitted = tuple(b.name for b in power_blocks(status, m) if b.name in due and sheet_in(b))
    else:
        submitted = tuple(p for p in due if _complete(status.power(p), sheet.orders.get(p), phase,
                                                      rules, counts.get(p)))
    missing = [p for p in due if p not in submitted]
    skipped = tuple(p for p in missing if not waited_for(status.power(p), rules))
    return Duties(tuple(due), submitted, tuple(p for p in missing if p not in skipped), skipped,
                  tuple(b.name for b in power_blocks(status, m) if b.wait))


def skip_lists(status: GameStatus, phase: Phase) -> bool:
    """A Crystal Ball game's SKIP movement phase, which takes the lists for the next one."""
    return status.phase_mode is PhaseMode.SKIP and phase.type == MOVEMENT and plays_lists(status)


def _skip_duties(status: GameStatus, m: Map) -> Duties:
    """Every power owes its list, units or not (DPjudge waits for them all too)."""
    blocks = power_blocks(status, m)
    due = lists_owed(blocks, skip=True)
    submitted = lists_submitted(blocks, skip=True)
    return Duties(due, submitted, tuple(p for p in due if p not in submitted), (),
                  tuple(b.name for b in blocks if b.wait))


def waited_for(block: PowerStatus | None, rules: Rules) -> bool:
    """Whether processing waits for the power: not for a DUMMY under CD_DUMMIES."""
    dummy = block is not None and block.player is not None and block.player.dummy
    return not (dummy and Rule.CD_DUMMIES in rules)


def owing(status: GameStatus, m: Map, phase: Phase, rules: Rules) -> list[str]:
    """The powers with something to order in `phase`, in file order."""
    blocks = power_blocks(status, m)
    if phase.type == MOVEMENT and plays_offers(status):
        return [b.name for b in blocks if owes_sheet(b, rules)]
    if phase.type == MOVEMENT:
        return [b.name for b in blocks if b.units]
    if phase.type == RETREATS:
        return [b.name for b in blocks if any(d.retreats for d in b.dislodged)]
    if phase.type == ADJUSTMENTS:
        counts = adjustment_counts(status, m, phase, rules)
        return [b.name for b in blocks if b.name in counts]
    return []


def adjustment_options(status: GameStatus, m: Map, phase: Phase, rules: Rules
                       ) -> dict[str, PowerBuilds]:
    """Power -> what it may build or must remove in the adjustment phase `phase`."""
    homes = {b.name: frozenset(b.home) for b in power_blocks(status, m) if b.home is not None}
    return build_options(m, units_of(status, m), centers_of(status, m), rules, homes=homes or None,
                         phase=phase, tokens=build_tokens(status, m))


def adjustment_counts(status: GameStatus, m: Map, phase: Phase, rules: Rules) -> dict[str, int]:
    """Power -> builds (> 0, capped by the sites open) or removals (< 0) it must order; only powers
    with a choice to make (removing every unit is no choice)."""
    units = units_of(status, m)
    counts = {}
    for power, o in adjustment_options(status, m, phase, rules).items():
        if o.count > 0 and o.sites():
            counts[power] = min(o.count, len(o.sites()))
        elif o.count < 0 and -o.count < len(units.get(power, ())):
            counts[power] = o.count
    return counts


def nothing_to_order(status: GameStatus, m: Map, phase: Phase, rules: Rules,
                     power: str) -> str:
    """Why `power` (not in `due_powers`) has no orders to give in `phase`, in a few words."""
    if power in owing(status, m, phase, rules):
        return f"the phase is in {status.phase_mode.value} mode"
    if phase.type == MOVEMENT:
        return "it has no units"
    if phase.type == RETREATS:
        return "none of its units must retreat"
    if phase.type != ADJUSTMENTS:
        return f"nothing is ordered in {phase.type.lower()} phases"
    option = adjustment_options(status, m, phase, rules).get(power)
    count = option.count if option is not None else 0
    if count > 0:
        builds = f"{count} build{'s' if count != 1 else ''}"
        return f"its {builds} cannot be used: no home supply center it owns is free to build in"
    if count < 0:
        return "every one of its units is removed"
    return "its units match its supply centers"


def _complete(block: PowerStatus | None, orders: tuple[Order, ...] | None, phase: Phase,
              rules: Rules, count: int | None) -> bool:
    if block is None or orders is None:
        return False
    if phase.type == MOVEMENT:
        ordered = {o.unit.province for o in orders if hasattr(o, "unit")}
        return Rule.DEFAULT_UNORDERED in rules or all(u.province in ordered for u in block.units)
    if phase.type == RETREATS:
        ordered = {o.unit.province for o in orders if isinstance(o, (Retreat, Disband))}
        return all(d.unit.province in ordered for d in block.dislodged if d.retreats)
    if count is None:
        return True
    if count > 0:
        return any(isinstance(o, Waive) for o in orders) or \
            sum(isinstance(o, Build) for o in orders) >= count
    return sum(isinstance(o, Disband) for o in orders) >= -count
