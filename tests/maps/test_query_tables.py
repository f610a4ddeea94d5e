"""The map's query tables, made once when a map is made, answer as the plain definitions do, on
every shipped map: coasts, moves, provinces, where a unit may stand."""
from __future__ import annotations

from pathlib import Path

import pytest

from judge.maps import Terrain, load_map
from judge.types import Unit, UnitType

MAPS = sorted(p.stem for p in (Path(__file__).resolve().parents[2] / "maps").glob("*.map"))


@pytest.fixture(scope="module", params=MAPS)
def shipped(request):
    return load_map(str(Path(__file__).resolve().parents[2] / "maps" / f"{request.param}.map"))


def test_coasts_of_every_place(shipped):
    for place in [*shipped.locations, "NOWHERE"]:
        assert shipped.coasts_of(place) == tuple(a for a in shipped.locations if a.startswith(place + "/"))


def test_moves_are_the_sorted_crossings(shipped):
    for src in shipped.locations:
        for unit_type in UnitType:
            expected = tuple(sorted(d for d in shipped.locations if shipped.abut(unit_type, src, d)))
            assert shipped.moves(unit_type, src) == expected


def test_provinces(shipped):
    assert shipped.provinces == tuple(sorted(
        a for a, loc in shipped.locations.items() if loc.coast is None and loc.terrain is not Terrain.SHUT))


def test_can_stand(shipped):
    for abbrev, loc in shipped.locations.items():
        assert shipped.can_stand(Unit(UnitType.ARMY, abbrev)) == loc.army_ok
        assert shipped.can_stand(Unit(UnitType.FLEET, abbrev)) == loc.fleet_can_stand
    assert not shipped.can_stand(Unit(UnitType.ARMY, "NOWHERE"))
