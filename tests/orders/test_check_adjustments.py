"""check_order in adjustment phases: where a power may build (rules.md: BUILD_ANY, HOME_BUILDS,
REMOTE_BUILDS; the map's factories, partisans and alternative homes), removals and KEEP."""
from __future__ import annotations

import pytest

from judge.orders import Build, Disband, Keep, Waive, check_order
from tests.support.maps import map_from_text
from tests.support.orders import SPRING, TINY, WINTER, position, unit, units

RUSSIA = {"RUSSIA": "MOS SEV STP WAR"}


def check(m, order, centers, rules=(), homes=None, **on_board):
    return check_order(m, order, position(WINTER, units(**on_board), centers, homes=homes), frozenset(rules))


def build(power, text):
    return Build(power, unit(text))


def test_build_in_an_owned_empty_home_centre(standard):
    assert check(standard, build("RUSSIA", "A MOS"), RUSSIA, RUSSIA="F SEV") is None


def test_6I3_build_in_an_occupied_centre(standard):
    assert check(standard, build("RUSSIA", "A MOS"), RUSSIA, RUSSIA="A MOS") == "Moscow is occupied"


def test_6I4_build_while_the_other_coast_is_occupied(standard):
    assert check(standard, build("RUSSIA", "F STP/NC"), RUSSIA, RUSSIA="F STP/SC") == "St Petersburg is occupied"


def test_6I5_build_in_a_home_centre_another_power_owns(standard):
    centers = {"GERMANY": "KIE MUN", "RUSSIA": "BER"}
    assert check(standard, build("GERMANY", "A BER"), centers) == "you do not own Berlin"


def test_6I6_build_in_an_owned_centre_that_is_not_a_home(standard):
    centers = {"GERMANY": "BER KIE MUN WAR"}
    assert check(standard, build("GERMANY", "A WAR"), centers) == "Warsaw is not one of your home centers"


def test_build_outside_any_supply_centre(standard):
    assert check(standard, build("FRANCE", "A BUR"), {"FRANCE": "PAR"}) == "Burgundy is not a supply center"


def test_6I2_fleet_built_inland(standard):
    assert check(standard, build("RUSSIA", "F MOS"), RUSSIA) == "a fleet cannot be built inland (Moscow)"


def test_6B14_fleet_built_without_the_coast(standard):
    reason = check(standard, build("RUSSIA", "F STP"), RUSSIA)
    assert reason == "a fleet built in St Petersburg must name a coast: STP/NC or STP/SC"


def test_army_built_on_a_coast(standard):
    reason = check(standard, build("RUSSIA", "A STP/NC"), RUSSIA)
    assert reason == "an army is built in a province, not on a coast: BUILD A STP"


def test_army_built_at_sea():
    m = map_from_text(TINY.replace("XLAND (XISH:X) ALP HOM", "XLAND (XISH:X) ALP HOM +NWA"))
    assert check(m, build("XLAND", "A NWA"), {"XLAND": "ALP HOM"}) == "an army cannot be built at sea (North Water)"


def test_build_on_a_place_not_on_the_map(standard):
    assert check(standard, build("FRANCE", "A XYZ"), {"FRANCE": "PAR"}) == "no such place 'XYZ'"


def test_build_any_allows_an_owned_non_home_centre(standard):
    assert check(standard, build("GERMANY", "A WAR"), {"GERMANY": "WAR"}, {"BUILD_ANY"}) is None


def test_home_builds_allows_another_power_s_home(standard):
    assert check(standard, build("GERMANY", "A WAR"), {"GERMANY": "WAR"}, {"HOME_BUILDS"}) is None


def test_home_builds_refuses_a_centre_that_is_nobody_s_home(standard):
    reason = check(standard, build("GERMANY", "A BEL"), {"GERMANY": "BEL"}, {"HOME_BUILDS"})
    assert reason == "Belgium is nobody's home center"


def test_remote_builds_without_a_home_centre(standard):
    reason = check(standard, build("GERMANY", "A WAR"), {"GERMANY": "WAR"}, {"REMOTE_BUILDS"})
    assert reason == "you own none of your home centers, so you may not build (REMOTE_BUILDS)"


def test_remote_builds_with_a_home_centre_builds_anywhere_owned(standard):
    assert check(standard, build("GERMANY", "A WAR"), {"GERMANY": "KIE WAR"}, {"REMOTE_BUILDS"}) is None


def test_homes_of_the_position_replace_the_map_s(standard):
    order = build("GERMANY", "A WAR")
    assert check(standard, order, {"GERMANY": "WAR"}, homes={"GERMANY": "WAR"}) is None


def features_map(power_line: str):
    return map_from_text(TINY.replace("XLAND (XISH:X) ALP HOM", power_line))


def test_factory_site():
    m = features_map("XLAND (XISH:X) ALP HOM +TYL")
    assert check(m, build("XLAND", "A TYL"), {"XLAND": "ALP HOM"}) is None


def test_factory_site_under_no_factories():
    m = features_map("XLAND (XISH:X) ALP HOM +TYL")
    assert check(m, build("XLAND", "A TYL"), {"XLAND": "ALP HOM"}, {"NO_FACTORIES"}) == \
        "Tyrolia is not a supply center"


@pytest.mark.parametrize("owned, reason", [
    ("ALP", None),
    ("ALP HOM", "Tyrolia is not a supply center"),
], ids=["some-homes-owned", "all-homes-owned"])
def test_partisan_site(owned, reason):
    m = features_map("XLAND (XISH:X) ALP HOM *TYL")
    assert check(m, build("XLAND", "A TYL"), {"XLAND": owned}) == reason


def test_alternative_home_centre():
    m = features_map("XLAND (XISH:X) ALP HOM @DEL")
    assert check(m, build("XLAND", "F DEL"), {"XLAND": "ALP HOM DEL"}) is None


def test_build_is_not_taken_in_a_movement_phase(standard):
    order = build("RUSSIA", "A MOS")
    assert check_order(standard, order, position(SPRING, {}, RUSSIA), frozenset()) == "not an adjustment phase"


def test_removal_of_an_own_unit(standard):
    assert check(standard, Disband("FRANCE", unit("A PAR")), {}, FRANCE="A PAR") is None


def test_removal_of_a_missing_unit(standard):
    assert check(standard, Disband("FRANCE", unit("A PAR")), {}, FRANCE="A MAR") == "no unit in Paris"


def test_keep_of_a_missing_unit(standard):
    assert check(standard, Keep("FRANCE", unit("F MAO")), {}, FRANCE="A PAR") == "no unit in Mid-Atlantic Ocean"


def test_waive_is_always_legal(standard):
    assert check(standard, Waive("FRANCE"), {}) is None
