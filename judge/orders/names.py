"""How orders' messages name things: places by their map names, alternatives joined with `or`."""
from __future__ import annotations

from typing import Iterable

from judge.maps.model import Map
from judge.types import UnitType, province_of


def place_name(m: Map, abbrev: str) -> str:
    """`Spain (north coast)` for SPA/NC; a location the map lacks falls back to its province, then itself."""
    loc = m.locations.get(abbrev) or m.locations.get(province_of(abbrev))
    return loc.name if loc is not None else abbrev


def either(items: Iterable[str]) -> str:
    """`A`, `A or B`, `A, B or C` (and nothing for no items)."""
    items = list(items)
    return " or ".join(items) if len(items) < 3 else ", ".join(items[:-1]) + " or " + items[-1]


def unit_name(unit_type: UnitType) -> str:
    """`an army`, `a fleet`."""
    return "an army" if unit_type is UnitType.ARMY else "a fleet"
