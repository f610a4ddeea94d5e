"""Regions as path data at the picture's resolution: points rounded to whole canvas units, and
every border drawn once (one path), not once by each region it parts."""
from __future__ import annotations

import re
from collections import Counter

import pytest

from judge.drawing.outlines import border_path, on_canvas, ring_paths
from tests.support.drawing import parts, start_svg


def polylines(d: str) -> list[list[tuple[int, int]]]:
    """The points of each subpath of path data written as `M x,y l dx,dy ... [z]`."""
    found = []
    for start, steps in re.findall(r"M(-?\d+,-?\d+)l([-\d, ]*)z?", d):
        x, y = map(int, start.split(","))
        points = [(x, y)]
        for step in steps.split():
            dx, dy = map(int, step.split(","))
            x, y = x + dx, y + dy
            points.append((x, y))
        found.append(points)
    return found


def edges(points: list[tuple[int, int]], closed: bool) -> list[frozenset]:
    pairs = zip(points, points[1:] + points[:1] if closed else points[1:])
    return [frozenset(pair) for pair in pairs]


def test_a_ring_is_rounded_to_whole_units_its_repeats_dropped():
    ring = ((0.0, 0.0), (0.1, 0.1), (10.0, 0.0), (10.2, 4.9), (0.0, 0.2))
    assert on_canvas(ring, 12, 48, 1.5) == ((12, 48), (27, 48), (27, 55))
    assert on_canvas(((0.0, 0.0), (0.2, 0.0), (0.2, 0.2)), 0, 0, 1.0) == ()  # under a pixel: nothing left
    assert ring_paths([((12, 48), (27, 48), (27, 55)), ()]) == "M12,48l15,0 0,7z"


def test_two_regions_sharing_a_border_draw_it_once():
    left = ((0, 0), (10, 0), (10, 10), (0, 10))
    right = ((10, 10), (10, 0), (20, 0), (20, 10))
    drawn = [e for line in polylines(border_path([left, right])) for e in edges(line, closed=False)]
    assert len(drawn) == 7 and set(drawn) == set(edges(list(left), True)) | set(edges(list(right), True))


def test_a_ring_whose_new_edges_pass_its_first_point_is_one_run():
    first = ((0, 0), (10, 0), (10, 10), (0, 10))
    second = ((10, 20), (0, 20), (0, 10), (10, 10))  # its first edge and last new, the one between drawn
    [*_, run] = polylines(border_path([first, second]))
    assert run == [(10, 10), (10, 20), (0, 20), (0, 10)]


@pytest.mark.parametrize("name", ["standard", "youngstown", "pure"])
def test_a_board_strokes_each_region_edge_once_in_one_borders_path(name):
    _, svg = start_svg(name)
    regions = parts(svg, "region") + parts(svg, "other-land")
    outline = Counter(e for r in regions for line in polylines(r.get("d")) for e in edges(line, closed=True))
    [borders] = parts(svg, "borders")
    stroked = Counter(e for line in polylines(borders.get("d")) for e in edges(line, closed=False))
    assert set(stroked) == set(outline) and max(stroked.values()) == 1
    assert any(count == 2 for count in outline.values())  # shared borders: drawn once, not twice
    assert all(r.get("stroke") is None for r in regions) and 'class="regions" stroke' not in svg
