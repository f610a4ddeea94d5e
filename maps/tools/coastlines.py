#!/usr/bin/env python3
"""Make a map's regions (`NAME.regions`, docs/drawing.md) from real coastlines.

Run once by hand, from the repository, with shapely installed (it is not needed by the judge,
which only reads the file written here)::

    python maps/tools/coastlines.py land-50m.json standard > maps/standard.regions

`land-50m.json` is Natural Earth's 1:50m land (public domain) as TopoJSON, as the `world-atlas`
package ships it. The land is warped onto the `.draw` file's points by a thin-plate spline fitted
on the longitude and latitude of the places named in the map's table, cut to the drawing's
frame; then the land is parted between the land provinces and the water between the seas by
`parting.py`, following the map's adjacencies: each province grows from its point (and from the
map's `STARTS`, if any) and touches only the provinces the map makes its neighbours.

Each map's own settings are its entries in `KNOWN`, `STARTS` and `OWN` here, or, for the maps
that keep them apart, its file `NAME.places` beside this script (a map without a `.draw` file
cannot be made); the rest is the same for every map, so that a map is made again with the same
command and comes out the same.
"""
from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import NamedTuple

import numpy as np
from parting import LAND, NO_PROVINCE, WATER, Grid, part, shapes, smoothed
from shapely.geometry import Polygon, box
from shapely.ops import unary_union

from judge.drawing.borders import adjacent_provinces
from judge.drawing.loader import read_geometry
from judge.maps import load_map, map_for_phase
from judge.maps.model import Terrain

# Longitude and latitude of where each map's drawing puts some of its places (the middle of the
# province as the board shows it), for the fit; a map takes the table of the map it copies.
STANDARD = {
    "LON": (-0.6, 51.8), "YOR": (-1.4, 54.0), "EDI": (-3.0, 56.6), "LVP": (-2.9, 53.9),
    "WAL": (-3.8, 52.0), "CLY": (-5.0, 57.3), "BRE": (-3.0, 48.1), "PAR": (2.2, 48.0),
    "PIC": (2.3, 49.9), "BUR": (4.6, 47.0), "GAS": (-0.3, 44.2), "MAR": (5.0, 43.8),
    "BEL": (4.6, 50.6), "HOL": (5.6, 52.3), "KIE": (9.6, 53.2), "BER": (13.3, 52.9),
    "RUH": (7.4, 50.9), "MUN": (11.0, 48.6), "SIL": (16.8, 51.0), "PRU": (20.5, 54.0),
    "SPA": (-3.8, 40.2), "POR": (-8.2, 39.6), "PIE": (7.9, 45.0), "VEN": (11.6, 45.3),
    "TUS": (11.0, 43.4), "ROM": (12.9, 42.0), "APU": (16.2, 41.0), "NAP": (15.8, 39.8),
    "TYR": (12.0, 47.0), "BOH": (14.5, 49.8), "VIE": (16.0, 47.8), "GAL": (23.5, 49.3),
    "BUD": (20.0, 47.0), "TRI": (15.5, 45.2), "SER": (21.0, 43.5), "ALB": (20.0, 41.0),
    "GRE": (22.0, 39.6), "BUL": (25.0, 42.7), "RUM": (25.5, 45.5), "CON": (27.5, 41.2),
    "ANK": (33.0, 40.8), "SMY": (29.0, 38.5), "SEV": (36.0, 47.5), "UKR": (29.0, 49.5),
    "WAR": (20.8, 52.2), "LVN": (25.5, 57.0), "MOS": (37.5, 55.5), "DEN": (9.2, 56.0),
    "SWE": (15.5, 60.0), "NWY": (9.5, 61.0), "FIN": (26.0, 62.5), "TUN": (9.5, 35.0),
    "NAF": (1.0, 34.5), "ARM": (42.0, 40.0), "SYR": (37.5, 35.5),
    "NTH": (3.0, 56.0), "NWG": (2.0, 65.0), "NAO": (-20.0, 57.0), "IRI": (-6.5, 51.5),
    "ENG": (-2.0, 50.0), "MAO": (-14.0, 43.0), "WES": (1.0, 38.5), "LYO": (5.0, 42.0),
    "TYS": (11.5, 40.0), "ION": (18.5, 36.5), "ADR": (15.5, 42.8), "AEG": (25.0, 38.5),
    "EAS": (32.0, 34.0), "BLA": (34.0, 43.0), "BAL": (18.0, 56.0), "BOT": (20.0, 61.5),
    "SKA": (9.5, 58.0), "HEL": (7.5, 54.3), "BAR": (40.0, 72.0),
}
# 1900 draws Europe as the standard board does, with North Africa and the Levant added and some
# provinces parted otherwise (Netherlands, Cologne, Alsace, Milan...).
NINETEEN = {
    **{n: p for n, p in STANDARD.items() if n not in ("RUH", "TUS", "NAF", "SYR")},
    "NET": (5.6, 52.3), "COL": (7.0, 50.9), "ALS": (7.0, 48.5), "SWI": (8.2, 46.8),
    "MIL": (9.5, 45.5), "IRE": (-8.0, 53.2), "ICE": (-18.5, 64.9), "BOS": (18.0, 44.0),
    "MAC": (22.0, 41.3), "KON": (32.5, 37.5), "MOR": (-6.0, 33.0), "ALG": (3.0, 35.5),
    "SOU": (3.0, 31.0), "TRP": (14.0, 31.5), "CYR": (21.5, 31.0), "EGY": (30.0, 28.5),
    "PAL": (35.0, 31.0), "DAM": (37.0, 34.0), "HEJ": (38.5, 25.0),
}
# Modern Diplomacy parts Europe its own way and adds the Middle East; the far seas and lands at
# the frame's edges (Arctic, Arabian Sea, Kazakhstan, Siberia...) are left to the fit.
MODERN = {
    "ADA": (35.5, 37.5), "ADL": (-3.5, 37.3), "ADR": (15.5, 42.8), "AEG": (25.0, 38.5),
    "ALB": (20.0, 41.0), "ALE": (29.0, 30.5), "ALG": (3.0, 34.0), "ALS": (7.5, 48.5),
    "ANA": (31.0, 38.0), "ANK": (33.0, 40.5), "APU": (16.2, 41.0), "ARM": (44.5, 40.2),
    "ASW": (32.9, 24.1), "AUS": (14.5, 47.5), "AUV": (3.0, 45.5), "AZE": (47.5, 40.3),
    "BAL": (19.5, 57.5), "BAR": (1.5, 41.8), "BEL": (4.6, 50.6), "BER": (13.3, 52.5),
    "BHM": (15.0, 55.0), "BIE": (28.0, 53.5), "BIS": (-5.0, 45.5), "BOR": (-0.5, 44.5),
    "BOS": (18.0, 44.0), "BRI": (-3.0, 48.1), "BUL": (25.0, 42.7), "CAI": (31.5, 29.0),
    "CAS": (50.5, 42.0), "CAU": (43.0, 44.0), "CLY": (-5.0, 57.3), "CRO": (16.0, 45.3),
    "CRP": (37.5, 52.5), "CZE": (15.0, 49.8), "DEN": (9.2, 56.0), "DON": (38.5, 48.0),
    "EBS": (38.5, 43.0), "EDI": (-3.0, 56.6), "EME": (30.0, 33.5), "ENG": (-2.0, 50.0),
    "ESA": (25.0, 28.0), "EST": (25.5, 58.7), "FIN": (26.0, 62.5), "FRA": (8.7, 50.1),
    "GDA": (18.6, 54.0), "GEO": (43.5, 42.0), "GIB": (-5.6, 36.4), "GOB": (20.5, 62.5),
    "GOL": (4.5, 42.5), "GOR": (44.0, 56.3), "GRE": (22.0, 39.6), "HAM": (10.0, 53.5),
    "HEL": (7.5, 54.3), "HOL": (5.6, 52.3), "HUN": (19.5, 47.2), "ICE": (-18.5, 64.9),
    "ION": (18.5, 37.5), "IRE": (-8.0, 53.2), "IRI": (-7.0, 51.3), "IRK": (44.0, 33.0),
    "IRN": (53.0, 33.0), "ISR": (35.0, 31.5), "IST": (28.9, 41.0), "IZM": (27.5, 38.5),
    "JOR": (36.5, 31.0), "KHA": (36.2, 50.0), "KIE": (30.5, 50.5), "KRA": (20.0, 50.0),
    "LAP": (25.0, 68.0), "LAT": (25.0, 56.9), "LBN": (20.0, 33.5), "LIB": (16.0, 30.0),
    "LIG": (9.0, 43.5), "LIT": (24.0, 55.3), "LIV": (-2.9, 53.7), "LON": (-0.6, 51.8),
    "LYO": (4.8, 46.0), "MAC": (21.5, 41.6), "MAD": (-3.7, 40.4), "MAL": (15.0, 35.0),
    "MAR": (5.4, 43.7), "MID": (-15.0, 45.0), "MIL": (9.2, 45.5), "MOL": (28.5, 47.0),
    "MON": (7.4, 43.9), "MOR": (-6.5, 32.5), "MOS": (37.6, 55.7), "MUN": (11.5, 48.1),
    "MUR": (33.0, 68.0), "NAO": (-20.0, 57.0), "NAP": (15.5, 40.5), "NAV": (-1.6, 42.8),
    "NTH": (3.0, 56.0), "NWG": (3.0, 66.0), "NWY": (9.5, 61.0), "ODE": (31.0, 47.5),
    "PAR": (2.0, 48.0), "PER": (50.5, 28.0), "PIC": (2.3, 49.9), "PIE": (7.9, 45.0),
    "POD": (27.0, 49.5), "POR": (-8.2, 39.6), "RED": (38.0, 21.0), "ROM": (12.5, 42.0),
    "ROS": (39.7, 47.2), "RUH": (7.2, 51.3), "RUM": (25.0, 45.5), "SAU": (45.0, 24.0),
    "SAX": (13.0, 51.0), "SER": (21.0, 43.8), "SEV": (34.0, 45.0), "SIL": (17.0, 51.0),
    "SIN": (33.8, 29.5), "SKA": (9.5, 58.0), "SLK": (19.5, 48.7), "SOG": (-5.0, 35.9),
    "STP": (30.3, 59.9), "SVE": (-6.0, 37.6), "SWE": (15.5, 60.0), "SWI": (8.2, 46.8),
    "SYR": (38.0, 35.0), "TUN": (9.5, 34.5), "TUS": (11.0, 43.4), "TYR": (11.5, 40.0),
    "VEN": (12.0, 45.5), "VOL": (45.0, 49.0), "WAL": (-3.8, 52.0), "WAR": (21.0, 52.2),
    "WBS": (31.0, 43.5), "WHI": (38.0, 65.5), "WME": (2.0, 38.0), "WSA": (-9.0, 27.0),
    "YOR": (-1.4, 54.0),
}
KNOWN = {"standard": STANDARD, "chaos": STANDARD, "1900": NINETEEN, "modern": MODERN}
# More places (longitude, latitude) a province grows from, where the ground nearest its point on
# the board lies in a neighbour's way (the south of Finland nearer St Petersburg's point).
NORTH_SEA_AND_BALTIC = {
    "FIN": [(25.0, 61.2), (23.45, 61.05)], "SWE": [(19.25, 63.7)], "EDI": [(-3.3, 56.25)],
    "NWY": [(25.8, 70.6)], "STP": [(35.0, 68.0)],
}
STARTS = {
    "standard": NORTH_SEA_AND_BALTIC,
    # chaos's frame, two units taller, leaves the Tyrrhenian all the water off Tunis's east coast
    "chaos": {**NORTH_SEA_AND_BALTIC, "ION": [(11.5, 33.8)]},
    # 1900's warp draws the Arctic coast at 66 degrees north: Norway's (with its coast up to it)
    # and the Kola's places there;
    # Sweden up to the top of the Gulf of Bothnia; Naples along its coast up to Rome; the
    # Mid-Atlantic from off Ireland's south-west
    "1900": {"NWY": [(12.95, 67.1), (14.85, 68.05), (26.1, 66.9)], "STP": [(34.0, 64.5)], "SWE": [(22.1, 65.6)],
             "NAP": [(14.25, 40.85), (15.0, 40.3)], "MAO": [(-9.5, 51.5)]},
    # Edinburgh from the head of the Firth of Forth, which Clyde reached between its two shores
    "modern": {"EDI": [(-3.65, 55.95)]},
}
# A map's own settings (drawing units): how far apart two neighbours may be for a straight lane
# between them (`REACH`, where the drawing stands so far from the real map that longer lanes cross
# the board; none: any), how wide a strait a lane bridges (`STRAIT`, where the warp draws one
# wider than the usual).
OWN = {"1900": {"REACH": 48.0, "STRAIT": 18.0}}
# Other maps keep their table beside this script, in a file of their own: `NAME.places`, one place
# a line (its abbreviation, longitude, latitude; `#` starts a comment), its `STARTS` as lines
# `START` abbreviation longitude latitude, and any of `SETTINGS` the map sets otherwise (its name
# and value).
TABLES = Path(__file__).resolve().parent

SIMPLIFY = 0.4  # drawing units: finer coastline detail is below a pixel of the picture
DIGITS = 1
SQUARE = 1.0  # drawing units: the side of the grid's squares the ground is parted on
LANE = 3.0  # drawing units: how wide the ground laid between two neighbours that grew apart
STRAIT = 12.0  # drawing units: the widest water (or land) a lane bridges (or cuts) for two neighbours
ROUNDS = 6  # how many times the ground is parted again with lanes for the neighbours still apart
SMOOTH = 0.8  # drawing units: how far a border (a coast too) may leave its points to run straight over the grid's steps
INLAND = 2.0  # drawing units: the same for the borders between two lands or two seas, drawn over the grid alone
STIFFNESS = 0.01  # how far the fit may leave a known place for a smoother land
SETTINGS = ("SIMPLIFY", "REACH", "STRAIT")


class Table(NamedTuple):
    places: dict[str, tuple[float, float]]  # (longitude, latitude) by abbreviation
    starts: dict[str, list[tuple[float, float]]]  # more places a province grows from
    settings: dict[str, float]  # those of SETTINGS the map sets otherwise


def map_table(name: str) -> Table:
    """`name`'s places and settings: its file of its own, else the tables here."""
    path = TABLES / f"{name}.places"
    if not path.exists():
        return Table(KNOWN[name], STARTS.get(name, {}), OWN.get(name, {}))
    table = Table({}, {}, {})
    for number, raw in enumerate(path.read_text().splitlines(), 1):
        words = raw.split("#", 1)[0].split()
        try:
            if len(words) == 2 and words[0] in SETTINGS:
                table.settings[words[0]] = float(words[1])
            elif len(words) == 4 and words[0] == "START":
                table.starts.setdefault(words[1].upper(), []).append((float(words[2]), float(words[3])))
            elif words:
                place, lon, lat = words
                table.places[place.upper()] = (float(lon), float(lat))
        except ValueError:
            raise SystemExit(f"{path}:{number}: expected a place, its longitude and latitude, START and "
                             f"a place's, or one of {' '.join(SETTINGS)} and its value") from None
    return table


def land_polygons(path: str) -> list[list[list[tuple[float, float]]]]:
    """The land of a TopoJSON file (its first object) as polygons of rings of (lon, lat)."""
    topology = json.load(open(path))
    scale, shift = topology["transform"]["scale"], topology["transform"]["translate"]
    arcs = []
    for arc in topology["arcs"]:
        x = y = 0
        points = []
        for dx, dy in arc:
            x, y = x + dx, y + dy
            points.append((x * scale[0] + shift[0], y * scale[1] + shift[1]))
        arcs.append(points)

    def ring(indices: list[int]) -> list[tuple[float, float]]:
        out: list[tuple[float, float]] = []
        for i in indices:
            points = arcs[i] if i >= 0 else arcs[~i][::-1]
            out.extend(points[1:] if out else points)
        return out

    found = []
    for geometry in next(iter(topology["objects"].values()))["geometries"]:
        polygons = geometry["arcs"] if geometry["type"] == "MultiPolygon" else [geometry["arcs"]]
        found.extend([ring(r) for r in polygon] for polygon in polygons)
    return found


def fit(known: dict[str, tuple[float, float]], points: dict[str, tuple[float, float]]):
    """A smooth map from (lon, lat) to the drawing's (x, y) that takes each known place to its
    point (a thin-plate spline, bent as little as fits them, softened by `STIFFNESS`): the boards
    are drawn, not projected, so no projection puts every place where its drawing does."""
    names = [n for n in known if n in points]
    middle = math.cos(math.radians(sum(known[n][1] for n in names) / len(names)))
    source = np.array([(known[n][0] * middle, known[n][1]) for n in names])
    target = np.array([points[n] for n in names])
    count = len(names)
    affine = np.hstack([np.ones((count, 1)), source])
    system = np.zeros((count + 3, count + 3))
    system[:count, :count] = _kernel(source, source) + STIFFNESS * np.eye(count)
    system[:count, count:] = affine
    system[count:, :count] = affine.T
    solution = np.linalg.solve(system, np.vstack([target, np.zeros((3, 2))]))

    def project(lon: float, lat: float) -> tuple[float, float]:
        here = np.array([[lon * middle, lat]])
        x, y = (_kernel(here, source) @ solution[:count] + np.array([1.0, *here[0]]) @ solution[count:])[0]
        return float(x), float(y)
    return project


def _kernel(a, b):
    d2 = ((a[:, None, :] - b[None, :, :]) ** 2).sum(axis=2)
    return np.where(d2 > 0, 0.5 * d2 * np.log(np.where(d2 > 0, d2, 1.0)), 0.0)


def regions(name: str, land_file: str) -> tuple[tuple[float, float], dict[str, object]]:
    base = load_map(name)
    m = map_for_phase(base, base.begin)
    geometry, _, problems = read_geometry(m)
    if geometry is None:
        raise SystemExit(f"{name}: no drawing data {problems}")
    points = {a: (x, y) for a, x, y in geometry.points if "/" not in a}
    table = map_table(name)
    project = fit(table.places, points)
    frame = box(0, 0, geometry.width, geometry.height)
    wide = frame.buffer(geometry.width)  # land just outside the frame still closes the coasts
    pieces = []
    for polygon in land_polygons(land_file):
        rings = [[project(lon, lat) for lon, lat in r] for r in polygon]
        shape = Polygon(rings[0], rings[1:])
        if shape.intersects(wide):
            pieces.append(shape.buffer(0))
    land = unary_union(pieces).intersection(frame).simplify(table.settings.get("SIMPLIFY", SIMPLIFY))
    kinds = {a: WATER if m.locations[a].terrain is Terrain.WATER else LAND for a in points}
    grid = Grid(land, geometry.width, geometry.height, SQUARE)
    shut = {a for a in points if m.locations[a].terrain is Terrain.SHUT}
    neighbours = {pair for pair in adjacent_provinces(m) if not pair & shut}
    sites = {a: [p, *(project(*q) for q in table.starts.get(a, []))] for a, p in points.items()}
    owner = part(grid, sites, kinds, friends(m), neighbours, ROUNDS, LANE,
                 table.settings.get("STRAIT", STRAIT), table.settings.get("REACH"))
    land, water = grid.ground(land)
    owners = shapes(grid, owner, (land, water))
    seas = {a for a, kind in kinds.items() if kind == WATER}
    return (geometry.width, geometry.height), smoothed(owners, SMOOTH, INLAND, DIGITS, seas)


def friends(m) -> dict[str, set[str]]:
    """The provinces each province may be drawn touching: those the map makes adjacent to it, and
    impassable places (SHUT), which border what they lie among and take no move."""
    provinces = {a for a in m.locations if "/" not in a}
    shut = {a for a in provinces if m.locations[a].terrain is Terrain.SHUT}
    near = adjacent_provinces(m)
    return {a: {b for b in provinces if frozenset((a, b)) in near or b in shut or a in shut} | {NO_PROVINCE}
            for a in provinces}


def rings(shape) -> list[list[tuple[float, float]]]:
    found = []
    for polygon in getattr(shape, "geoms", [shape]):
        if polygon.geom_type != "Polygon" or polygon.is_empty:
            continue
        for ring in [polygon.exterior, *polygon.interiors]:
            found.append([(round(x, DIGITS), round(y, DIGITS)) for x, y in ring.coords[:-1]])
    return found


def main() -> None:
    land_file, name = sys.argv[1], sys.argv[2]
    (width, height), owners = regions(name, land_file)
    print(f"# Regions of {name}.map: land and sea from Natural Earth's 1:50m land (public domain),")
    print("# made by maps/tools/coastlines.py (see maps/README.md). One ring a line: the province,")
    print("# then x,y points (a province's holes and other pieces on lines of their own); - is land")
    print("# of no province.")
    print(f"SIZE {width:g} {height:g}")
    for owner in sorted(owners):
        for ring in rings(owners[owner]):
            print(owner, " ".join(f"{x:g},{y:g}" for x, y in ring))


if __name__ == "__main__":
    main()
