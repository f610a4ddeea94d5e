"""Real adjudications for the mail tests: a DATC position, or a small position written as text."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from judge.adjudicator import Position, Resolution, resolve
from judge.maps.model import Map
from judge.orders.parser import OrderReader
from judge.phases import parse_phase
from judge.types import RETREATS, Unit, UnitType
from tests.adjudicator.datc_cases import load_cases

DATC = Path(__file__).parent.parent / "adjudicator" / "datc"


def datc_position(m: Map, case_id: str) -> tuple[Position, Resolution]:
    """The first step of a DATC case (a `judge adjudicate` request) resolved on the standard map."""
    case = next(c for c in load_cases(DATC) if c.id == case_id)
    request = case.steps[0].request
    return play(m, request["phase"], request["units"], request.get("orders", {}),
                request.get("centers"), rules=frozenset(request.get("rules", ())))


def play(m: Map, phase: str, units: Mapping[str, Sequence[str]], orders: Mapping[str, Sequence[str]],
         centers: Mapping[str, Sequence[str]] | None = None,
         dislodged: Mapping[str, Mapping[str, Sequence[str]]] | None = None,
         rules: frozenset[str] = frozenset()) -> tuple[Position, Resolution]:
    """Adjudicate a position written as text (`A PAR`, orders as players write them)."""
    position = Position(
        parse_phase(m, phase),
        {p: tuple(sorted(_unit(u) for u in us)) for p, us in units.items()},
        {p: frozenset(cs) for p, cs in centers.items()} if centers is not None
        else {n: frozenset(p.centers) for n, p in m.powers.items()},
        {p: {_unit(u): tuple(r) for u, r in d.items()} for p, d in (dislodged or {}).items()})
    return position, resolve(m, position, _read(m, position.phase, position, orders), rules)


def _read(m: Map, phase, position: Position, texts: Mapping[str, Sequence[str]]) -> dict:
    reader = OrderReader(m)
    ordered = position.units if phase.type != RETREATS else {
        p: tuple(d) for p, d in position.dislodged.items()}
    return {p: [reader.read(p, t, phase, ordered) for t in ts] for p, ts in texts.items()}


def _unit(text: str) -> Unit:
    kind, location = text.split()
    return Unit(UnitType(kind), location)
