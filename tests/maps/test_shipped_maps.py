"""The maps the judge ships (maps/*.map): their facts, their layout, and the testing map's features.

The facts in map_facts.json were counted by hand from the map files; here they are checked against
what the parser makes of the same files.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.maps import Map, Terrain, load_map, map_for_phase
from judge.types import Phase

MAPS = Path(__file__).resolve().parents[2] / "maps"
FACTS = json.loads((Path(__file__).with_name("map_facts.json")).read_text())


def home_centres(m: Map) -> dict[str, list[str]]:
    """Each power's home centres, alternative homes (`@SC`) included."""
    return {name: sorted(set(p.homes) | {alt.center for alt in p.alt_homes})
            for name, p in m.powers.items()}


def test_every_shipped_map_has_facts():
    assert sorted(p.stem for p in MAPS.glob("*.map")) == sorted(FACTS)


@pytest.mark.parametrize("name", sorted(FACTS))
def test_shipped_map_facts(name):
    facts = FACTS[name]
    m = load_map(str(MAPS / f"{name}.map"))
    assert len(m.locations) == facts["locations"]
    assert len(m.provinces) == facts["provinces"]
    assert len(m.supply_centers) == facts["supply_centres"]
    assert list(m.victory) == facts["victory"]
    assert home_centres(m) == facts["homes"]
    assert {n: sorted(str(u) for u in p.units) for n, p in m.powers.items()} == facts["units"]


@pytest.mark.parametrize("path", sorted(MAPS.glob("*.map")), ids=lambda p: p.name)
def test_shipped_map_layout_is_plain_text(path):
    text = path.read_text(encoding="utf-8")
    assert text.endswith("\n")
    for number, line in enumerate(text.splitlines(), 1):
        assert "\t" not in line, f"{path.name}:{number} has a tab"
        assert line == line.rstrip(), f"{path.name}:{number} has trailing blanks"


def test_fleetrome_is_standard_with_a_fleet_in_rome():
    standard, fleetrome = load_map("standard"), load_map(str(MAPS / "fleetrome.map"))
    assert fleetrome.graphic == "standard"
    assert fleetrome.locations == standard.locations
    assert sorted(map(str, fleetrome.powers["ITALY"].units)) == ["A VEN", "F NAP", "F ROM"]


# --- testing.map: the directives of map-syntax.md, one by one ------------------------------

@pytest.fixture(scope="module")
def testing():
    return load_map(str(MAPS / "testing.map"))


def abut(m: Map, src: str, dest: str):
    return next(a for a in m.locations[src].abuts if a.dest == dest)


def test_testing_map_rename_drop_and_amend(testing):
    assert testing.locations["EHV"].name == "East Haven"
    assert "OHB" not in testing.locations and "DMR" not in testing.locations
    assert testing.lookup("new+harbour") == ("EHV",) and testing.lookup("harbour") == ()
    assert "EHV" in [a.dest for a in testing.locations["ECP"].abuts]
    dests = {a.dest for loc in testing.locations.values() for a in loc.abuts}
    assert "DMR" not in dests and "OHB" not in dests
    assert [a.dest for a in testing.locations["FRG"].abuts] == ["HIL", "NHV", "RUI", "SHV", "WLD"]
    assert "FRG" not in [a.dest for a in testing.locations["KEE"].abuts]


def test_testing_map_terrain_and_crossings(testing):
    assert testing.locations["ISL"].terrain is Terrain.PORT
    assert testing.locations["MTN"].terrain is Terrain.SHUT
    assert testing.coasts_of("TWN") == ("TWN/NC", "TWN/SC")
    assert not testing.locations["TWN"].fleet_ok
    assert abut(testing, "NHV", "SHV").special == {"~"}
    assert abut(testing, "NSE", "SSE").special == {"*"}
    assert abut(testing, "EBY", "NSE").powers == frozenset()  # one way: NSE -> EBY only
    assert abut(testing, "NSE", "EBY").powers is None
    assert abut(testing, "SSE", "EBY").centers == {"ECP", "GLN"}
    assert abut(testing, "GLN", "WLD").powers == {"E"}
    assert not abut(testing, "GLN", "ISL").army and abut(testing, "GLN", "ISL").fleet


def test_testing_map_aliases(testing):
    assert testing.lookup("haven") == ("NHV", "SHV")
    assert testing.lookup("smugglers+cove") == ("PIR",)


def test_testing_map_powers(testing):
    east, north, south, pirates = (testing.powers[n] for n in
                                   ("EASTLAND", "NORTHLAND", "SOUTHLAND", "_PIRATES"))
    assert (east.abbrev, north.abbrev, south.abbrev, pirates.abbrev) == ("E", "N", "S", "P")
    assert [(a.center, a.instead_of) for a in east.alt_homes] == [("GLN", ("EHV",))]
    assert north.factories == ("FRG",) and north.claims == 1 and north.reserves == 1
    assert (north.league.name, north.league.kind) == ("COMPACT", "STRICT")
    assert south.partisans == ("RUI",) and south.hidden == ("WLD",) and south.militia == 1
    assert south.centers == ("SHV",) and south.build_and_own == 1  # OWNS SHV SC!
    assert pirates.dummy and pirates.control == ("EASTLAND",) and pirates.display == "Pirates"


def test_testing_map_calendar_and_rules(testing):
    assert testing.victory == (7, 6)
    winter = testing.seasons[-1]
    assert (winter.season, winter.phases) == ("WINTER", ("ADJUSTMENTS", "INCOME"))
    assert testing.begin == Phase("SPRING", 1902, "MOVEMENT")
    assert testing.newhomes == (1905,)
    assert "HIBERNATE" in testing.rules and "NO_RESERVES" in testing.rules_off
    assert [s.lines for s in testing.stanzas] == [("RULE IMMOBILE_DUMMIES",)]


def test_testing_map_dynamic_blocks(testing):
    spring = map_for_phase(testing, Phase("SPRING", 1902, "MOVEMENT"))
    fall = map_for_phase(testing, Phase("FALL", 1903, "MOVEMENT"))
    assert spring.locations["ICE"].terrain is Terrain.WATER
    assert spring.locations["MTN"].terrain is Terrain.SHUT
    assert fall.locations["ICE"].terrain is Terrain.SHUT
    assert fall.locations["MTN"].terrain is Terrain.LAND
    assert abut(fall, "SHV", "ISL").army
