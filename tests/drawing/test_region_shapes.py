"""The shapes of the shipped regions (`NAME.regions`) as a player reads them: a province drawn in one
piece where its land is one, and borders between two lands or two seas drawn straight, not over
the steps of the grid the ground was parted on."""
from __future__ import annotations

import math
from pathlib import Path

import pytest

from judge.drawing.regions import NO_PROVINCE, Rings, parse_regions
from judge.maps import load_map, map_for_phase
from judge.maps.model import Terrain

MAPS = Path(__file__).resolve().parents[2] / "maps"


def _rings(name: str) -> Rings:
    text = (MAPS / f"{name}.regions").read_text()
    width, height = next(line.split()[1:] for line in text.splitlines() if line.startswith("SIZE"))
    rings, problems = parse_regions(text, f"{name}.regions", float(width), float(height))
    assert problems == []
    return rings


def _area(ring) -> float:
    return abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1]))) / 2


def _segments(ring):
    return [(min(s, e), max(s, e)) for s, e in zip(ring, ring[1:] + ring[:1])]


def _lands_beside_lesser_pieces(name: str, province: str) -> set[str]:
    """The land provinces that a piece of `province` other than its largest borders: none when the
    province is drawn in one piece but for its islands."""
    rings = _rings(name)
    m = map_for_phase(load_map(name), load_map(name).begin)
    lands = {a for a, here in m.locations.items() if "/" not in a and here.terrain is not Terrain.WATER}
    owners: dict[tuple, set[str]] = {}
    for owner, ring in rings:
        for segment in _segments(ring):
            owners.setdefault(segment, set()).add(owner)
    pieces = sorted((ring for owner, ring in rings if owner == province), key=_area)
    found: set[str] = set()
    for ring in pieces[:-1]:
        lengths: dict[str, float] = {}
        for segment in _segments(ring):
            for other in owners[segment] & lands - {province, NO_PROVINCE}:
                lengths[other] = lengths.get(other, 0.0) + math.dist(*segment)
        found |= {other for other, length in lengths.items() if length >= 1}
    return found


# Edinburgh was drawn in two, Clyde reaching the firth between; on the standard board a strip of
# Finland's south coast was drawn as St Petersburg's, apart from the rest of it
WHOLE = [*((name, province) for name in ("standard", "chaos") for province in ("EDI", "FIN", "NWY", "STP", "SWE")),
         *(("1900", province) for province in ("FIN", "NAP", "NWY", "STP", "SWE")), ("modern", "EDI"),
         ("youngstown", "EDI"), ("youngstown", "NWY")]


@pytest.mark.parametrize(("name", "province"), WHOLE)
def test_scandinavia_and_edinburgh_are_each_drawn_in_one_piece(name, province):
    assert _lands_beside_lesser_pieces(name, province) == set()


def _sharp_corners(name: str) -> float:
    """How many corners a border between two lands or two seas turns by over 30 degrees beside an
    edge under 2.5 units, per 100 units of such borders: the grid's steps (a coast follows the
    real one and is not counted)."""
    rings = _rings(name)
    m = map_for_phase(load_map(name), load_map(name).begin)
    seas = {a for a, here in m.locations.items() if here.terrain is Terrain.WATER}
    owners: dict[tuple, set[str]] = {}
    for owner, ring in rings:
        for segment in _segments(ring):
            owners.setdefault(segment, set()).add(owner)

    def inland(a, b) -> bool:
        found = owners[(min(a, b), max(a, b))]
        return len(found) == 2 and len(found & seas) != 1

    corners, length = 0, 0.0
    for _, ring in rings:
        for a, b, c in zip(ring[-1:] + ring[:-1], ring, ring[1:] + ring[:1]):
            if not (inland(a, b) and inland(b, c)):
                continue
            length += math.dist(b, c)
            (ux, uy), (vx, vy) = (b[0] - a[0], b[1] - a[1]), (c[0] - b[0], c[1] - b[1])
            turn = abs(math.degrees(math.atan2(ux * vy - uy * vx, ux * vx + uy * vy)))
            corners += turn > 30 and min(math.dist(a, b), math.dist(b, c)) < 2.5
    return 100 * corners / length


@pytest.mark.parametrize("name", ["standard", "chaos", "1900", "modern", "ancmed", "youngstown"])
def test_borders_between_lands_and_between_seas_do_not_follow_the_grid(name):
    assert _sharp_corners(name) < 5
