"""Each map's reach tables (crossings into provinces, convoying spaces and their shores), made once a
map, answer as the plain definitions do, on every shipped map and under each convoy rule."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from judge.maps import load_map
from judge.orders.reach import (
    _spread,
    _two_ways,
    can_convoy,
    convoy_route,
    crossings,
    touches,
)
from judge.types import Unit, UnitType, province_of

MAPS_DIR = Path(__file__).resolve().parents[2] / "maps"
MAPS = sorted(p.stem for p in MAPS_DIR.glob("*.map"))
RULES = [frozenset(), frozenset({"COASTAL_CONVOY"}), frozenset({"CONVOY_BACK"})]


@pytest.fixture(scope="module", params=MAPS)
def shipped(request):
    return load_map(str(MAPS_DIR / f"{request.param}.map"))


def plain_crossings(m, unit, province):
    if unit.type is UnitType.ARMY:
        abut = m.abut(UnitType.ARMY, unit.location, province)
        return [abut] if abut is not None else []
    return [m.abut(UnitType.FLEET, unit.location, d)
            for d in m.moves(UnitType.FLEET, unit.location) if province_of(d) == province]


def plain_route(m, start, end, rules, through=None):
    lands = {a for a, loc in m.locations.items() if loc.army_ok}
    if start == end or start not in lands or end not in lands:
        return False
    spaces = {a for a in m.locations if can_convoy(m, a, rules) and province_of(a) not in (start, end)}
    steps = {s: m.moves(UnitType.FLEET, s) for s in spaces}
    first = {s for s in spaces if touches(m, s, start)}
    last = {s for s in spaces if touches(m, s, end)}
    if through is None:
        return bool(_spread(steps, first, spaces) & last)
    if through not in spaces:
        return False
    if "CONVOY_BACK" in rules:
        return through in _spread(steps, first, spaces) and bool(_spread(steps, {through}, spaces) & last)
    return _two_ways(steps, spaces, through, first, last)


def test_crossings(shipped):
    provinces = [*shipped.provinces, "NOWHERE"]
    for src in shipped.locations:
        for unit_type in UnitType:
            unit = Unit(unit_type, src)
            for province in provinces:
                assert list(crossings(shipped, unit, province)) == plain_crossings(shipped, unit, province)


@pytest.mark.parametrize("rules", RULES, ids=["plain", "COASTAL_CONVOY", "CONVOY_BACK"])
def test_convoy_routes(shipped, rules):
    rng = random.Random(f"{shipped.name} {sorted(rules)}")
    places = sorted(shipped.locations)
    seas = [a for a in places if can_convoy(shipped, a, frozenset())]
    shores = [a for a in places if shipped.locations[a].army_ok and any(touches(shipped, s, a) for s in seas)]
    seas, shores = seas or places, shores or places  # (a map without seas: any places)
    answers = []
    for _ in range(200):
        start, end = (rng.choice(shores if rng.random() < 0.9 else places) for _ in "se")
        through = rng.choice([None, rng.choice(seas)])
        answers.append(convoy_route(shipped, start, end, rules, through))
        assert answers[-1] == plain_route(shipped, start, end, rules, through), (start, end, through)
    assert any(answers) or seas is places  # some routes found, where there is a sea
