"""The map as plain data: the stable `judge map show --json` shape, and the one-line summary."""
from __future__ import annotations

from judge.maps.model import FlowStep, Map
from judge.types import UnitType


def flow_word(step: FlowStep) -> list:
    if step.newyear:
        return ["NEWYEAR", [str(step.newyear)]]
    if step.yeardiv is not None:
        divisor, modulus = step.yeardiv
        return ["IFYEARDIV", [f"{divisor}={modulus}" if modulus else str(divisor)]]
    return [step.season, list(step.phases)]


def map_to_json(m: Map) -> dict:
    centers = m.supply_centers
    return {
        "name": m.name,
        "begin": str(m.begin),
        "victory": list(m.victory),
        "flow": [flow_word(step) for step in m.flow],
        "locations": {
            abbrev: {"name": loc.name, "terrain": loc.terrain.value, "center": abbrev in centers}
            for abbrev, loc in sorted(m.locations.items())
        },
        "army_moves": {a: list(m.moves(UnitType.ARMY, a)) for a in sorted(m.locations)
                       if m.locations[a].army_ok},
        "fleet_moves": {a: list(m.moves(UnitType.FLEET, a)) for a in sorted(m.locations)
                        if m.locations[a].fleet_can_stand},
        "powers": {
            name: {"abbrev": p.abbrev, "adjective": p.adjective, "homes": sorted(p.homes),
                   "centers": sorted(p.centers), "units": sorted(str(u) for u in p.units)}
            for name, p in sorted(m.powers.items())
        },
        "unowned": sorted(m.unowned),
        "rules": sorted(m.rules),
    }


def summary(m: Map) -> str:
    return (f"{m.name}: {len(m.provinces)} places ({len(m.locations)} locations), "
            f"{len(m.supply_centers)} centres, {len(m.powers)} powers")
