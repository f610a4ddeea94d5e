"""Drawn neighbours against the map's: the borders the cells draw, the breaks `judge map check`
reports, and every shipped drawing held to its listed exceptions (tests/drawing/fixtures/drawn_borders,
each file saying why they are kept)."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from judge.drawing.borders import (Break, BreakKind, across_edge_marks, adjacency_breaks, adjacent_provinces,
                                   all_breaks, drawn_borders, straits)
from judge.drawing.edge_marks import Side
from judge.drawing.geometry import Geometry
from judge.drawing.loader import read_geometry
from judge.maps import load_map, map_for_phase

MAPS = Path(__file__).resolve().parents[2] / "maps"
EXCEPTIONS = Path(__file__).resolve().parent / "fixtures" / "drawn_borders"


def _listed(name: str) -> list[Break]:
    lines = (EXCEPTIONS / f"{name}.txt").read_text().splitlines()
    listed = []
    for line in lines:
        if line and not line.startswith("#"):
            first, second, kind = line.split("  #", 1)[0].split()
            listed.append(Break(first, second, BreakKind(kind)))
    return listed


def _start(name: str):
    base = load_map(name)
    m = map_for_phase(base, base.begin)
    geometry, _, _ = read_geometry(m)
    assert geometry is not None
    return m, geometry


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
    assert Break("BRE", "PAR", BreakKind.MISSING) in found and Break("BUR", "PAR", BreakKind.MISSING) in found
    assert Break("BUR", "MOS", BreakKind.FALSE) in found
    assert all(frozenset((b.first, b.second)) in adjacent_provinces(m) for b in found if b.kind is BreakKind.MISSING)


@pytest.mark.parametrize("name", sorted(p.stem for p in MAPS.glob("*.map")
                                        if (EXCEPTIONS / f"{p.stem}.txt").exists()))
def test_a_shipped_drawing_breaks_its_maps_adjacency_only_where_listed(name):
    m, geometry = _start(name)
    assert adjacency_breaks(m, geometry) == _listed(name)


def test_a_break_says_its_kind():
    assert str(Break("EGY", "HEJ", BreakKind.BEYOND_FRAME)) \
        == "EGY and HEJ are adjacent but meet only beyond the frame (beyond-frame)"
    assert str(Break("BRE", "PAR", BreakKind.MISSING)) == "BRE and PAR are adjacent but drawn apart (missing)"


def test_neighbours_on_no_common_edge_of_the_frame_are_across_it_and_on_one_edge_beyond_it():
    m, geometry = _start("1900")
    kinds = {(b.first, b.second): b.kind for b in all_breaks(m, geometry)}
    # round the Cape of Good Hope: the Mid-Atlantic on the left edge, Egypt and Hejaz at the foot
    assert kinds[("EGY", "MAO")] is kinds[("HEJ", "MAO")] is BreakKind.ACROSS_EDGE
    assert kinds[("EGY", "HEJ")] is BreakKind.BEYOND_FRAME  # the Red Sea, below the lower edge
    m, geometry = _start("ancmed")
    kinds = {(b.first, b.second): b.kind for b in all_breaks(m, geometry)}
    assert kinds[("BAL", "SAG")] is BreakKind.MISSING  # the Balearics reach no edge


def test_neighbours_across_the_boards_edge_are_marked_there_and_are_no_longer_breaks():
    m, geometry = _start("youngstown")
    across = {(b.first, b.second) for b in all_breaks(m, geometry) if b.kind is BreakKind.ACROSS_EDGE}
    assert {("OBA", "OBL"), ("OBB", "OBK"), ("OBC", "OBK"), ("CEL", "SPO")} <= across
    marks = across_edge_marks(m, geometry)
    # each of a pair is marked, naming the other, on the side it goes off the board to reach it
    joined = {(mark.province, name) for mark in marks for name in mark.joins}
    assert {pair for first, second in across for pair in ((first, second), (second, first))} == joined
    sides = {(mark.province, mark.side) for mark in marks}
    assert ("OBC", Side.LEFT) in sides and ("OBK", Side.RIGHT) in sides  # the wrap round, far Pacific to Atlantic
    on_edge = {Side.LEFT: lambda x, y: x == 0, Side.RIGHT: lambda x, y: x == geometry.width,
               Side.TOP: lambda x, y: y == 0, Side.BOTTOM: lambda x, y: y == geometry.height}
    assert all(on_edge[mark.side](*mark.spot) for mark in marks)
    assert not {(b.first, b.second) for b in adjacency_breaks(m, geometry)} & across


def test_the_marks_are_drawn_at_the_frame_naming_the_places_joined():
    from tests.support.drawing import parts, start_svg

    marks = parts(start_svg("1900")[1], "edge-mark")
    assert {(g.get("data-place"), g.get("data-side"), g.get("data-joins")) for g in marks} \
        == {("EGY", "bottom", "MAO"), ("HEJ", "right", "MAO"), ("MAO", "left", "EGY HEJ")}
    texts = {g.get("data-place"): "".join(g.itertext()) for g in marks}
    assert texts["MAO"] == "Egy, Hej"
    assert not parts(start_svg("standard")[1], "edge-mark")


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
    assert Break("LVN", "UKR", BreakKind.FALSE) in adjacency_breaks(m, geometry)
    assert not parted & adjacent_provinces(m)
    assert Break("EDI", "NWY", BreakKind.FALSE) not in adjacency_breaks(m, geometry)


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


def test_no_label_is_written_over_a_mark_or_pushed_off_the_frame_beside_it():
    from judge.drawing.labels import CHAR_WIDTH, text_box
    from tests.support.drawing import parts, start_svg

    svg = start_svg("youngstown")[1]
    frame = parts(svg, "open-sea")[0]
    right = float(frame.get("x")) + float(frame.get("width"))
    shift = {"start": 0.5, "middle": 0.0, "end": -0.5}
    marks = [text_box((float(t.get("x")) + shift[t.get("text-anchor")] * CHAR_WIDTH * len(t.text or ""),
                       float(t.get("y"))), t.text or "")
             for g in parts(svg, "edge-mark") for t in g if t.tag.endswith("text")]
    labels = {label.get("data-place"): text_box((float(label.get("x")), float(label.get("y"))), label.text or "")
              for label in parts(svg, "label")}
    assert not [name for name, box in labels.items() if any(box.meets(mark) for mark in marks)]
    assert labels["OBK"].right <= right  # its usual spot, below its unit, is the mark's: it moves, within the frame
