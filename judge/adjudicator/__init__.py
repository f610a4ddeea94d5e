"""The adjudicator: `resolve(map, position, orders, rules) -> Resolution`, pure, by phase type."""
from __future__ import annotations

from typing import Mapping, Sequence

from judge.adjudicator.model import OrderResult, Position, Resolution, Result
from judge.maps.model import Map
from judge.orders.model import Order
from judge.types import ADJUSTMENTS, MOVEMENT, RETREATS
from judge.rule_names import Rules


def resolve(m: Map, position: Position, orders: Mapping[str, Sequence[Order]],
            rules: Rules = frozenset()) -> Resolution:
    """Adjudicate one phase. `m` is the map in force in the phase (see `map_for_phase`)."""
    kind = position.phase.type
    if kind == MOVEMENT:
        from judge.adjudicator.movement import resolve_movement
        return resolve_movement(m, position, orders, rules)
    if kind == RETREATS:
        from judge.adjudicator.retreats import resolve_retreats
        return resolve_retreats(m, position, orders, rules)
    if kind == ADJUSTMENTS:
        from judge.adjudicator.adjustments import resolve_adjustments
        return resolve_adjustments(m, position, orders, rules)
    raise ValueError(f"{position.phase} is a {kind} phase: the judge does not adjudicate it "
                     f"(the master processes it)")


__all__ = ["OrderResult", "Position", "Resolution", "Result", "resolve"]
