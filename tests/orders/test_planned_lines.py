"""The plans of common movement lines (`parser._plan_line`, `_planned`) read every line as the full
reader does: the same order, or, when a plan does not fit, the same error from the full reader. Over
random lines (plain, aliased, with coasts, types left out or wrong, extra words) and random boards of
real maps, with the ordered and supported units sometimes someone else's, missing or sharing a
province."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from judge.errors import OrderError
from judge.maps.loader import load_map
from judge.orders.model import Convoy, Hold, Move, Support
from judge.orders.parser import OrderableUnits, OrderReader, _planned, _plan_line, movement_plans
from judge.types import MOVEMENT, Phase, Unit, UnitType

SPRING = Phase("SPRING", 1901, MOVEMENT)
MAPS = ("standard", "modern", "chaos", "ancmed")
A, F = UnitType.ARMY, UnitType.FLEET


@pytest.fixture(scope="module", params=MAPS)
def game_map(request):
    return load_map(request.param)


def _standing(m) -> list[Unit]:
    return [Unit(kind, loc) for loc in sorted(m.locations) for kind in (A, F) if m.can_stand(Unit(kind, loc))]


def _written(m, data, unit: Unit) -> str:
    """The unit as a player may write it: with or without (or with the wrong) type, by its
    abbreviation, a name of its place, its province or another coast."""
    names = [unit.location, unit.province, *m.coasts_of(unit.province),
             *[alias for alias, abbrevs in m.aliases.items() if unit.location in abbrevs][:3]]
    place = data.draw(st.sampled_from(names))
    kind = data.draw(st.sampled_from([unit.type.value, "", "A", "F", "army", "Fleet"]))
    return f"{kind} {place}".strip()


def _line(m, data, units: list[Unit]) -> str:
    unit, other = data.draw(st.sampled_from(units)), data.draw(st.sampled_from(units))
    mover = data.draw(st.sampled_from([unit, other]))  # (a support's destination is near the other)
    near = sorted(m.moves(mover.type, mover.location)) or sorted(m.locations)
    dest = data.draw(st.sampled_from(near) | st.sampled_from(sorted(m.locations)))
    dest_name = data.draw(st.sampled_from([dest, dest.split("/")[0], *m.coasts_of(dest.split("/")[0])]))
    to = data.draw(st.sampled_from(["-", "", "->", "to", "- -", "via"]))
    me, them = _written(m, data, unit), _written(m, data, other)
    line = data.draw(st.sampled_from([
        f"{me} H", f"{me} hold", f"{me} {to} {dest_name}", f"{me} S {them}", f"{me} S {them} H",
        f"{me} s {them} {to} {dest_name}", f"{me} C {them} {to} {dest_name}",
        f"{me} convoys {them} - {dest_name}", f"{me} - {dest_name} via convoy", f"{me}",
        f"{me} H H", f"{me} S", f"{me} - {dest_name} - {dest_name}", f"{them} proxy france",
    ]))
    return " ".join(line.split())


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_a_planned_line_reads_as_the_full_reader_reads_it(game_map, data):
    m = game_map
    units = _standing(m)
    powers = sorted(m.powers)
    board: dict[str, list[Unit]] = {p: [] for p in powers}
    for unit in data.draw(st.lists(st.sampled_from(units), min_size=1, max_size=12)):
        board[data.draw(st.sampled_from(powers))].append(unit)  # (two in a province at times)
    placed = [u for us in board.values() for u in us]
    power = data.draw(st.sampled_from(powers))
    rules = data.draw(st.sampled_from([frozenset(), frozenset({"NO_CHECK"}), frozenset({"ORDER_ANY"}),
                                       frozenset({"PORTAGE_CONVOY"}), frozenset({"PROXY_OK"})]))
    line = _line(m, data, placed + data.draw(st.lists(st.sampled_from(units), max_size=2)))
    read = OrderReader(m, rules).power_reader(power, SPRING, OrderableUnits(board))
    full = read.__self__.read_in_full
    assert _outcome(read, line) == _outcome(full, line), line


def _outcome(read, line: str):
    try:
        return read(line)
    except OrderError as exc:
        return str(exc)


def test_the_common_lines_are_planned_and_read_by_their_plan():
    m = load_map("standard")
    board = OrderableUnits({"ENGLAND": [Unit(F, "NTH"), Unit(A, "LON"), Unit(F, "EDI")],
                            "FRANCE": [Unit(A, "PAR"), Unit(F, "SPA/NC")]})
    line = OrderReader(m).power_reader("ENGLAND", SPRING, board).__self__
    lon, nth, edi = Unit(A, "LON"), Unit(F, "NTH"), Unit(F, "EDI")
    expected = {
        "A LON H": Hold("ENGLAND", lon),
        "a lon - bel": Move("ENGLAND", lon, "BEL"),
        "LON YOR": Move("ENGLAND", lon, "YOR"),
        "F EDI - NWG": Move("ENGLAND", edi, "NWG"),
        "F NTH S A LON - BEL": Support("ENGLAND", nth, lon, "BEL"),
        "F EDI S F NTH": Support("ENGLAND", edi, nth),
        "F NTH S A PAR - PIC": Support("ENGLAND", nth, Unit(A, "PAR"), "PIC"),
        "F NTH C A LON - BEL": Convoy("ENGLAND", nth, "LON", "BEL"),
        "F NTH S A PAR - SPA/NC": Support("ENGLAND", nth, Unit(A, "PAR"), "SPA"),  # an army: no coast
        "F NTH S F SPA/NC - POR": Support("ENGLAND", nth, Unit(F, "SPA/NC"), "POR"),
    }
    for text, order in expected.items():
        plan = _plan_line(m, line.index, text)
        assert plan is not None, text
        assert _planned(line, plan) == order, text
        assert line.read(text) == order == line.read_in_full(text)
    assert movement_plans(m)["a lon - bel"] is not None  # kept for the next phase


def test_lines_a_plan_does_not_fit_are_read_in_full():
    m = load_map("standard")
    board = OrderableUnits({"FRANCE": [Unit(F, "MAO"), Unit(A, "PAR")], "ITALY": [Unit(A, "PIE")]})
    line = OrderReader(m).power_reader("FRANCE", SPRING, board).__self__
    # A fleet moving where it must reach one coast of two: the full reader picks the coast.
    plan = _plan_line(m, line.index, "F MAO - SPA")
    assert plan is not None and _planned(line, plan) is None
    with pytest.raises(OrderError, match="must name a coast"):
        line.read("F MAO - SPA")
    # Another power's unit, a unit that is not there: the full reader's errors.
    with pytest.raises(OrderError, match="not yours"):
        line.read("A PIE - MAR")
    with pytest.raises(OrderError, match="no unit in"):
        line.read("A MUN H")
    assert _plan_line(m, line.index, "A PAR - BUR VIA CONVOY") is None
    assert _plan_line(m, line.index, "A PAR PROXY ITALY") is None
