"""A power's order lines, read together: every bad line reported at once, a second order for a unit
refused as DPjudge refuses it, CLEAR / NMR starting over (spec/order-format.md, "Clearing Orders")."""
from __future__ import annotations

from typing import TYPE_CHECKING, Hashable, Iterable, Mapping, Sequence

from judge.errors import OrderError
from judge.maps.model import Map
from judge.orders.model import Build, Order, Retreat, Support, Waive
from judge.orders.parser import OrderableUnits, OrderReader
from judge.orders.validate import OrderChecker
from judge.rule_names import Rule, Rules
from judge.types import MOVEMENT, RETREATS, Phase, Unit, UnitType

if TYPE_CHECKING:
    from judge.adjudicator.model import Position

CLEAR_WORDS = frozenset({"CLEAR", "NMR", "(NMR)", "[NMR]"})


def parse_orders(m: Map, power: str, lines: Iterable[str], phase: Phase,
                 units: Mapping[str, Sequence[Unit]], position: Position,
                 rules: Rules) -> tuple[list[Order], list[tuple[str, str]]]:
    """The orders the lines give and (line, reason) for each line refused.

    Blank lines are skipped. Illegal orders are refused too, except in a movement phase under NO_CHECK,
    where an order that is understood is kept for the adjudicator to rule invalid, and a support
    under SIGNAL_SUPPORT that names units on the board (`OrderChecker.signal`), kept for the
    adjudicator to rule void. A second order for a unit (a second build in a province) is refused
    in DPjudge's words (`twice_problem`); in a movement phase under NO_CHECK both are kept, and the
    adjudicator holds the unit."""
    reader = OrderReader(m, rules)
    orderable = OrderableUnits(units)
    checker = None if phase.type == MOVEMENT and Rule.NO_CHECK in rules else OrderChecker(m, position, rules)
    orders: dict[Hashable, Order] = {}
    errors: list[tuple[str, str]] = []
    for number, text in enumerate(lines_after_clear(lines)):
        try:
            order = reader.read(power, text, phase, orderable)
        except OrderError as error:
            errors.append((text, str(error)))
            continue
        reason = entry_problem(order) or (checker.check(order) if checker is not None else None)
        if reason is not None and not (checker is not None and checker.signal(order)):
            errors.append((text, reason))
            continue
        key = order_key(order, number)
        if key in orders:
            if checker is not None:
                errors.append((text, twice_problem(order, phase)))
                continue
            key = (key, number)
        orders[key] = order
    return list(orders.values()), errors


def lines_after_clear(lines: Iterable[str]) -> list[str]:
    """The lines that count, stripped: the non-blank ones after the last CLEAR or NMR."""
    kept: list[str] = []
    for raw in lines:
        text = raw.strip()
        if text.upper() in CLEAR_WORDS:
            kept.clear()
        elif text:
            kept.append(text)
    return kept


def twice_problem(order: Order, phase: Phase) -> str:
    """DPjudge's words refusing a second order for a unit, or a second build in a province."""
    if isinstance(order, Build):
        return "MULTIPLE BUILDS IN SITE"
    if phase.type == MOVEMENT:
        return "UNIT REORDERED"
    if phase.type == RETREATS or isinstance(order, Retreat):
        return "TWO ORDERS FOR RETREATING UNIT"
    return "MULTIPLE ORDERS FOR UNIT"


def entry_problem(order: Order) -> str | None:
    """What order entry refuses even under NO_CHECK (rules.md): a support naming the coast of a
    fleet's destination. (The adjudicator itself accepts such supports, as the DATC does.)"""
    if isinstance(order, Support) and order.dest and "/" in order.dest:
        if order.target.type is UnitType.FLEET:
            return f"a support names no coast: write {order.dest.split('/')[0]}, not {order.dest}"
    return None


def order_key(order: Order, line: int) -> Hashable:
    """What one order per unit means: the order for the same unit (a build: for the same
    province). Every WAIVE stands (one WAIVE is enough; how many count is the adjudicator's
    business)."""
    if isinstance(order, Waive):
        return ("WAIVE", line)
    if isinstance(order, Build):
        return ("BUILD", order.unit.province)
    return order.unit.province
