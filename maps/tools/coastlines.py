#!/usr/bin/env python3
"""Make a map's regions (`NAME.regions`, docs/drawing.md) from real coastlines.

Run once by hand, from the repository, with shapely installed (it is not needed by the judge,
which only reads the file written here)::

    python maps/tools/coastlines.py land-50m.json standard > maps/standard.regions

`land-50m.json` is Natural Earth's 1:50m land (public domain) as TopoJSON, as the `world-atlas`
package ships it. The land is projected onto the `.draw` file's points by an affine fit of the
longitude and latitude of the places named in `KNOWN` or in the map's own `NAME.places` beside
this script (least squares), cut to the drawing's
frame; then the land that holds a land province's point is parted between the land provinces
(each piece nearest its own point) and the water between the seas the same way, so that land
meets sea along the coast and two provinces meet where their points' half-way line crosses
their kind of ground. Land that holds no province's point (islands that are no province) is
written as land of no province (`-`).
"""
from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import numpy as np
import shapely
from shapely.geometry import MultiPoint, Point, Polygon, box
from shapely.ops import polygonize, unary_union

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
# Other maps keep their table beside this script, in a file of their own: `NAME.places`, one place
# a line (its abbreviation, longitude, latitude; `#` starts a comment), and any of `SETTINGS` the
# map sets otherwise (its name and value).
TABLES = Path(__file__).resolve().parent

SIMPLIFY = 0.4  # drawing units: finer coastline detail is below a pixel of the picture
DIGITS = 1
STIFFNESS = 0.01  # how far the fit may leave a known place for a smoother land
SETTINGS = ("SIMPLIFY",)


def known_places(name: str) -> tuple[dict[str, tuple[float, float]], dict[str, float]]:
    """The longitudes and latitudes of `name`'s places, and the settings it gives other than the
    defaults here (`SIMPLIFY 0.8`): its file of its own, else the table here."""
    table = TABLES / f"{name}.places"
    if not table.exists():
        return KNOWN[name], {}
    found, settings = {}, {}
    for number, raw in enumerate(table.read_text().splitlines(), 1):
        words = raw.split("#", 1)[0].split()
        try:
            if len(words) == 2 and words[0] in SETTINGS:
                settings[words[0]] = float(words[1])
            elif words:
                place, lon, lat = words
                found[place.upper()] = (float(lon), float(lat))
        except ValueError:
            raise SystemExit(f"{table}:{number}: expected a place, its longitude and latitude, "
                             f"or one of {' '.join(SETTINGS)} and its value") from None
    return found, settings


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


def partition(area, sites: dict[str, tuple[float, float]], frame) -> dict[str, object]:
    """Each site's share of `area`: the part nearer its point than any other site's."""
    if not sites:
        return {}
    cells = shapely.voronoi_polygons(MultiPoint(list(sites.values())), extend_to=frame)
    found: dict[str, object] = {}
    for cell in cells.geoms:
        for name, (x, y) in sites.items():
            if cell.contains(Point(x, y)):
                found[name] = cell.intersection(area)
    return found


def regions(name: str, land_file: str) -> tuple[tuple[float, float], dict[str, object]]:
    base = load_map(name)
    m = map_for_phase(base, base.begin)
    geometry, _, problems = read_geometry(m)
    if geometry is None:
        raise SystemExit(f"{name}: no drawing data {problems}")
    points = {a: (x, y) for a, x, y in geometry.points if "/" not in a}
    places, settings = known_places(name)
    project = fit(places, points)
    frame = box(0, 0, geometry.width, geometry.height)
    wide = frame.buffer(geometry.width)  # land just outside the frame still closes the coasts
    pieces = []
    for polygon in land_polygons(land_file):
        rings = [[project(lon, lat) for lon, lat in r] for r in polygon]
        shape = Polygon(rings[0], rings[1:])
        if shape.intersects(wide):
            pieces.append(shape.buffer(0))
    land = unary_union(pieces).intersection(frame).simplify(settings.get("SIMPLIFY", SIMPLIFY))
    water_sites = {a: p for a, p in points.items() if m.locations[a].terrain is Terrain.WATER}
    land_sites = {a: p for a, p in points.items() if a not in water_sites}
    parts = list(getattr(land, "geoms", [land]))
    played = unary_union([p for p in parts if any(p.distance(Point(q)) < 8 for q in land_sites.values())])
    other = unary_union([p for p in parts if p.distance(played) > 0]) if parts else None
    water = frame.difference(land)
    everyone = partition(frame, {**land_sites, **water_sites}, frame)
    seas = unary_union([everyone[a] for a in water_sites])
    lands = unary_union([everyone[a] for a in land_sites])
    # each place keeps its ground within its cell among all places (today's borders where both
    # sides are its kind of ground); its kind of ground in the other kind's cells goes, piece by
    # piece, to the place of its kind it shares the longest border with
    owners, strays = {}, []
    masses = _parts(played)
    home = {a: min(masses, key=lambda g: g.distance(Point(x, y))) for a, (x, y) in land_sites.items()}
    for a in land_sites:
        # a cell reaching across water to another land mass keeps only its own mass's land
        mine = everyone[a].intersection(played)
        owners[a] = mine.intersection(home[a])
        strays += [g for g in _parts(mine.difference(home[a])) if g.area > 0]
    owners.update({a: everyone[a].intersection(water) for a in water_sites})
    near = adjacent_provinces(m)
    annex(owners, land_sites, played.intersection(seas), {a: everyone[a] for a in water_sites}, near, frame, home)
    annex(owners, water_sites, water.intersection(lands), {a: everyone[a] for a in land_sites}, near, frame, {})
    by_border(owners, land_sites, strays)
    if other is not None and not other.is_empty:
        owners["-"] = other
    return (geometry.width, geometry.height), noded(owners)


def annex(owners: dict[str, object], names: dict[str, tuple[float, float]], left, cells: dict[str, object],
          near: set[frozenset[str]], frame, home: dict[str, object]) -> None:
    """Part `left` (the one kind of ground lying in the other kind's cells) between the places of
    `names`: in each cell, between the places the map makes adjacent to that cell's place (each
    the part nearest its point), so that each of them reaches that place's coast; ground in a
    cell whose place has none of them adjacent, or land off the mass its place stands on (`home`),
    goes to whichever it borders longest."""
    rest = []
    for host, cell in cells.items():
        inside = left.intersection(cell)
        if inside.is_empty:
            continue
        neighbours = {a: p for a, p in names.items() if frozenset((a, host)) in near}
        if not neighbours:
            rest.extend(g for g in _parts(inside) if g.area > 0)
            continue
        for a, share in partition(inside, neighbours, frame).items():
            mass = home.get(a)
            if mass is not None:  # land stays on its place's own land mass
                rest.extend(g for g in _parts(share.difference(mass)) if g.area > 0)
                share = share.intersection(mass)
            owners[a] = unary_union([owners[a], share])
    by_border(owners, names, rest)


def by_border(owners: dict[str, object], names, pieces: list) -> None:
    """Give each piece to the owner among `names` it borders longest, round after round, as
    pieces given make new neighbours."""
    while pieces:
        waiting = []
        for piece in pieces:
            touching = {a: piece.boundary.intersection(owners[a].buffer(0.05)).length for a in names}
            best = max(touching, key=touching.__getitem__)
            if touching[best] > 0:
                owners[best] = unary_union([owners[best], piece])
            else:
                waiting.append(piece)
        if len(waiting) == len(pieces):
            break  # pieces touching none of them (an inland sea): left to no one
        pieces = waiting


def _parts(shape) -> list:
    return [g for g in getattr(shape, "geoms", [shape]) if g.geom_type == "Polygon"]


def noded(owners: dict[str, object]) -> dict[str, object]:
    """The regions rebuilt from the faces of all their borders noded together, so that two regions
    that meet share the very same points along their border (the judge finds borders by them)."""
    lines = unary_union([shapely.set_precision(g, 10 ** -DIGITS).boundary for g in owners.values()
                         if not g.is_empty])
    faces: dict[str, list] = {}
    for face in polygonize(lines):
        inside = face.representative_point()
        owner = next((n for n, g in owners.items() if g.contains(inside)), None)
        if owner is not None:
            faces.setdefault(owner, []).append(face)
    return {n: unary_union(fs) for n, fs in faces.items()}


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
