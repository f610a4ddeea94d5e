"""A drawn board read back as structure: each unit, centre and order drawn once, in the right place
and colour; failed orders told from successful ones; dislodged units with their retreats."""
from __future__ import annotations

import math

import pytest

from judge.drawing import board_of_position, board_of_results, draw_svg
from judge.drawing.geometry import fitted
from judge.drawing.loader import read_geometry
from judge.drawing.svg import LAND, colours, place, tinted
from judge.mailout.render import environment
from judge.maps import load_map, map_for_phase
from tests.support.adjudications import play
from tests.support.drawing import parts, start_svg


@pytest.fixture(scope="module")
def standard():
    base = load_map("standard")
    return map_for_phase(base, base.begin)


def _draw(m, board) -> str:
    geometry, _, _ = read_geometry(m)
    return draw_svg(environment(), m, fitted(m, geometry), board)


def _near(element, point, tolerance=0.6) -> bool:
    found = element.find("{http://www.w3.org/2000/svg}circle")
    if found is None:
        found = element
    x = float(found.get("cx", found.get("x1", "nan")))
    y = float(found.get("cy", found.get("y1", "nan")))
    return math.hypot(x - point[0], y - point[1]) < tolerance


def test_the_standard_start_draws_each_unit_once_in_its_colour_and_place(standard):
    m, svg = start_svg("standard")
    placed = place(m, fitted(m, read_geometry(m)[0]))
    palette = colours(m)
    units = parts(svg, "unit")
    drawn = sorted((u.get("data-power"), u.get("data-type"), u.get("data-place")) for u in units)
    expected = sorted((p, u.type.value, u.location) for p, info in m.powers.items() for u in info.units)
    assert drawn == expected and len(drawn) == 22
    for element in units:
        shape = element[0]
        assert shape.get("fill") == palette[element.get("data-power")]
        if element.get("data-type") == "A":
            assert _near(element, placed.points[element.get("data-place")])
    assert {e.get("data-type") for e in units} == {"A", "F"}
    assert [e[0].tag.split("}")[1] for e in units if e.get("data-type") == "F"][0] == "path"


def test_each_centre_is_drawn_once_in_its_owners_colour(standard):
    m, svg = start_svg("standard")
    palette = colours(m)
    centres = parts(svg, "center")
    assert sorted(c.get("data-place") for c in centres) == sorted(m.supply_centers)
    owner = {c: p for p, info in m.powers.items() for c in info.centers}
    for centre in centres:
        place_ = centre.get("data-place")
        assert centre.get("data-owner") == owner.get(place_, "")
        assert centre.get("fill") == (palette[owner[place_]] if place_ in owner else "#ffffff")


def test_regions_are_land_sea_and_impassable_with_every_name(standard):
    m, svg = start_svg("standard")
    kinds = {r.get("data-place"): r.get("class").split()[1] for r in parts(svg, "region")}
    assert kinds["NTH"] == "sea" and kinds["PAR"] == "land" and kinds["SWI"] == "shut"
    assert set(kinds) == {a for a in m.locations if "/" not in a}
    assert sorted(t.get("data-place") for t in parts(svg, "label")) == sorted(kinds)


def test_an_owned_province_is_one_shape_tinted_with_its_owners_colour(standard):
    m, svg = start_svg("standard")
    regions = {r.get("data-place"): r for r in parts(svg, "region")}
    assert regions["PAR"].get("data-owner") == "FRANCE"
    assert regions["PAR"].get("fill") == tinted(LAND, colours(m)["FRANCE"])
    assert regions["BUR"].get("data-owner") is None and regions["BUR"].get("fill") == LAND
    assert "fill-opacity" not in svg  # nothing translucent laid over the board


def test_the_legend_counts_centres_and_units(standard):
    _, svg = start_svg("standard")
    legend = {e.get("data-power"): (e.get("data-centers"), e.get("data-units")) for e in parts(svg, "legend-power")}
    assert legend["RUSSIA"] == ("4", "4") and legend["FRANCE"] == ("3", "3") and len(legend) == 7


def test_a_processed_phase_draws_every_order_once_with_its_outcome(standard):
    _, resolution = play(standard, "S1901M", {
        "FRANCE": ["A PAR", "A MAR", "F BRE"],
        "GERMANY": ["A MUN", "F KIE"],
        "ENGLAND": ["F LON", "A YOR"],
        "ITALY": ["A VEN"],
    }, {
        "FRANCE": ["A PAR-BUR", "A MAR S A PAR-BUR", "F BRE H"],
        "GERMANY": ["A MUN-BUR", "F KIE-HOL"],
        "ENGLAND": ["F LON-NTH", "A YOR-LON"],
    })
    svg = _draw(standard, board_of_results("g", resolution))
    orders = {(o.get("data-at"), o.get("class").split()[1]): o for o in parts(svg, "order")}
    assert len(orders) == len(parts(svg, "order")) == len(resolution.results)
    assert "succeeded" in orders[("PAR", "move")].get("class")
    assert "failed" in orders[("MUN", "move")].get("class")
    assert orders[("MUN", "move")].get("stroke-dasharray")
    assert orders[("MAR", "support")].get("data-via") == "PAR" and orders[("MAR", "support")].get("data-to") == "BUR"
    assert orders[("BRE", "hold")] is not None and orders[("VEN", "hold")] is not None  # unordered: holds
    assert orders[("PAR", "move")].get("data-to") == "BUR"


def test_convoys_and_dislodged_units_with_their_retreats(standard):
    _, resolution = play(standard, "F1901M", {
        "ENGLAND": ["A LON", "F NTH", "F ENG"],
        "FRANCE": ["F BEL"],
        "GERMANY": ["A HOL"],
    }, {
        "ENGLAND": ["A LON-BEL", "F NTH C A LON-BEL", "F ENG S A LON-BEL"],
        "FRANCE": ["F BEL H"],
    })
    svg = _draw(standard, board_of_results("g", resolution))
    convoy = [o for o in parts(svg, "convoy")]
    assert len(convoy) == 1 and convoy[0].get("data-via") == "LON" and "succeeded" in convoy[0].get("class")
    dislodged = parts(svg, "dislodged")
    assert [(d.get("data-power"), d.get("data-place")) for d in dislodged if d.get("data-power")] == [("FRANCE", "BEL")]
    standing = [u.get("data-place") for u in parts(svg, "unit") if "dislodged" not in u.get("class")]
    assert standing.count("BEL") == 1 and "LON" not in standing  # the army that took it, the fleet beside
    retreats = sorted(r.get("data-to") for r in parts(svg, "retreat-option"))
    assert retreats == sorted(resolution.dislodged["FRANCE"][next(iter(resolution.dislodged["FRANCE"]))])
    assert "failed" in [o for o in parts(svg, "hold") if o.get("data-at") == "BEL"][0].get("class")


def test_retreat_and_adjustment_phases_draw_their_orders(standard):
    dislodged = {"FRANCE": {"F BEL": ["PIC", "ENG"]}}
    _, resolution = play(standard, "F1901R", {"ENGLAND": ["A BEL"]}, {"FRANCE": ["F BEL-PIC"]},
                         dislodged=dislodged)
    svg = _draw(standard, board_of_results("g", resolution))
    [retreat] = parts(svg, "retreat")
    assert retreat.get("data-at") == "BEL" and retreat.get("data-to") == "PIC" and "succeeded" in retreat.get("class")
    assert not [u for u in parts(svg, "unit") if "dislodged" in u.get("class")]  # retreated: none left
    assert sorted(u.get("data-place") for u in parts(svg, "unit")) == ["BEL", "PIC"]
    assert [u.get("data-place") for u in parts(svg, "ghost")] == ["BEL"]

    _, resolution = play(standard, "W1901A", {"FRANCE": ["A PAR"], "GERMANY": ["A MUN", "A BER"]},
                         {"FRANCE": ["BUILD F BRE"], "GERMANY": ["REMOVE A MUN"]},
                         centers={"FRANCE": ["PAR", "BRE"], "GERMANY": ["BER"]})
    svg = _draw(standard, board_of_results("g", resolution))
    assert [o.get("data-at") for o in parts(svg, "build")] == ["BRE"]
    assert [o.get("data-at") for o in parts(svg, "disband")] == ["MUN"]
    assert sorted(u.get("data-place") for u in parts(svg, "unit")) == ["BER", "BRE", "PAR"]
    assert [u.get("data-place") for u in parts(svg, "ghost")] == ["MUN"]  # removed: faded, crossed


def test_the_title_names_game_and_phase_and_a_schematic_layout_says_so(standard):
    board = board_of_position("mygame", _start(standard))
    svg = _draw(standard, board)
    assert "mygame: Spring 1901 Movement" in svg and not parts(svg, "schematic")
    schematic_svg = draw_svg(environment(), standard, fitted(standard, None), board)
    assert len(parts(schematic_svg, "schematic")) == 1


def test_names_are_escaped(standard):
    svg = _draw(standard, board_of_position("a<b&c", _start(standard)))
    assert "a&lt;b&amp;c" in svg


def _start(m):
    from judge.adjudicator.model import Position
    return Position(m.begin, {p: info.units for p, info in m.powers.items()},
                    {p: frozenset(info.centers) for p, info in m.powers.items()})


def test_a_filtered_position_draws_only_what_its_reader_sees(standard):
    from judge.adjudicator.model import Position
    from judge.drawing.pictures import seen_picture
    from judge.types import Unit, UnitType

    seen = Position(standard.begin, {"FRANCE": (Unit(UnitType.ARMY, "PAR"),), "GERMANY": (Unit(UnitType.ARMY, "MUN"),)},
                    {"FRANCE": frozenset({"PAR"})})
    svg = seen_picture(environment(), standard, read_geometry(standard)[0], "blind", seen,
                       frozenset({"FRANCE"})).svg
    assert sorted(u.get("data-place") for u in parts(svg, "unit")) == ["MUN", "PAR"]
    owners = {c.get("data-place"): c.get("data-owner") for c in parts(svg, "center")}
    assert owners["PAR"] == "FRANCE" and set(owners.values()) == {"FRANCE", "?"}  # the rest unknown
    assert "Germany: 1 unit seen" in svg


def _legend_units(svg: str) -> dict[str, str]:
    return {e.get("data-power"): e.get("data-units") for e in parts(svg, "legend-power")}


def test_the_legend_of_a_processed_phase_counts_the_units_after_it(standard):
    _, resolution = play(standard, "W1901A", {"FRANCE": ["A PAR"], "TURKEY": ["A CON", "A SMY"]},
                         {"FRANCE": ["BUILD F BRE"], "TURKEY": ["REMOVE A SMY"]},
                         centers={"FRANCE": ["PAR", "BRE"], "TURKEY": ["CON"]})
    svg = _draw(standard, board_of_results("g", resolution))
    assert [o.get("data-at") for o in parts(svg, "disband")] == ["SMY"]  # the removed unit is drawn, crossed
    assert (_legend_units(svg)["FRANCE"], _legend_units(svg)["TURKEY"]) == ("2", "1")
    assert "Turkey: 1 centre, 1 unit (1 removed)" in svg and "France: 2 centres, 2 units (1 built)" in svg
    built = {e.get("data-power"): (e.get("data-built"), e.get("data-removed")) for e in parts(svg, "legend-power")}
    assert built["FRANCE"] == ("1", None) and built["TURKEY"] == (None, "1")

    dislodged = {"FRANCE": {"F BEL": ["PIC", "ENG"]}}
    _, resolution = play(standard, "F1901R", {"ENGLAND": ["A BEL"], "FRANCE": ["A PAR"]},
                         {"FRANCE": ["F BEL-PIC"]}, dislodged=dislodged)
    assert _legend_units(_draw(standard, board_of_results("g", resolution)))["FRANCE"] == "2"


def test_a_convoyed_army_is_drawn_through_its_fleets_and_each_convoy_shows(standard):
    _, resolution = play(standard, "F1901M", {"TURKEY": ["A SMY", "F AEG", "F ION"], "ITALY": ["A APU"]},
                         {"TURKEY": ["A SMY-APU", "F ION C A SMY-APU", "F AEG C A SMY-APU"]})
    svg = _draw(standard, board_of_results("g", resolution))
    placed = place(standard, fitted(standard, read_geometry(standard)[0]))
    [move] = [o for o in parts(svg, "move") if o.get("data-at") == "SMY"]
    pieces = [[tuple(map(float, xy.split(","))) for xy in piece.split("L")] for piece in move.get("d").split("M")[1:]]
    ends = [(start, end) for start, end in pieces]
    way = ["SMY", "AEG", "ION", "APU"]  # the army's way, whatever order the convoys were given in
    for (start, end), here, there in zip(ends, way, way[1:]):
        assert math.dist(start, placed.points[here]) < math.dist(start, placed.points[there])
        assert math.dist(end, placed.points[there]) < math.dist(end, placed.points[here])
        assert min(math.dist(start, placed.points[here]), math.dist(end, placed.points[there])) > 9  # no unit covered
    rings = {o.get("data-at"): o for o in parts(svg, "convoy")}
    assert set(rings) == {"AEG", "ION"}
    assert all(_near(rings[f], placed.points[f]) for f in rings)


def _placed_units(svg: str, cls: str) -> list[tuple[str, str, str]]:
    return sorted((u.get("data-power"), u.get("data-type"), u.get("data-place")) for u in parts(svg, cls)
                  if "dislodged" not in u.get("class"))


def _as_drawn(units) -> list[tuple[str, str, str]]:
    return sorted((p, u.type.value, u.location) for p, us in units.items() for u in us)


BUSY_SPRING = ({
    "FRANCE": ["A PAR", "A MAR", "F BRE"], "GERMANY": ["A MUN", "F KIE", "A BER"],
    "ENGLAND": ["F LON", "A YOR"], "ITALY": ["A VEN", "A ROM"], "AUSTRIA": ["A TYR"],
}, {
    "FRANCE": ["A PAR-BUR", "A MAR S A PAR-BUR", "F BRE-MAO"],
    "GERMANY": ["A MUN-BUR", "F KIE-HOL", "A BER-KIE"],
    "ENGLAND": ["F LON-NTH", "A YOR-LON"], "ITALY": ["A VEN-TYR", "A ROM-VEN"],
    "AUSTRIA": ["A TYR-VEN"],
})


def test_a_results_picture_draws_the_units_where_the_results_leave_them(standard):
    position, resolution = play(standard, "S1901M", *BUSY_SPRING)
    svg = _draw(standard, board_of_results("g", resolution))
    assert _placed_units(svg, "unit") == _as_drawn(resolution.units)
    # where units stood and stand no more: faded, beside the place when another stands on it now
    moved = {(p, u.type.value, u.location) for p, us in position.units.items() for u in us} - set(
        _as_drawn(resolution.units))
    assert set(_placed_units(svg, "ghost")) == moved
    ghosts = {g.get("data-place"): g for g in parts(svg, "ghost")}
    placed = place(standard, fitted(standard, read_geometry(standard)[0]))
    assert _near(ghosts["PAR"], placed.points["PAR"])  # Paris left empty
    assert not _near(ghosts["KIE"], placed.points["KIE"], tolerance=5)  # Berlin's army stands there now
    assert "Faded units: where units stood before the phase." in svg


def test_a_results_picture_with_a_dislodgement_draws_the_dislodged_unit_and_its_orders_beside(standard):
    _, resolution = play(standard, "S1901M", {"GERMANY": ["A MUN", "A RUH"], "FRANCE": ["A BUR"]},
                         {"GERMANY": ["A MUN-BUR", "A RUH S A MUN-BUR"], "FRANCE": ["A BUR H"]})
    svg = _draw(standard, board_of_results("g", resolution))
    assert _placed_units(svg, "unit") == [("GERMANY", "A", "BUR"), ("GERMANY", "A", "RUH")]
    [dislodged] = [u for u in parts(svg, "unit") if "dislodged" in u.get("class")]
    [hold] = [o for o in parts(svg, "hold") if o.get("data-at") == "BUR"]
    assert dislodged.get("data-power") == "FRANCE" and "failed" in hold.get("class")
    ring, unit = hold, dislodged.find("{http://www.w3.org/2000/svg}circle")
    assert (ring.get("cx"), ring.get("cy")) == (unit.get("cx"), unit.get("cy"))  # the ring on the unit it was


def test_a_position_and_a_blind_readers_results_draw_no_faded_units(standard):
    from dataclasses import replace

    position, resolution = play(standard, "S1901M", *BUSY_SPRING)
    assert not parts(_draw(standard, board_of_position("g", position)), "ghost")
    before = replace(board_of_results("g", resolution), outcome=None)  # what a BLIND reader is given
    svg = _draw(standard, before)
    assert not parts(svg, "ghost") and _placed_units(svg, "unit") == _as_drawn(position.units)
