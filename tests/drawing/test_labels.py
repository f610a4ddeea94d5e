"""Every province's name shows: no unit, centre or other name covers it at a map's start, and on a
busy board the orders' lines, rings and crosses move a name aside rather than cover it."""
from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from judge.drawing import board_of_results
from judge.drawing.labels import Box, around, text_box
from judge.drawing.svg import CENTRE_RADIUS
from tests.drawing.test_svg import _draw
from tests.support.adjudications import play
from tests.support.drawing import SVG, parts, start_svg

MAPS = Path(__file__).resolve().parents[2] / "maps"
# Youngstown's Europe is the standard board's at a third of the width: a few names there find no
# spot that is free of every unit and centre, and take the least covered one
CROWDED = {"youngstown": 8}


def labels(svg: str) -> dict[str, Box]:
    return {t.get("data-place"): text_box((float(t.get("x")), float(t.get("y"))), t.text or "")
            for t in parts(svg, "label")}


def drawn_units(svg: str) -> list[Box]:
    """Units, and those a results picture draws faded where they stood."""
    boxes = []
    for unit in parts(svg, "unit") + parts(svg, "ghost"):
        shape = unit.find(f"{SVG}circle")
        if shape is not None:
            boxes.append(around((float(shape.get("cx")), float(shape.get("cy"))), float(shape.get("r")) + 0.7))
            continue
        xs, ys = [], []  # a hull: M x,y H x L x,y H x Z
        for _command, numbers in re.findall(r"([MLH])([-\d.,]+)", unit.find(f"{SVG}path").get("d")):
            values = [float(n) for n in numbers.split(",")]
            xs.append(values[0])
            ys.extend(values[1:])
        boxes.append(Box(min(xs) - 0.7, min(ys) - 0.7, max(xs) + 0.7, max(ys) + 0.7))
    return boxes


def covered(svg: str) -> list[str]:
    names = labels(svg)
    things = drawn_units(svg) + [around((float(c.get("cx")), float(c.get("cy"))), CENTRE_RADIUS)
                                 for c in parts(svg, "center")]
    hidden = [name for name, box in names.items() if any(box.meets(t) for t in things)]
    hidden += [f"{a}/{b}" for (a, x), (b, y) in itertools.combinations(sorted(names.items()), 2) if x.meets(y)]
    return hidden


@pytest.mark.parametrize("name", sorted(p.stem for p in MAPS.glob("*.map")))
def test_no_name_is_covered_at_a_maps_start(name):
    _, svg = start_svg(name)
    assert len(covered(svg)) <= CROWDED.get(name, 0), covered(svg)


def test_the_orders_of_a_busy_board_cover_no_name_that_could_stand_aside():
    from judge.maps import load_map, map_for_phase
    base = load_map("standard")
    standard = map_for_phase(base, base.begin)
    _, resolution = play(standard, "F1901M", {
        "ENGLAND": ["A LON", "F NTH", "F ENG", "A YOR"], "FRANCE": ["F BEL", "A PIC"], "GERMANY": ["A HOL"],
        "TURKEY": ["A SMY", "F AEG", "F ION"], "ITALY": ["A APU", "A VEN"], "AUSTRIA": ["A TRI", "A VIE"],
    }, {
        "ENGLAND": ["A LON-BEL", "F NTH C A LON-BEL", "F ENG S A LON-BEL", "A YOR-LON"],
        "FRANCE": ["F BEL H", "A PIC S F BEL"], "TURKEY": ["A SMY-APU", "F AEG C A SMY-APU", "F ION C A SMY-APU"],
        "ITALY": ["A APU H", "A VEN-TRI"], "AUSTRIA": ["A TRI H", "A VIE S A TRI"],
    })
    svg = _draw(standard, board_of_results("g", resolution))
    assert covered(svg) == []
    crossed = []
    for line in parts(svg, "order"):
        if line.tag == f"{SVG}line":
            ends = ((float(line.get("x1")), float(line.get("y1"))), (float(line.get("x2")), float(line.get("y2"))))
            crossed += [name for name, box in labels(svg).items() if box.crossed_by(*ends)]
    # the names the arrows passed over at their usual spot (Nth, Apu...) stand aside; Lon, boxed in
    # by its own unit, its centre and three orders' lines, is the one left crossed
    assert crossed == [] or crossed == ["LON"]
