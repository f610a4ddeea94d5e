"""Adjustment phases on real maps: the DATC 6.I and 6.J tables, the build rules, removals, civil
disorder, and the adjustment count."""
from __future__ import annotations

from pathlib import Path

import pytest

from judge.adjudicator import resolve
from judge.adjudicator.adjustments import resolve_adjustments
from judge.adjudicator.builds import adjustment_counts, needs_adjustments
from judge.adjudicator.model import OrderResult, Position, Result
from judge.adjudicator.removals import distances, removal_order
from judge.maps.loader import load_map
from judge.orders.model import Build, Disband, Hold, Keep, Waive
from judge.types import Phase, Unit, UnitType
from tests.adjudicator.datc_cases import load_cases
from tests.adjudicator.test_retreats import read_order, result_key, units_of

DATC = Path(__file__).parent / "datc"
A, F = UnitType.ARMY, UnitType.FLEET
W1901A = Phase("WINTER", 1901, "ADJUSTMENTS")
VOID = (Result.VOID,)


def adjustment_steps():
    for case in load_cases(DATC):
        if case.id[:3] in ("6.I", "6.J"):
            yield pytest.param(case.steps[0], id=case.id)


@pytest.mark.parametrize("step", list(adjustment_steps()))
def test_datc_6i_6j_adjustment_step(standard, step):
    request = step.request
    year = int(request["phase"].split()[1])
    position = Position(Phase("WINTER", year, "ADJUSTMENTS"), units_of(request["units"]),
                        {p: frozenset(cs) for p, cs in request["centers"].items()})
    orders = {p: [read_order(p, text) for text in texts] for p, texts in request["orders"].items()}
    resolution = resolve(standard, position, orders)
    got: dict[str, list[str]] = {}
    for result in resolution.results:
        if result.note == "civil disorder":
            continue
        key, n = result_key(result, adjustments=True), 1
        while (key if n == 1 else f"{key} #{n}") in got:
            n += 1
        got[key if n == 1 else f"{key} #{n}"] = [r.value for r in result.results]
    assert got == step.expected["results"]
    assert {p: tuple(sorted(us)) for p, us in resolution.units.items() if us} == units_of(
        {p: us for p, us in step.expected["units"].items() if us})


# --- helpers -----------------------------------------------------------------------------------------

def adjust(m, units, centers, orders, rules=frozenset(), phase=W1901A, homes=None):
    position = Position(phase, {p: tuple(us) for p, us in units.items()},
                        {p: frozenset(cs) for p, cs in centers.items()}, homes=homes)
    return resolve_adjustments(m, position, orders, frozenset(rules))


def words(resolution):
    return [r.results for r in resolution.results]


GERMANY_3 = {"GERMANY": [Unit(A, "RUH")]}
GERMANY_HOMES = {"GERMANY": {"BER", "KIE", "MUN"}}


# --- builds ------------------------------------------------------------------------------------------

def test_build_in_an_open_owned_home(standard):
    res = adjust(standard, GERMANY_3, GERMANY_HOMES, {"GERMANY": [Build("GERMANY", Unit(F, "KIE"))]})
    assert res.results == (OrderResult(Build("GERMANY", Unit(F, "KIE"))),)
    assert res.units["GERMANY"] == (Unit(A, "RUH"), Unit(F, "KIE"))


def test_a_fleet_in_a_two_coast_centre_needs_its_coast(standard):
    russia = {"RUSSIA": [Unit(A, "WAR")]}
    owned = {"RUSSIA": {"STP", "WAR", "MOS"}}
    res = adjust(standard, russia, owned, {"RUSSIA": [Build("RUSSIA", Unit(F, "STP")),
                                                     Build("RUSSIA", Unit(F, "STP/NC"))]})
    assert words(res) == [VOID, ()]
    assert "needs a coast" in res.results[0].note
    assert Unit(F, "STP/NC") in res.units["RUSSIA"]


def test_an_army_is_not_built_on_a_coast(standard):
    res = adjust(standard, {"RUSSIA": []}, {"RUSSIA": {"STP"}}, {"RUSSIA": [Build("RUSSIA", Unit(A, "STP/NC"))]})
    assert words(res) == [VOID]


def test_waive_gives_up_one_build_and_a_waive_too_many_is_void(standard):
    orders = {"GERMANY": [Waive("GERMANY"), Build("GERMANY", Unit(A, "BER")), Waive("GERMANY"),
                          Waive("GERMANY")]}
    res = adjust(standard, GERMANY_3, GERMANY_HOMES, orders)
    assert words(res) == [(), (), VOID, VOID]
    assert res.units["GERMANY"] == (Unit(A, "RUH"), Unit(A, "BER"))  # a build comes last, as in DPjudge


def test_removals_are_void_while_builds_are_due(standard):
    res = adjust(standard, GERMANY_3, GERMANY_HOMES, {"GERMANY": [Disband("GERMANY", Unit(A, "RUH"))]})
    assert words(res) == [VOID]
    assert res.units["GERMANY"] == (Unit(A, "RUH"),)


def test_a_movement_order_is_void_in_an_adjustment_phase(standard):
    res = adjust(standard, GERMANY_3, GERMANY_HOMES, {"GERMANY": [Hold("GERMANY", Unit(A, "RUH"))]})
    assert words(res) == [VOID]


def test_orders_of_a_power_with_nothing_to_adjust_are_void(standard):
    res = adjust(standard, {"GERMANY": [Unit(A, "BER")]}, {"GERMANY": {"BER"}},
                 {"GERMANY": [Build("GERMANY", Unit(A, "KIE"))]})
    assert words(res) == [VOID]


def test_orders_for_a_power_the_map_lacks_are_void(standard):
    res = adjust(standard, {}, {}, {"ATLANTIS": [Waive("ATLANTIS")]})
    assert words(res) == [VOID]


@pytest.mark.parametrize("rules, site, ok", [
    ((), "WAR", False),
    (("BUILD_ANY",), "WAR", True),
    (("REMOTE_BUILDS",), "WAR", True),
    (("HOME_BUILDS",), "WAR", True),
    (("HOME_BUILDS",), "HOL", False),
    (("BUILD_ANY",), "HOL", True),
])
def test_build_site_rules(standard, rules, site, ok):
    owned = {"GERMANY": {"BER", "WAR", "HOL"}}
    res = adjust(standard, {"GERMANY": [Unit(A, "BER")]}, owned,
                 {"GERMANY": [Build("GERMANY", Unit(A, site))]}, rules)
    assert words(res) == [() if ok else VOID]


def test_remote_builds_needs_an_owned_home(standard):
    owned = {"GERMANY": {"WAR", "HOL"}}
    orders = {"GERMANY": [Build("GERMANY", Unit(A, "WAR"))]}
    assert words(adjust(standard, {"GERMANY": []}, owned, orders, {"REMOTE_BUILDS"})) == [VOID]
    assert words(adjust(standard, {"GERMANY": []}, owned, orders, {"BUILD_ANY"})) == [()]


def test_home_builds_and_remote_builds_together(standard):
    owned = {"GERMANY": {"KIE", "WAR", "HOL"}}
    orders = {"GERMANY": [Build("GERMANY", Unit(A, "WAR")), Build("GERMANY", Unit(A, "HOL"))]}
    res = adjust(standard, {"GERMANY": []}, owned, orders, {"HOME_BUILDS", "REMOTE_BUILDS"})
    assert words(res) == [(), VOID]


def test_chaos_map_builds_anywhere_owned():
    chaos = load_map("chaos")
    assert "BUILD_ANY" in chaos.rules
    power = next(p for p, info in chaos.powers.items() if info.homes)
    home = chaos.powers[power].homes[0]
    other = next(c for c in sorted(chaos.supply_centers) if c not in chaos.powers[power].homes
                 and chaos.locations[c].army_ok)
    res = adjust(chaos, {power: []}, {power: {home, other}}, {power: [Build(power, Unit(A, other))]},
                 chaos.rules)
    assert words(res) == [()]


def test_hide_builds_marks_every_build_hidden(standard):
    res = adjust(standard, GERMANY_3, GERMANY_HOMES, {"GERMANY": [Build("GERMANY", Unit(A, "BER"))]},
                 {"HIDE_BUILDS"})
    assert res.results[0].note == "hidden" and res.results[0].results == ()


# --- removals ----------------------------------------------------------------------------------------

FRANCE_4 = {"FRANCE": [Unit(A, "PAR"), Unit(A, "PIC"), Unit(F, "MAO"), Unit(A, "BUR")]}


def test_an_ordered_removal_and_the_rest_by_civil_disorder(standard):
    res = adjust(standard, FRANCE_4, {"FRANCE": {"PAR", "BRE"}}, {"FRANCE": [Disband("FRANCE", Unit(A, "PAR"))]})
    assert res.results[0] == OrderResult(Disband("FRANCE", Unit(A, "PAR")))
    cd = [r.order.unit for r in res.results if r.note == "civil disorder"]
    assert len(cd) == 1 and len(res.units["FRANCE"]) == 2


def test_a_removal_may_leave_out_the_coast(standard):
    res = adjust(standard, {"RUSSIA": [Unit(F, "STP/SC"), Unit(A, "MOS")]}, {"RUSSIA": {"MOS"}},
                 {"RUSSIA": [Disband("RUSSIA", Unit(F, "STP"))]})
    assert words(res) == [()] and res.units["RUSSIA"] == (Unit(A, "MOS"),)


def test_removing_another_powers_unit_is_void(standard):
    units = {"FRANCE": [Unit(A, "PAR"), Unit(A, "PIC")], "GERMANY": [Unit(A, "BUR")]}
    res = adjust(standard, units, {"FRANCE": {"PAR"}, "GERMANY": {"MUN"}},
                 {"FRANCE": [Disband("FRANCE", Unit(A, "BUR"))]})
    assert res.results[0].results == VOID
    assert res.units["GERMANY"] == (Unit(A, "BUR"),)


def test_keep_spares_a_unit_from_civil_disorder(standard):
    units = {"FRANCE": [Unit(A, "PAR"), Unit(A, "PIC"), Unit(A, "RUH")]}
    res = adjust(standard, units, {"FRANCE": {"PAR", "BRE"}}, {"FRANCE": [Keep("FRANCE", Unit(A, "RUH"))]})
    assert res.units["FRANCE"] == (Unit(A, "PAR"), Unit(A, "RUH"))
    assert res.results[0] == OrderResult(Keep("FRANCE", Unit(A, "RUH")))


def test_keep_gives_way_when_too_few_other_units_are_left(standard):
    units = {"FRANCE": [Unit(A, "PAR"), Unit(A, "RUH")]}
    res = adjust(standard, units, {"FRANCE": set()}, {"FRANCE": [Keep("FRANCE", Unit(A, "RUH"))]})
    assert res.units["FRANCE"] == ()
    assert res.results[0].results == VOID


def test_removal_order_prefers_units_off_centres_far_away_fleets_first(standard):
    units = [Unit(A, "MUN"), Unit(A, "SIL"), Unit(F, "BAL"), Unit(A, "UKR")]
    # Munich stands on a centre: last. The Baltic fleet is two from Warsaw, Silesia and Ukraine one.
    assert removal_order(standard, units, {"WAR"}) == [Unit(F, "BAL"), Unit(A, "SIL"), Unit(A, "UKR"),
                                                       Unit(A, "MUN")]


def test_distances_cross_land_and_water_alike(standard):
    d = distances(standard, {"NAP"})
    assert (d["NAP"], d["ION"], d["ALB"], d["PIE"]) == (0, 1, 2, 3)


# --- civil disorder builds ---------------------------------------------------------------------------

def test_a_power_with_no_orders_waives_its_builds(standard):
    res = adjust(standard, GERMANY_3, GERMANY_HOMES, {})
    germany = [r for r in res.results if r.order.power == "GERMANY"]
    assert [(type(r.order), r.note) for r in germany] == [(Waive, "civil disorder")] * 2
    assert res.units["GERMANY"] == (Unit(A, "RUH"),)


def test_cd_builds_builds_at_random_the_same_way_each_time(standard):
    res = adjust(standard, GERMANY_3, GERMANY_HOMES, {}, {"CD_BUILDS"})
    assert len(res.units["GERMANY"]) == 3
    assert len({u.province for u in res.units["GERMANY"]}) == 3
    assert res.units == adjust(standard, GERMANY_3, GERMANY_HOMES, {}, {"CD_BUILDS"}).units


def test_cd_builds_stops_at_the_open_sites(standard):
    units = {"GERMANY": [Unit(A, "BER"), Unit(A, "KIE")]}
    res = adjust(standard, units, {"GERMANY": {"BER", "KIE", "MUN", "HOL", "DEN"}}, {}, {"CD_BUILDS"})
    assert next(r.order for r in res.results if isinstance(r.order, Build)).unit == Unit(A, "MUN")
    assert len(res.results) == 1


# --- the count and whether a phase is needed ---------------------------------------------------------

def test_adjustment_counts(standard):
    units = {"FRANCE": (Unit(A, "PAR"), Unit(A, "PIC")), "GERMANY": (Unit(A, "BER"),)}
    centers = {"FRANCE": frozenset({"PAR"}), "GERMANY": frozenset({"BER", "KIE", "MUN"})}
    counts = adjustment_counts(standard, units, centers)
    assert (counts["FRANCE"], counts["GERMANY"], counts["ITALY"]) == (-1, 2, 0)


def test_needs_adjustments(standard):
    assert needs_adjustments(standard, {"FRANCE": (Unit(A, "PAR"), Unit(A, "PIC"))}, {"FRANCE": frozenset({"PAR"})})
    assert not needs_adjustments(standard, {"FRANCE": (Unit(A, "PAR"),)}, {"FRANCE": frozenset({"PAR"})})
    # a build is due, but every home it owns is occupied: nothing to do
    assert not needs_adjustments(standard, {"FRANCE": (Unit(A, "PAR"),), "GERMANY": (Unit(A, "BRE"),)},
                                 {"FRANCE": frozenset({"PAR", "BRE"}), "GERMANY": frozenset({"MUN"})})
    assert needs_adjustments(standard, {"FRANCE": (Unit(A, "PAR"),)}, {"FRANCE": frozenset({"PAR", "BRE"})})
