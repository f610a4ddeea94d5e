"""Crystal Ball's order lists as players fill them (its processing is `judge.game.variants.xtalball`).

A power of a Crystal Ball game keeps two lists of movement orders: SOONER for the next movement
phase and LATER for the one after it. As DPjudge takes them:

- the game's first lists go to SOONER until every power with units has one (then they are locked);
- in a SKIP movement phase (a game begun on an empty board: its lists are in before the powers
  build) every list goes to LATER and every power owes one, units or not;
- every list after that goes to LATER, in whatever phase it is sent: SOONER cannot be changed;
- a line orders a unit that may not be there when its turn comes: it is checked against the map
  as if the unit stood where the line says (the unit type must be written), not against the board;
  a proxy order is refused, as DPjudge refuses it (it reads the power's name out of the line);
- a movement phase may be processed once every power with units has the list it owes.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from judge.adjudicator.model import Position
from judge.errors import OrderError
from judge.maps.model import Map
from judge.orders.model import Order, Proxy
from judge.orders.parser import OrderReader
from judge.orders.power_orders import entry_problem, lines_after_clear
from judge.orders.validate import OrderChecker
from judge.game.positions import power_blocks
from judge.status.model import GameStatus, PhaseMode, PowerStatus
from judge.types import Phase, Unit, UnitType
from judge.rule_names import Rules

CRYSTAL_BALL = "xtalball"  # DPjudge's game class of Crystal Ball games
SOONER, LATER = "sooner", "later"
# DPjudge plays every Crystal Ball game with these: a list orders units that may not be there, and
# names others' units
LIST_RULES = frozenset({"FICTIONAL_OK", "PROXY_OK"})
NO_PROXY_IN_LISTS = "a Crystal Ball list takes no proxy order (DPjudge refuses one too: NO PROXY POWER SPECIFIED)"
UNIT_WORDS = frozenset({"A", "F", "ARMY", "FLEET"})


def plays_lists(status: GameStatus) -> bool:
    return status.variant == CRYSTAL_BALL


def list_taking_orders(powers: Sequence[PowerStatus], skip: bool = False) -> str:
    """SOONER while a power with units has none (the game's first lists), else LATER; LATER in a
    SKIP phase."""
    return SOONER if not skip and any(b.units and not b.sooner for b in powers) else LATER


def list_taken(status: GameStatus, m: Map) -> str:
    """The list a movement phase of the game takes now."""
    return list_taking_orders(power_blocks(status, m), skip_phase(status))


def skip_phase(status: GameStatus) -> bool:
    return status.phase_mode is PhaseMode.SKIP


def list_in(block: PowerStatus, which: str) -> tuple[str, ...]:
    return (block.sooner if which == SOONER else block.later) or ()


def with_list(block: PowerStatus, which: str, lines: tuple[str, ...]) -> PowerStatus:
    """The power with `lines` as its list `which` (none: no list)."""
    if which == SOONER:
        return replace(block, sooner=lines or None)
    return replace(block, later=lines or None)


def lists_owed(powers: Sequence[PowerStatus], skip: bool = False) -> tuple[str, ...]:
    """The powers that owe a list: those with units; in a SKIP phase every power."""
    return tuple(b.name for b in powers if b.units or skip)


def lists_submitted(powers: Sequence[PowerStatus], skip: bool = False) -> tuple[str, ...]:
    """The powers owing a list that have the list now owed."""
    which = list_taking_orders(powers, skip)
    owed = lists_owed(powers, skip)
    return tuple(b.name for b in powers if b.name in owed and list_in(b, which))


def read_list(m: Map, power: str, lines: list[str], phase: Phase, rules: Rules
              ) -> tuple[list[Order], list[tuple[str, str]]]:
    """The orders of a list and (line, reason) for each line refused; CLEAR or NMR drops the lines
    before it. A later line for a unit does not replace an earlier one here: processing reads the
    list in order."""
    rules = rules | LIST_RULES
    reader = OrderReader(m, rules | {"NO_CHECK"})
    orders: list[Order] = []
    errors: list[tuple[str, str]] = []
    for text in lines_after_clear(lines):
        try:
            order = reader.read(power, text, phase, {})
        except OrderError as error:
            errors.append((text, str(error)))
            continue
        if isinstance(order, Proxy):
            errors.append((text, NO_PROXY_IN_LISTS))
            continue
        unit = getattr(order, "unit", None)
        if unit is None or text.split()[0].upper() not in UNIT_WORDS:
            errors.append((text, "each line of a list starts with the unit's type (A or F)"))
            continue
        here = Position(phase, {power: (unit,)}, {})
        reason = unit_problem(m, unit) or entry_problem(order) or OrderChecker(m, here, rules).check(order)
        if reason is not None:
            errors.append((text, reason))
            continue
        orders.append(order)
    return orders, errors


def unit_problem(m: Map, unit: Unit) -> str | None:
    """Why no such unit can stand where a list line puts it (DPjudge: ORDER TO INVALID UNIT)."""
    loc = m.locations.get(unit.location)
    if loc is None:
        return f"no place {unit.location} on this map"
    if unit.type is UnitType.ARMY:
        return None if loc.army_ok and loc.coast is None else f"no army can stand in {unit.location}"
    if loc.coast is None and m.coasts_of(unit.location):
        return f"a fleet in {unit.province} stands on one of its coasts: name it"
    return None if loc.fleet_can_stand else f"no fleet can stand in {unit.location}"
