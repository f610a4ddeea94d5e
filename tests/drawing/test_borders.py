"""Drawn neighbours against the map's: the borders the cells draw, the breaks `judge map check`
reports, and every shipped drawing held to its listed exceptions (tests/drawing/fixtures/drawn_borders,
each file saying why they are kept)."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from judge.drawing.borders import Break, adjacency_breaks, adjacent_provinces, drawn_borders, straits
from judge.drawing.geometry import Geometry
from judge.drawing.loader import read_geometry
from judge.maps import load_map, map_for_phase

MAPS = Path(__file__).resolve().parents[2] / "maps"
EXCEPTIONS = Path(__file__).resolve().parent / "fixtures" / "drawn_borders"


def _listed(name: str) -> list[str]:
    lines = (EXCEPTIONS / f"{name}.txt").read_text().splitlines()
    return [line.split("  #", 1)[0] for line in lines if line and not line.startswith("#")]


def test_cells_side_by_side_share_a_border_and_a_corner_is_none():
    # a row of three: the middle one borders both ends, the ends meet nowhere
    row = (("A", 10.0, 50.0), ("B", 50.0, 50.0), ("C", 90.0, 50.0))
    assert drawn_borders(row, 100, 100) == {frozenset("AB"), frozenset("BC")}
    # four in a square: each borders its two sides; the diagonals meet at a point only
    square = (("A", 30.0, 30.0), ("B", 70.0, 30.0), ("C", 30.0, 70.0), ("D", 70.0, 70.0))
    assert drawn_borders(square, 100, 100) == {frozenset(p) for p in ("AB", "AC", "BD", "CD")}


def test_a_drawing_that_puts_neighbours_apart_and_strangers_together_is_reported():
    m = map_for_phase(load_map("standard"), load_map("standard").begin)
    geometry, _, _ = read_geometry(m)
    assert geometry is not None
    spots = dict(geometry.point_map())
    spots["PAR"], spots["MOS"] = spots["MOS"], spots["PAR"]  # Paris drawn in Russia, Moscow in France
    swapped = Geometry(geometry.width, geometry.height, tuple((a, x, y) for a, (x, y) in spots.items()))
    found = set(adjacency_breaks(m, swapped)) - set(adjacency_breaks(m, geometry))
    assert Break("BRE", "PAR", "apart") in found and Break("BUR", "PAR", "apart") in found
    assert Break("BUR", "MOS", "joined") in found
    assert all(frozenset((b.first, b.second)) in adjacent_provinces(m) for b in found if b.kind == "apart")


@pytest.mark.parametrize("name", sorted(p.stem for p in MAPS.glob("*.map")
                                        if (EXCEPTIONS / f"{p.stem}.txt").exists()))
def test_a_shipped_drawing_breaks_its_maps_adjacency_only_where_listed(name):
    base = load_map(name)
    m = map_for_phase(base, base.begin)
    geometry, _, _ = read_geometry(m)
    assert geometry is not None
    assert [str(b) for b in adjacency_breaks(m, geometry)] == _listed(name)


def test_every_shipped_map_with_drawing_data_is_checked():
    drawn = {p.stem for p in MAPS.glob("*.map") if read_geometry(load_map(p.stem))[1] is not None}
    assert drawn == {p.stem for p in EXCEPTIONS.glob("*.txt")}


def test_lands_on_one_sea_drawn_touching_are_parted_by_water_and_no_other_lands_are():
    m = map_for_phase(load_map("standard"), load_map("standard").begin)
    drawn, _, _ = read_geometry(m)
    assert drawn is not None
    geometry = replace(drawn, regions=())  # the cells around the points, as without coastlines
    parted = set(straits(m, geometry))
    assert {frozenset(p) for p in (("EDI", "NWY"), ("HOL", "LON"), ("BER", "DEN"), ("NAF", "SPA"))} <= parted
    assert frozenset(("LVN", "UKR")) not in parted  # apart by land, not by water: listed, not drawn
    assert Break("LVN", "UKR", "joined") in adjacency_breaks(m, geometry)
    assert not parted & adjacent_provinces(m)
    assert Break("EDI", "NWY", "joined") not in adjacency_breaks(m, geometry)


def test_the_straits_are_drawn_as_water_on_a_drawn_map_not_on_a_schematic_one(tmp_path):
    import shutil

    from judge.drawing.svg import SEA
    from tests.support.drawing import SVG, parts, start_svg

    shutil.copy(MAPS / "standard.map", tmp_path / "cells.map")
    shutil.copy(MAPS / "standard.draw", tmp_path / "cells.draw")  # the points, no coastlines
    [water] = parts(start_svg(str(tmp_path / "cells.map"))[1], "straits")
    assert water.tag == f"{SVG}path" and water.get("stroke") == SEA and water.get("d").count("M") >= 13
    assert not parts(start_svg("standard")[1], "straits")  # real coastlines have their water
    shutil.copy(MAPS / "standard.map", tmp_path / "mine.map")  # no drawing data beside it
    _, schematic = start_svg(str(tmp_path / "mine.map"))
    assert "Schematic layout" in schematic and not parts(schematic, "straits")
