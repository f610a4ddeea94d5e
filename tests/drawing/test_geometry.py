"""The `.draw` format: read with file:line errors, checked against its map; every shipped map has
drawing data that places each of its locations."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from judge.drawing.geometry import check_geometry, fitted, parse_geometry, schematic
from judge.drawing.loader import drawing_file, read_geometry
from judge.maps import load_map
from judge.maps.loader import bundled_maps_dir

SHIPPED = sorted(p.stem for p in bundled_maps_dir().glob("*.map"))


def test_a_draw_file_reads_size_and_points():
    geometry, problems = parse_geometry("# a comment\nSIZE 100 50\nPAR 10 20\nspa/nc 30.5 40 # coast\n", "x.draw")
    assert problems == []
    assert (geometry.width, geometry.height) == (100, 50)
    assert geometry.point_map() == {"PAR": (10, 20), "SPA/NC": (30.5, 40)}


@pytest.mark.parametrize("text, message", [
    ("PAR 1 2\n", "x.draw: no SIZE line"),
    ("SIZE 10 10\nPAR 1\n", "x.draw:2: expected a word and two numbers, not 'PAR 1'"),
    ("SIZE 10 10\nPAR 1 x\n", "x.draw:2: expected a word and two numbers, not 'PAR 1 x'"),
    ("SIZE 10 10\nPAR 1 2\npar 3 4\n", "x.draw:3: PAR is placed twice"),
    ("SIZE 10 10\nSIZE 5 5\n", "x.draw:2: SIZE must be given once, with two positive numbers"),
    ("SIZE 10 10\nPAR 11 2\n", "x.draw: outside SIZE: PAR"),
    ("SIZE 10 10\nPAR nan 2\n", "x.draw:2: expected a word and two numbers, not 'PAR nan 2'"),
])
def test_a_bad_draw_file_is_reported_with_file_and_line(text, message):
    geometry, problems = parse_geometry(text, "x.draw")
    assert geometry is None and [str(p) for p in problems] == [message]


@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_map_has_consistent_drawing_data(name):
    m = load_map(name)
    geometry, path, problems = read_geometry(m)
    assert path is not None and problems == []
    assert check_geometry(m, geometry, str(path)) == []
    assert fitted(m, geometry) is geometry


def test_a_map_that_uses_another_is_drawn_with_its_data():
    assert drawing_file(load_map("fleetrome")) == bundled_maps_dir() / "standard.draw"


def test_check_reports_places_missing_and_unknown():
    m = load_map("standard")
    geometry, _ = parse_geometry("SIZE 100 100\nPAR 1 1\nXYZ 2 2\n", "s.draw")
    problems = [p.message for p in check_geometry(m, geometry, "s.draw")]
    assert problems[0].startswith("no point for ADR AEG") and problems[0].endswith("(drawn schematically)")
    assert problems[1] == "places not on the map: XYZ"
    assert fitted(m, geometry).schematic


def test_a_map_without_drawing_data_is_laid_out_from_its_adjacencies(tmp_path: Path):
    (tmp_path / "plain.map").write_text((bundled_maps_dir() / "standard.map").read_text())
    m = load_map(str(tmp_path / "plain.map"))
    assert read_geometry(m) == (None, None, [])
    layout = schematic(m)
    assert layout.schematic and layout == schematic(m)  # deterministic
    placed = layout.point_map()
    assert set(placed) == set(m.locations)
    # neighbours are drawn nearer each other than the board's far corners
    far = max(abs(a[0] - b[0]) + abs(a[1] - b[1]) for a in placed.values() for b in placed.values())
    assert abs(placed["PAR"][0] - placed["BUR"][0]) + abs(placed["PAR"][1] - placed["BUR"][1]) < far / 4


def _copy_of_standard(folder: Path) -> Path:
    for suffix in (".map", ".draw", ".regions"):
        (folder / f"plain{suffix}").write_bytes((bundled_maps_dir() / f"standard{suffix}").read_bytes())
    return folder / "plain.map"


def test_a_drawing_is_read_once_while_its_files_stay_the_same(tmp_path: Path):
    m = load_map(str(_copy_of_standard(tmp_path)))
    first, _, _ = read_geometry(m)
    again, _, _ = read_geometry(m)
    assert first is again and first.regions


def test_a_drawing_changed_on_disk_is_read_again(tmp_path: Path):
    m = load_map(str(_copy_of_standard(tmp_path)))
    before, _, _ = read_geometry(m)
    (tmp_path / "plain.regions").unlink()
    without, _, problems = read_geometry(m)
    assert problems == [] and without.regions == () and before.regions
    draw = tmp_path / "plain.draw"
    # a new size, so a new stamp however coarse the file system's clock
    draw.write_text(draw.read_text().replace("PAR      170", "PAR      170.5"))
    moved, _, _ = read_geometry(m)
    assert moved.point_map()["PAR"] != before.point_map()["PAR"]


def test_geometries_are_told_apart_by_their_points_and_regions_alone():
    text = "SIZE 100 50\nAAA 10 10\nBBB 20 20\n"
    first, _ = parse_geometry(text, "x.draw")
    again, _ = parse_geometry(text, "x.draw")
    assert first is not None and again is not None
    shaped = replace(first, regions=(("AAA", ((0.0, 0.0), (5.0, 0.0), (5.0, 5.0))),))
    kept = {first: "cells", shaped: "regions"}
    assert hash(first) == hash(again) and kept[again] == "cells"
    assert kept[replace(again, regions=shaped.regions)] == "regions" and len(kept) == 2
