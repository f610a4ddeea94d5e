"""Retreat phases: the DATC 6.H retreat steps, and each retreat rule on its own."""
from __future__ import annotations

from pathlib import Path

import pytest

from judge.adjudicator.model import OrderResult, Position, Result
from judge.adjudicator.retreats import match_retreat, resolve_retreats
from judge.maps.loader import load_map
from judge.orders.model import Build, Convoy, Disband, Hold, Keep, Move, Retreat, Support, Waive
from judge.types import Phase, Unit, UnitType
from tests.adjudicator.datc_cases import load_cases

DATC = Path(__file__).parent / "datc"
A, F = UnitType.ARMY, UnitType.FLEET
S1901R = Phase("SPRING", 1901, "RETREATS")
BOUNCED = (Result.BOUNCE, Result.DESTROYED)


# --- reading the DATC tables' order text (the few forms retreat and adjustment steps use) -----------

def unit_of(text: str) -> Unit:
    kind, place = text.split()
    return Unit(UnitType(kind), place)


def read_order(power: str, text: str, retreat_phase: bool = False):
    """`A HOL - BEL` (a retreat in a retreat phase), `F HOL S F EDI - NTH`, `BUILD A KIE`, ..."""
    words = text.split()
    if words[0] in ("BUILD", "REMOVE", "KEEP"):
        kind = {"BUILD": Build, "REMOVE": Disband, "KEEP": Keep}[words[0]]
        return kind(power, unit_of(" ".join(words[1:3])))
    if words[0] == "WAIVE":
        return Waive(power)
    unit = unit_of(" ".join(words[:2]))
    rest = words[2:]
    if rest[0] == "-":
        return Retreat(power, unit, rest[1]) if retreat_phase else Move(power, unit, rest[1])
    if rest[0] in ("H", "HOLD"):
        return Hold(power, unit)
    if rest[0] in ("D", "DISBAND"):
        return Disband(power, unit)
    if rest[0] == "S":
        return Support(power, unit, unit_of(" ".join(rest[1:3])), rest[4] if len(rest) > 4 else None)
    if rest[0] == "C":
        return Convoy(power, unit, rest[2], rest[4])
    raise ValueError(f"cannot read {text!r}")


def result_key(result: OrderResult, adjustments: bool = False) -> str:
    """How the DATC tables name an order's result: the unit, or the adjustment order's text."""
    order = result.order
    if isinstance(order, Build):
        return f"BUILD {order.unit}"
    if isinstance(order, Waive):
        return "WAIVE"
    if isinstance(order, Disband) and adjustments:
        return f"REMOVE {order.unit}"
    return str(order.unit)


def units_of(listing: dict[str, list[str]]) -> dict[str, tuple[Unit, ...]]:
    return {p: tuple(sorted(unit_of(u) for u in us)) for p, us in listing.items()}


def retreat_steps():
    """(case id, position, orders, expected) for every DATC 6.H retreat step."""
    for case in load_cases(DATC):
        if not case.id.startswith("6.H"):
            continue
        for before, step in zip(case.steps, case.steps[1:]):
            if step.request["phase"].endswith("RETREATS"):
                yield pytest.param(before.expected, step, id=case.id)


@pytest.mark.parametrize("before, step", list(retreat_steps()))
def test_datc_6h_retreat_step(standard, before, step):
    dislodged = {p: {unit_of(u): tuple(places) for u, places in us.items()}
                 for p, us in before.get("dislodged", {}).items()}
    position = Position(S1901R, units_of(before["units"]), {}, dislodged)
    orders = {p: [read_order(p, text, retreat_phase=True) for text in texts]
              for p, texts in step.request["orders"].items()}
    resolution = resolve_retreats(standard, position, orders)
    got = {}
    for result in resolution.results:
        if result.note != "no order: disbanded":
            key = result_key(result)
            got[key if key not in got else key + " #2"] = [r.value for r in result.results]
    assert got == step.expected["results"]
    after = {p: tuple(sorted(us)) for p, us in resolution.units.items() if us or p in step.expected["units"]}
    assert after == {p: tuple(sorted(unit_of(u) for u in us)) for p, us in step.expected["units"].items()}
    assert resolution.dislodged == {}


# --- one rule at a time, on the standard map ------------------------------------------------------

def retreat_position(dislodged, units=None, centers=None):
    return Position(S1901R, units or {}, centers or {}, dislodged)


def test_a_retreat_to_a_listed_place_succeeds(standard):
    position = retreat_position({"TURKEY": {Unit(F, "GRE"): ("ALB", "BUL/SC")}})
    res = resolve_retreats(standard, position, {"TURKEY": [Retreat("TURKEY", Unit(F, "GRE"), "ALB")]})
    assert res.results == (OrderResult(Retreat("TURKEY", Unit(F, "GRE"), "ALB")),)
    assert res.units == {"TURKEY": (Unit(F, "ALB"),)}


def test_a_fleet_may_leave_out_the_only_listed_coast(standard):
    position = retreat_position({"TURKEY": {Unit(F, "GRE"): ("ALB", "BUL/SC")}})
    res = resolve_retreats(standard, position, {"TURKEY": [Retreat("TURKEY", Unit(F, "GRE"), "BUL")]})
    assert res.results[0].results == ()
    assert res.units == {"TURKEY": (Unit(F, "BUL/SC"),)}


def test_match_retreat_needs_a_coast_when_two_are_listed():
    assert match_retreat(Unit(F, "MAO"), "SPA", ("SPA/NC", "SPA/SC")) is None
    assert match_retreat(Unit(F, "MAO"), "SPA/SC", ("SPA/NC", "SPA/SC")) == "SPA/SC"
    assert match_retreat(Unit(A, "GAS"), "SPA/NC", ("SPA",)) == "SPA"


def test_a_retreat_to_an_unlisted_place_is_void_and_the_unit_destroyed(standard):
    position = retreat_position({"AUSTRIA": {Unit(F, "TRI"): ("ADR", "ALB")}})
    res = resolve_retreats(standard, position, {"AUSTRIA": [Retreat("AUSTRIA", Unit(F, "TRI"), "VEN")]})
    assert res.results[0].results == (Result.VOID, Result.DESTROYED)
    assert "VEN" in res.results[0].note
    assert res.units == {}


def test_two_retreats_to_one_province_destroy_both(standard):
    position = retreat_position({"AUSTRIA": {Unit(F, "TRI"): ("ADR", "ALB")},
                                 "TURKEY": {Unit(F, "GRE"): ("ALB", "BUL/SC")}})
    res = resolve_retreats(standard, position, {
        "AUSTRIA": [Retreat("AUSTRIA", Unit(F, "TRI"), "ALB")],
        "TURKEY": [Retreat("TURKEY", Unit(F, "GRE"), "ALB")]})
    assert [r.results for r in res.results] == [BOUNCED, BOUNCED]
    assert res.units == {}


def test_retreats_to_two_coasts_of_one_province_bounce(standard):
    position = retreat_position({"FRANCE": {Unit(F, "MAO"): ("SPA/NC",)},
                                 "ITALY": {Unit(F, "WES"): ("SPA/SC",)}})
    res = resolve_retreats(standard, position, {
        "FRANCE": [Retreat("FRANCE", Unit(F, "MAO"), "SPA/NC")],
        "ITALY": [Retreat("ITALY", Unit(F, "WES"), "SPA/SC")]})
    assert [r.results for r in res.results] == [BOUNCED, BOUNCED]


def test_a_disbanded_unit_is_gone(standard):
    position = retreat_position({"TURKEY": {Unit(F, "GRE"): ("ALB",)}}, {"TURKEY": (Unit(A, "CON"),)})
    res = resolve_retreats(standard, position, {"TURKEY": [Disband("TURKEY", Unit(F, "GRE"))]})
    assert res.results == (OrderResult(Disband("TURKEY", Unit(F, "GRE"))),)
    assert res.units == {"TURKEY": (Unit(A, "CON"),)}


def test_an_unordered_unit_of_a_power_that_ordered_others_is_disbanded(standard):
    position = retreat_position({"TURKEY": {Unit(F, "GRE"): ("ALB",), Unit(A, "BUL"): ("RUM",)}})
    res = resolve_retreats(standard, position, {"TURKEY": [Retreat("TURKEY", Unit(A, "BUL"), "RUM")]})
    assert res.units == {"TURKEY": (Unit(A, "RUM"),)}
    assert res.results[-1] == OrderResult(Disband("TURKEY", Unit(F, "GRE")), (Result.DESTROYED,),
                                          "no order: disbanded")


def test_a_power_with_no_orders_disbands_in_civil_disorder(standard):
    position = retreat_position({"TURKEY": {Unit(F, "GRE"): ("ALB", "BUL/SC")}})
    res = resolve_retreats(standard, position, {})
    assert res.results == (OrderResult(Disband("TURKEY", Unit(F, "GRE")), (), "civil disorder"),)
    assert res.units == {}


def test_cd_retreats_prefers_a_centre_and_never_two_units_to_one_place(standard):
    position = retreat_position({"TURKEY": {Unit(F, "GRE"): ("ALB", "BUL/SC"), Unit(A, "SER"): ("BUL", "ALB")}},
                                centers={"TURKEY": frozenset({"ANK", "CON", "SMY"})})
    res = resolve_retreats(standard, position, {}, frozenset({"CD_RETREATS"}))
    assert all(r.note == "civil disorder" and r.results == () for r in res.results)
    places = sorted(u.province for u in res.units["TURKEY"])
    assert places == ["ALB", "BUL"]
    again = resolve_retreats(standard, position, {}, frozenset({"CD_RETREATS"}))
    assert again.units == res.units  # seeded by the phase: the same answer every time


def test_cd_retreats_avoids_a_place_already_taken_by_its_own_unit(standard):
    position = retreat_position({"TURKEY": {Unit(F, "AEG"): ("GRE",), Unit(A, "ALB"): ("GRE",)}})
    res = resolve_retreats(standard, position, {}, frozenset({"CD_RETREATS"}))
    assert len(res.units["TURKEY"]) == 1
    assert sorted(type(r.order).__name__ for r in res.results) == ["Disband", "Retreat"]


def test_no_retreat_destroys_every_dislodged_unit(standard):
    position = retreat_position({"TURKEY": {Unit(F, "GRE"): ("ALB",)}})
    res = resolve_retreats(standard, position, {"TURKEY": [Retreat("TURKEY", Unit(F, "GRE"), "ALB")]},
                           frozenset({"NO_RETREAT"}))
    assert res.results[0].results == (Result.VOID, Result.DESTROYED)
    assert res.units == {}


def test_an_order_for_a_unit_that_was_not_dislodged_is_void(standard):
    position = retreat_position({}, {"ENGLAND": (Unit(F, "NTH"),)})
    res = resolve_retreats(standard, position, {"ENGLAND": [Retreat("ENGLAND", Unit(F, "NTH"), "NWG")]})
    assert res.results[0].results == (Result.VOID,)
    assert res.units == {"ENGLAND": (Unit(F, "NTH"),)}


def test_a_second_order_for_one_unit_is_void_and_the_first_stands(standard):
    position = retreat_position({"TURKEY": {Unit(F, "GRE"): ("ALB", "ION")}})
    first, second = Retreat("TURKEY", Unit(F, "GRE"), "ALB"), Retreat("TURKEY", Unit(F, "GRE"), "ION")
    res = resolve_retreats(standard, position, {"TURKEY": [first, second]})
    assert [r.results for r in res.results] == [(), (Result.VOID,)]
    assert res.units == {"TURKEY": (Unit(F, "ALB"),)}


def test_a_unit_with_no_retreat_is_simply_gone(standard):
    position = retreat_position({"ENGLAND": {Unit(F, "POR"): ()}})
    res = resolve_retreats(standard, position, {})
    assert res.results == () and res.units == {}


def test_centres_and_homes_pass_through(standard):
    centers = {"TURKEY": frozenset({"ANK"})}
    homes = {"TURKEY": frozenset({"ANK", "CON"})}
    position = Position(S1901R, {}, centers, {"TURKEY": {Unit(F, "GRE"): ("ALB",)}}, homes)
    res = resolve_retreats(standard, position, {})
    assert res.centers == centers and res.homes == homes


# --- the `*` (Cape) crossing: 1900 map, MAO *EGY *HEJ ------------------------------------------------

@pytest.fixture(scope="module")
def map1900():
    return load_map("1900")


def cape_orders(*pairs):
    return {f"P{i}": [Retreat(f"P{i}", Unit(F, src), dest)] for i, (src, dest) in enumerate(pairs)}


def cape_position(*pairs):
    return retreat_position({f"P{i}": {Unit(F, src): (dest,)} for i, (src, dest) in enumerate(pairs)})


def test_a_retreat_across_a_cape_alone_succeeds(map1900):
    res = resolve_retreats(map1900, cape_position(("EGY", "MAO")), cape_orders(("EGY", "MAO")))
    assert res.results[0].results == ()
    assert res.units == {"P0": (Unit(F, "MAO"),)}


def test_a_cape_retreat_loses_to_an_ordinary_one_which_succeeds(map1900):
    pairs = (("EGY", "MAO"), ("NAO", "MAO"))
    res = resolve_retreats(map1900, cape_position(*pairs), cape_orders(*pairs))
    assert [r.results for r in res.results] == [BOUNCED, ()]
    assert res.units == {"P1": (Unit(F, "MAO"),)}


def test_two_cape_retreats_to_one_place_both_fail(map1900):
    pairs = (("EGY", "MAO"), ("HEJ", "MAO"))
    res = resolve_retreats(map1900, cape_position(*pairs), cape_orders(*pairs))
    assert [r.results for r in res.results] == [BOUNCED, BOUNCED]
    assert res.units == {}


def test_a_cape_retreat_and_two_ordinary_ones_all_fail(map1900):
    pairs = (("EGY", "MAO"), ("NAO", "MAO"), ("IRI", "MAO"))
    res = resolve_retreats(map1900, cape_position(*pairs), cape_orders(*pairs))
    assert [r.results for r in res.results] == [BOUNCED, BOUNCED, BOUNCED]


def test_the_cape_rule_is_about_the_crossing_not_the_place(map1900):
    # Into Egypt from Mid-Atlantic is a Cape crossing; from the Eastern Mediterranean it is not.
    pairs = (("MAO", "EGY"), ("EAS", "EGY"))
    res = resolve_retreats(map1900, cape_position(*pairs), cape_orders(*pairs))
    assert [r.results for r in res.results] == [BOUNCED, ()]
