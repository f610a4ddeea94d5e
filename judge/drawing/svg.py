"""A board drawn as SVG, the master form of every picture (PNG and PDF are made from it).

This module works out the shapes (cells, points, arrows) on a canvas `CANVAS_WIDTH` wide; the words
and the markup are `templates/board.svg`'s. The picture's parts carry `class` and `data-*`
attributes naming what they show (`unit`, `center`, `order`...), so a test or a tool can read a
picture back.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any
from pathlib import PurePath
from dataclasses import dataclass

import jinja2

from judge.drawing.board import Board, DrawnOrder
from judge.drawing.borders import across_edge_marks, straits
from judge.drawing.edge_marks import drawn_marks
from judge.drawing.regions import NO_PROVINCE
from judge.drawing.cells import Polygon, cells, nearest_gaps
from judge.drawing.geometry import Geometry, province_point
from judge.drawing.labels import Box, Labels, Point, around, label_spots
from judge.drawing.outlines import border_path, on_canvas, ring_paths
from judge.maps.model import Map, Terrain, per_map

CANVAS_WIDTH = 1200  # the picture's least width in SVG units: a PNG of that width shows text at its size
MAX_WIDTH = 1600
CLOSE_GAP = 34.0  # canvas units that nine places in ten keep at least to their nearest neighbour
MARGIN = 12
TITLE_HEIGHT = 48
LEGEND_ROW = 22
UNIT_RADIUS = 9.0
UNIT_REACH = UNIT_RADIUS * 1.3 + 1.5  # half the width of a fleet's hull, its outline included
CENTRE_RADIUS = 4.5
RING_RADIUS = {"hold": 13.0, "build": 14.0, "convoy": 15.0, "disband": 10.0}  # as templates/board.svg draws them

# Colours of the usual powers of the usual maps; other powers take the palette in map order. Chosen
# so that on each shipped map every two powers, and each power against land, sea and an unowned
# centre, stay apart for normal sight and the three kinds of colour blindness, their tints too
# (tests/drawing/test_palette.py measures it); the usual hues kept where that allowed.
KNOWN_COLOURS = {
    "AUSTRIA": "#821f0d", "ENGLAND": "#621b88", "BRITAIN": "#621b88", "FRANCE": "#057ea6",
    "GERMANY": "#1f0b00", "ITALY": "#6c8f00", "RUSSIA": "#b886da", "TURKEY": "#efb200",
    "CHINA": "#c0745f", "INDIA": "#69a49c", "JAPAN": "#b3356b",
    "EGYPT": "#4d7264", "POLAND": "#c52787", "SPAIN": "#ff6e54", "UKRAINE": "#003f51",
    "CARTHAGE": "#251682", "GREECE": "#0088b1", "PERSIA": "#b98600", "ROME": "#ba5434",
}
# Youngstown's ten first: any ten of a map's own powers are then as far apart as Youngstown's.
PALETTE = ("#821f0d", "#057ea6", "#6c8f00", "#efb200", "#621b88", "#b886da", "#1f0b00", "#c0745f",
           "#69a49c", "#b3356b", "#ff6e54", "#c52787", "#003f51", "#251682", "#b98600", "#4d7264")
# A map of more powers than PALETTE holds (chaos's 34) takes these in map order: chosen one by one,
# each the sRGB colour (13 levels a channel) farthest from those before it, weighing a colour-blind
# difference twice a normal one, among the colours as far from land, sea, an unowned centre and
# (their tints) from land and sea as PALETTE's are; any first n are as far apart as this allowed.
CROWD = ("#1f0b00", "#55ff80", "#ea95bf", "#006a80", "#bf5500", "#400080", "#95956a", "#951540",
         "#9555ff", "#404000", "#806a6a", "#00aa95", "#bfbf00", "#40002a", "#15406a", "#ff5555",
         "#6a80bf", "#002aff", "#9515aa", "#bf8000", "#552a2a", "#bf2a2a", "#555555", "#ea0080",
         "#000015", "#000040", "#406a55", "#aa80aa", "#6a6a40", "#ffd42a", "#002a00", "#008080",
         "#404055", "#ff956a")
LAND, SEA, SHUT = "#efe4c4", "#a9cbe8", "#8a8a8a"
GHOST_FADE, GHOST_INK = 0.65, "#6d6d6d"  # a unit gone from where it stood: its colour faded, its letter grey
TINT = 0.5  # how much of its owner's colour a province whose centre is owned takes
UNKNOWN_OWNER, UNKNOWN_FILL = "?", "#b8b8b8"  # a centre whose owner a BLIND reader is not told


@dataclass(frozen=True)
class Placed:
    """Canvas coordinates of a map's locations and the outlines of its provinces."""

    scale: float
    width: float
    points: Mapping[str, tuple[float, float]]
    outlines: Mapping[str, str]  # province -> SVG path data
    height: float
    labels: Labels
    straits: str = ""  # SVG path data: borders of two lands the map parts by water, drawn as water
    other_land: str = ""  # SVG path data: land of no province (islands drawn from real coastlines)
    borders: str = ""  # SVG path data: every region's outline, each border once
    edge_marks: tuple[dict, ...] = ()  # arrows at the frame: neighbours across the board's edge


def colours(m: Map) -> dict[str, str]:
    """Each power's colour: its usual one, else the next of the palette (map order); on a map of
    more powers than the palette holds, `CROWD`'s in map order (a usual colour kept there would
    fall near one of them)."""
    if len(m.powers) > len(PALETTE):
        crowd = iter(CROWD * (1 + len(m.powers) // len(CROWD)))
        return {name: next(crowd) for name in m.powers}
    known = {name: KNOWN_COLOURS[name] for name in m.powers if name in KNOWN_COLOURS}
    unused = [c for c in PALETTE if c not in known.values()]
    spare = iter(unused * (1 + len(m.powers) // max(len(unused), 1)))
    return {name: known.get(name) or next(spare) for name in m.powers}


def tinted(base: str, colour: str, share: float = TINT) -> str:
    """`base` with `share` of `colour` mixed in: a province's fill tinted by its owner, drawn as one
    opaque shape (cheaper to render than a translucent one laid over it)."""
    mix = (round((1 - share) * int(base[i:i + 2], 16) + share * int(colour[i:i + 2], 16)) for i in (1, 3, 5))
    return "#" + "".join(f"{c:02x}" for c in mix)


def text_colour(fill: str) -> str:
    """Black on light colours, white on dark ones, so the letter of a unit is always legible."""
    r, g, b = (int(fill[i:i + 2], 16) for i in (1, 3, 5))
    return "#000000" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#ffffff"


def place(m: Map, geometry: Geometry) -> Placed:
    """The map's places scaled to the canvas, and the province outlines."""
    given = geometry.point_map()
    width = _canvas_width(geometry)
    scale = (width - 2 * MARGIN) / geometry.width
    points: dict[str, tuple[float, float]] = {}
    for abbrev in m.locations:
        found = province_point(given, abbrev)
        if found is not None:
            points[abbrev] = (MARGIN + found[0] * scale, TITLE_HEIGHT + found[1] * scale)
    sites = tuple((a, given[a][0], given[a][1]) for a in sorted(m.locations)
                  if "/" not in a and a in given)
    rings = {name: [on_canvas(poly, MARGIN, TITLE_HEIGHT, scale) for poly in polys]
             for name, polys in _shapes(geometry, sites).items()}
    outlines = {name: ring_paths(own) for name, own in rings.items() if name != NO_PROVINCE}
    taken = [around(p, UNIT_REACH) for p in points.values()]
    taken += [around(centre_spot(points[c]), CENTRE_RADIUS + 1) for c in m.supply_centers if c in points]
    marks = tuple(drawn_marks(across_edge_marks(m, geometry),
                              lambda p: (MARGIN + p[0] * scale, TITLE_HEIGHT + p[1] * scale)))
    taken += [box for mark in marks for box in mark["boxes"]]
    labels = label_spots({a: a.title() for a in outlines}, points, taken, UNIT_RADIUS)
    water = [] if geometry.schematic else [edge for edges in straits(m, geometry).values() for edge in edges]
    return Placed(scale, width, points, outlines, TITLE_HEIGHT + geometry.height * scale, labels,
                  "".join(_path((MARGIN + x * scale, TITLE_HEIGHT + y * scale) for x, y in edge)[:-1]
                          for edge in water),
                  ring_paths(rings.get(NO_PROVINCE, ())),
                  border_path([ring for name in sorted(rings) for ring in rings[name]]),
                  marks)


def _shapes(geometry: Geometry, sites: tuple[tuple[str, float, float], ...]) -> dict[str, list[Polygon]]:
    """Each province's rings: its regions from real coastlines where the drawing has them, else its
    cell around its point."""
    if not geometry.regions:
        return {name: [poly] for name, poly in cells(sites, geometry.width, geometry.height).items()}
    found: dict[str, list[Polygon]] = {}
    for name, ring in geometry.regions:
        found.setdefault(name, []).append(ring)
    return found


def centre_spot(point: Point) -> Point:
    """Where a place's supply centre is drawn: beside and below its unit."""
    return (point[0] + UNIT_RADIUS + 6, point[1] + UNIT_RADIUS + 2)


def _canvas_width(geometry: Geometry) -> int:
    """Wide enough for the labels of a crowded board (Europe on Youngstown's) not to overlap."""
    points = [(x, y) for a, x, y in geometry.points if "/" not in a]
    gaps = sorted(nearest_gaps(points))
    close = gaps[len(gaps) // 10] if gaps else 0.0
    if close <= 0:
        return CANVAS_WIDTH
    needed = CLOSE_GAP * geometry.width / close + 2 * MARGIN
    return int(min(MAX_WIDTH, max(CANVAS_WIDTH, math.ceil(needed / 100) * 100)))


def _path(points) -> str:
    return "M" + "L".join(f"{x:.1f},{y:.1f}" for x, y in points) + "Z"


def draw_svg(env: jinja2.Environment, m: Map, geometry: Geometry, board: Board) -> str:
    """The SVG of `board` on map `m` drawn with `geometry` (see `geometry.fitted`)."""
    placed = _placed(m, geometry)
    palette = colours(m)
    owner = {c: p for p, cs in board.centers.items() for c in cs}
    routes = _routes(board.orders, placed)
    dislodged = _dislodged(board, placed, palette)
    units = _units(board, placed, palette)
    ghosts = _ghosts(board, placed, palette, {u["location"].split("/")[0] for u in units})
    # a unit drawn beside its place (dislodged, or gone from where another stands now) gives its
    # order from where it is drawn
    beside = {(u["power"], u["location"]): (u["x"], u["y"]) for u in (*dislodged, *ghosts)}
    orders = [drawn for drawn in (_order(o, placed, routes, beside) for o in board.orders) if drawn]
    legend = _legend(m, board, palette)
    context = {
        "width": placed.width,
        "map_bottom": placed.height,
        "game": board.game, "phase": board.phase, "results": board.results, "after": board.outcome is not None,
        "schematic": geometry.schematic, "straits": placed.straits, "sea": SEA,
        "coastlines": bool(geometry.regions), "other_land": placed.other_land, "land": LAND,
        "borders": placed.borders, "edge_marks": placed.edge_marks,
        "frame": {"x": MARGIN, "y": TITLE_HEIGHT, "width": round(placed.width - 2 * MARGIN, 1),
                  "height": round(placed.height - TITLE_HEIGHT, 1)},
        "map_name": PurePath(m.name).stem,  # a path names no folder
        "regions": _regions(m, placed, owner, palette, placed.labels.placed(*_drawn_over(orders, dislodged))),
        "centers": _centers(m, placed, owner, palette, board.known_centers),
        "units": units,
        "ghosts": ghosts,
        "dislodged": dislodged,
        "orders": orders,
        "legend": legend,
        "legend_row": LEGEND_ROW,
    }
    rows = math.ceil(len(legend) / 4) + 1 + board.results + (board.outcome is not None)
    context["height"] = placed.height + MARGIN + rows * LEGEND_ROW + MARGIN
    return env.get_template("board.svg").render(**context)


# map -> geometry -> Placed: a map's cells are worked out once
_placements: Callable[[Map], dict[Geometry, Placed]] = per_map(lambda m: {})


def _placed(m: Map, geometry: Geometry) -> Placed:
    kept = _placements(m)
    found = kept.get(geometry)
    if found is None:
        found = kept[geometry] = place(m, geometry)
    return found


def _drawn_over(orders: list[dict], dislodged: list[dict]) -> tuple[list[Box], list[tuple[Point, Point]]]:
    """What a picture draws over the board besides units and centres: rings and crosses, as boxes;
    order and retreat lines, as segments."""
    boxes = [around((o["x"], o["y"]), RING_RADIUS[o["kind"]] + 1.5) for o in orders if o["kind"] in RING_RADIUS]
    boxes += [around((u["x"], u["y"]), UNIT_REACH) for u in dislodged]
    lines = [line for u in dislodged for line in u["retreats"]] + [o["line"] for o in orders if "line" in o]
    lines += [piece for o in orders for piece in o.get("pieces", ())]
    return boxes, [((line["x1"], line["y1"]), (line["x2"], line["y2"])) for line in lines]


def _regions(m: Map, placed: Placed, owner: Mapping[str, str], palette: Mapping[str, str],
             labels: Mapping[str, Point]) -> list[dict]:
    regions = []
    for abbrev, outline in sorted(placed.outlines.items()):
        loc = m.locations[abbrev]
        kind = "sea" if loc.terrain is Terrain.WATER else "shut" if loc.terrain is Terrain.SHUT else "land"
        fill = {"sea": SEA, "shut": SHUT}.get(kind, LAND)
        tint = palette.get(owner.get(abbrev, ""), None) if kind == "land" else None
        x, y = labels[abbrev]
        regions.append({"abbrev": abbrev, "name": loc.name, "kind": kind, "path": outline,
                        "fill": tinted(fill, tint) if tint else fill, "owner": owner.get(abbrev, "") if tint else "",
                        "x": round(x, 1), "y": round(y, 1)})
    return regions


def _centers(m: Map, placed: Placed, owner: Mapping[str, str], palette: Mapping[str, str],
             known: frozenset[str] | None) -> list[dict]:
    found = []
    for center in sorted(m.supply_centers):
        if center not in placed.points:
            continue
        x, y = centre_spot(placed.points[center])
        power = owner.get(center)
        fill = palette.get(power or "", "#ffffff")
        if known is not None and center not in known:
            power, fill = UNKNOWN_OWNER, UNKNOWN_FILL
        found.append({"abbrev": center, "owner": power or "", "fill": fill,
                      "x": round(x, 1), "y": round(y, 1)})
    return found


def _unit(power: str, unit, placed: Placed, palette: Mapping[str, str], dx: float = 0.0) -> dict | None:
    if unit.location not in placed.points:
        return None
    x, y = placed.points[unit.location]
    fill = palette.get(power, "#ffffff")
    return {"power": power, "type": unit.type.value, "location": unit.location, "fill": fill,
            "ink": text_colour(fill), "x": round(x + dx, 1), "y": round(y, 1), "r": UNIT_RADIUS}


def _units(board: Board, placed: Placed, palette: Mapping[str, str]) -> list[dict]:
    """Units on the board (after a processed phase, those standing after it); a dislodged one is
    drawn once, among the dislodged."""
    standing = board.units if board.outcome is None else board.outcome.units
    drawn = (_unit(p, u, placed, palette) for p, us in sorted(standing.items()) for u in us
             if u not in board.dislodged.get(p, {}))
    return [u for u in drawn if u]


def _ghosts(board: Board, placed: Placed, palette: Mapping[str, str], held: set[str]) -> list[dict]:
    """The units that stood on the board before a processed phase and stand there no more, faded
    where they stood: beside the place when a unit stands on it now (`held`, provinces)."""
    if board.outcome is None:
        return []
    found = []
    for power, units in sorted(board.outcome.gone.items()):
        for unit in units:
            beside = UNIT_RADIUS * 1.6 if unit.location.split("/")[0] in held else 0.0
            drawn = _unit(power, unit, placed, palette, dx=beside)
            if drawn:  # faded by mixing in white: opaque shapes are cheaper to render
                found.append({**drawn, "fill": tinted(drawn["fill"], "#ffffff", GHOST_FADE), "ink": GHOST_INK})
    return found


def _dislodged(board: Board, placed: Placed, palette: Mapping[str, str]) -> list[dict]:
    """Dislodged units stand beside the place they were driven from, with their ways out (after a
    retreat phase none is left: those that were are drawn among the units gone)."""
    gone = board.outcome.gone if board.outcome is not None else {}
    found = []
    for power, units in sorted(board.dislodged.items()):
        for unit, retreats in sorted(units.items()):
            if unit in gone.get(power, ()):
                continue
            drawn = _unit(power, unit, placed, palette, dx=UNIT_RADIUS * 1.6)
            if drawn is None:
                continue
            drawn["retreats"] = [_line(placed, unit.location, r, (drawn["x"], drawn["y"]))
                                 for r in retreats if r in placed.points]
            found.append(drawn)
    return found


def _line(placed: Placed, start: str, end: str, origin: tuple[float, float] | None = None,
          end_point: tuple[float, float] | None = None) -> dict:
    """A line between two places, shortened at both ends so that it does not cover the units."""
    x1, y1 = origin or placed.points[start]
    x2, y2 = end_point or placed.points[end]
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    cut = min(UNIT_RADIUS + 2, length / 3)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    return {"x1": round(x1 + ux * cut, 1), "y1": round(y1 + uy * cut, 1),
            "x2": round(x2 - ux * cut, 1), "y2": round(y2 - uy * cut, 1), "to": end}


def _routes(orders: tuple[DrawnOrder, ...], placed: Placed) -> dict[tuple[str, str], list[str]]:
    """The fleets convoying each army's move, (army's place, destination) -> fleets in the order the
    army passes them: each next fleet the nearest one left, from the army on."""
    fleets: dict[tuple[str, str], list[str]] = {}
    for order in orders:
        if order.kind == "convoy" and order.via and order.to and order.at in placed.points:
            fleets.setdefault((order.via, order.to), []).append(order.at)
    routes = {}
    for (army, dest), left in fleets.items():
        if army not in placed.points:
            continue
        route, here = [], placed.points[army]
        while left:
            nearest = min(left, key=lambda f: math.dist(here, placed.points[f]))
            left.remove(nearest)
            route.append(nearest)
            here = placed.points[nearest]
        routes[(army, dest)] = route
    return routes


def _path_via(placed: Placed, places: list[str]) -> list[dict]:
    """A line through `places` broken around each unit on the way, so that it covers none of them:
    a convoyed army's way through its fleets."""
    return [_line(placed, start, end) for start, end in zip(places, places[1:])]


def _order(order: DrawnOrder, placed: Placed, routes: Mapping[tuple[str, str], list[str]],
           beside: Mapping[tuple[str, str], Point]) -> dict | None:
    if order.at not in placed.points or (order.to is not None and order.to not in placed.points):
        return None
    drawn: dict[str, Any] = {"kind": order.kind, "power": order.power, "at": order.at, "to": order.to or "",
                             "via": order.via or "", "ok": order.ok}
    x, y = origin = beside.get((order.power, order.at), placed.points[order.at])
    drawn.update(x=round(x, 1), y=round(y, 1))
    to, via = order.to, order.via
    if order.kind == "move" and to is not None and (order.at, to) in routes:
        drawn["pieces"] = _path_via(placed, [order.at, *routes[(order.at, to)], to])
        # one path of pieces: its arrowhead marks the last point, at the destination
        drawn["path"] = "".join(f"M{p['x1']},{p['y1']}L{p['x2']},{p['y2']}" for p in drawn["pieces"])
    elif order.kind in ("move", "retreat") and to is not None:
        drawn["line"] = _line(placed, order.at, to, origin)
    elif order.kind == "support" and via is not None and via in placed.points:
        vx, vy = placed.points[via]
        if to is not None and to != via:  # a supported move: the mark ends on the middle of its arrow
            tx, ty = placed.points[to]
            vx, vy = (vx + tx) / 2, (vy + ty) / 2
        drawn["line"] = _line(placed, order.at, via, origin, end_point=(vx, vy))
    return drawn


def _legend(m: Map, board: Board, palette: Mapping[str, str]) -> list[dict]:
    rows = []
    for name, info in m.powers.items():
        centres = len(board.centers.get(name, ()))
        partly = board.full_sight is not None and name not in board.full_sight
        units = len(board.units.get(name, ()))
        if board.standing is not None and not partly:  # a power seen in part is counted as seen
            units = board.standing.get(name, 0)
        if not centres and not units and name not in board.centers:
            continue
        outcome = board.outcome
        rows.append({"power": name, "name": info.display, "fill": palette[name], "ink": text_colour(palette[name]),
                     "centers": UNKNOWN_OWNER if partly else centres, "units": units, "partly": partly,
                     "built": outcome.built.get(name, 0) if outcome else 0,
                     "removed": outcome.removed.get(name, 0) if outcome else 0})
    return rows
