"""Reading a drawn board back: the parts of an SVG picture by class, with their data-* attributes,
and the maps a picture is drawn for in the tests."""
from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from judge.adjudicator.model import Position
from judge.drawing import board_of_position, draw_svg
from judge.drawing.geometry import fitted
from judge.drawing.loader import read_geometry
from judge.mailout.render import environment
from judge.maps import load_map, map_for_phase

SVG = "{http://www.w3.org/2000/svg}"
CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "dpjudge-maps"


def parts(svg: str, cls: str) -> list[ET.Element]:
    """Every element whose class list holds `cls`."""
    root = ET.fromstring(svg)
    return [e for e in root.iter() if cls in e.get("class", "").split()]


def start_svg(name_or_path: str, search=()) -> tuple[object, str]:
    """A map at its BEGIN phase, drawn with its drawing data (or schematically)."""
    base = load_map(name_or_path, search)
    m = map_for_phase(base, base.begin)
    units = {p: info.units for p, info in m.powers.items()}
    centers = {p: frozenset(info.centers) for p, info in m.powers.items() if info.centers}
    geometry, _, _ = read_geometry(m)
    board = board_of_position("test", Position(m.begin, units, centers))
    return m, draw_svg(environment(), m, fitted(m, geometry), board)
