"""Regions from real coastlines (`NAME.regions`): read and checked, their borders found, drawn in
place of the cells, and left out (cells drawn) where they do not cover the map."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from judge.cli.drawing import drawing_problems
from judge.drawing.borders import adjacency_breaks
from judge.drawing.geometry import check_geometry, fitted
from judge.drawing.loader import read_geometry
from judge.drawing.regions import NO_PROVINCE, parse_regions, region_borders
from judge.maps import load_map, map_for_phase
from tests.support.drawing import parts, start_svg

MAPS = Path(__file__).resolve().parents[2] / "maps"


def test_a_regions_file_reads_one_ring_a_line():
    rings, problems = parse_regions("# c\nSIZE 100 50\nAAA 0,0 10,0 10,10\nAAA 20,20 30,20 30,30 # more\n"
                                    "- 40,40 50,40 50,50\n", "x.regions", 100, 50)
    assert problems == []
    assert [name for name, _ in rings] == ["AAA", "AAA", NO_PROVINCE]
    assert rings[0][1] == ((0.0, 0.0), (10.0, 0.0), (10.0, 10.0))


@pytest.mark.parametrize("text, message", [
    ("SIZE 100 60\n", "SIZE differs from the drawing's 100 50"),
    ("AAA 0,0 10,0\n", "at least three x,y points"),
    ("AAA 0,0 10,0 10;10\n", "at least three x,y points"),
    ("AAA 0,0 10,0 10,51\n", "inside SIZE"),
    ("AAA 0,0 10,0 nan,1\n", "inside SIZE"),
])
def test_a_bad_regions_file_is_reported_with_file_and_line(text, message):
    rings, problems = parse_regions(text, "x.regions", 100, 50)
    assert rings == ()
    assert [(p.file, p.line) for p in problems] == [("x.regions", 1)] and message in problems[0].message


def test_regions_border_where_they_share_segments_long_enough_not_at_a_corner():
    square = lambda x, y: ((x, y), (x + 10, y), (x + 10, y + 10), (x, y + 10))  # noqa: E731
    rings = (("A", square(0, 0)), ("B", square(10, 0)), ("C", square(10, 10)), (NO_PROVINCE, square(0, 10)))
    assert region_borders(rings, 1.0) == {frozenset("AB"), frozenset("BC")}  # A and C meet at a point
    assert region_borders(rings, 20.0) == set()


@pytest.mark.parametrize("name", ["standard", "fleetrome", "chaos", "1900", "modern", "ancmed", "youngstown"])
def test_the_boards_of_real_places_are_drawn_from_their_regions(name):
    base = load_map(name)
    m = map_for_phase(base, base.begin)
    geometry, path, problems = read_geometry(m)
    assert problems == [] and geometry is not None and geometry.regions
    assert check_geometry(m, geometry, str(path)) == []
    assert fitted(m, geometry) is geometry
    drawn = {r.get("data-place") for r in parts(start_svg(name)[1], "region")}
    assert drawn == {a for a in m.locations if "/" not in a}


def test_islands_of_no_province_and_holes_are_drawn():
    _, svg = start_svg("standard")
    [other] = parts(svg, "other-land")  # islands of no province: Ireland, Corsica...
    assert other.get("d").count("M") >= 5
    assert 'fill-rule="evenodd"' in svg


def test_water_of_no_sea_is_drawn_as_sea_under_regions_from_coastlines_and_only_there():
    from judge.drawing.svg import SEA
    _, svg = start_svg("standard")
    [sea] = parts(svg, "open-sea")  # under every region: water no sea could take shows as water
    assert sea.get("fill") == SEA and float(sea.get("width")) > 1000
    first = svg.index('class="open-sea"')
    assert first < svg.index('class="other-land"') and first < svg.index('class="region ')
    _, cells = start_svg("pure")
    assert parts(cells, "open-sea") == []


def test_regions_missing_a_province_are_reported_and_the_cells_drawn(tmp_path):
    shutil.copy(MAPS / "standard.map", tmp_path / "mine.map")
    shutil.copy(MAPS / "standard.draw", tmp_path / "mine.draw")
    lines = (MAPS / "standard.regions").read_text().splitlines()
    (tmp_path / "mine.regions").write_text("\n".join(line for line in lines if not line.startswith("PAR ")) + "\n")
    base = load_map(str(tmp_path / "mine.map"))
    m = map_for_phase(base, base.begin)
    geometry, path, _ = read_geometry(m)
    assert geometry is not None
    [problem] = check_geometry(m, geometry, str(path))
    assert problem.file.endswith("mine.regions") and "no region for PAR" in problem.message
    assert fitted(m, geometry).regions == ()
    _, svg = start_svg(str(tmp_path / "mine.map"))
    assert not parts(svg, "other-land") and "PAR" in {r.get("data-place") for r in parts(svg, "region")}


def test_a_bad_regions_file_is_reported_by_map_check_and_the_cells_drawn(tmp_path):
    shutil.copy(MAPS / "standard.map", tmp_path / "mine.map")
    shutil.copy(MAPS / "standard.draw", tmp_path / "mine.draw")
    (tmp_path / "mine.regions").write_text("SIZE 620 554\nPAR 1,1 2,2\n")
    base = load_map(str(tmp_path / "mine.map"))
    geometry, _, problems = read_geometry(map_for_phase(base, base.begin))
    assert geometry is not None and geometry.regions == ()
    assert [(Path(p.file).name, p.line) for p in problems] == [("mine.regions", 2)]


def _mine(tmp_path: Path, regions: str):
    shutil.copy(MAPS / "standard.map", tmp_path / "mine.map")
    shutil.copy(MAPS / "standard.draw", tmp_path / "mine.draw")
    (tmp_path / "mine.regions").write_text(regions)
    return load_map(str(tmp_path / "mine.map"))


def test_map_check_of_regions_missing_a_province_still_reports_the_breaks_of_what_is_drawn(tmp_path):
    lines = (MAPS / "standard.regions").read_text().splitlines()
    m = _mine(tmp_path, "\n".join(line for line in lines if not line.startswith("PAR ")) + "\n")
    geometry, _, _ = read_geometry(m)
    cells = adjacency_breaks(map_for_phase(m, m.begin), fitted(m, geometry))
    found = drawing_problems(m)
    assert "no region for PAR" in found[0] and len(cells) > 10
    assert found[1:] == [f"{tmp_path / 'mine.draw'}: {b}" for b in cells]


def test_map_check_of_a_bad_regions_file_names_its_line_and_the_breaks_of_the_cells(tmp_path):
    m = _mine(tmp_path, "SIZE 620 554\nPAR 1,1 2,2\n")
    found = drawing_problems(m)
    assert found[0].startswith(f"{tmp_path / 'mine.regions'}:2:") and "at least three" in found[0]
    assert len(found) > 10 and all("drawn apart" in f or "not adjacent" in f for f in found[1:])
