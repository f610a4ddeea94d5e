"""Movement orders as players write them (spec/order-format.md), read on the standard map."""
from __future__ import annotations

import pytest

from judge.orders import Convoy, Hold, Move, Support, parse_order
from tests.support.orders import SPRING, unit, units

SPEC_UNITS = units(ENGLAND="F NWG, A NWY, A WAL, F LON, F IRI, A YOR", FRANCE="F MAO, A PAR")


@pytest.mark.parametrize("power, text, expected", [
    ("FRANCE", "paris H", "A PAR H"),
    ("ENGLAND", "fleet nwg sea C norway - edi", "F NWG C A NWY - EDI"),
    ("ENGLAND", "Army Wales support fleet london", "A WAL S F LON"),
    ("ENGLAND", "irish -mid", "F IRI - MAO"),
    ("FRANCE", "F mao -> iri", "F MAO - IRI"),
    ("ENGLAND", "army yonkers move london", "A YOR - LON"),
], ids=["paris-h", "fleet-nwg-sea-convoy", "army-wales-support-fleet-london", "irish-dash-mid", "arrow",
        "yonkers-move-london"])
def test_examples_of_the_order_format_page(standard, power, text, expected):
    assert str(parse_order(standard, power, text, SPRING, SPEC_UNITS)) == expected


def test_example_army_london_holds(standard):
    order = parse_order(standard, "ENGLAND", "Army London Holds", SPRING, units(ENGLAND="A LON"))
    assert order == Hold("ENGLAND", unit("A LON"))


def test_support_of_a_move_with_the_dash_left_out(standard):
    order = parse_order(standard, "ENGLAND", "f wal s mao iri", SPRING, units(ENGLAND="F WAL, F MAO"))
    assert order == Support("ENGLAND", unit("F WAL"), unit("F MAO"), "IRI")


@pytest.mark.parametrize("text", [
    "A PAR - BUR", "A PAR -> BUR", "A PAR M BUR", "A PAR MOVE BUR", "A PAR MOVES TO BUR", "A PAR TO BUR",
    "A PAR BUR", "PAR - BUR", "Army Paris - Burgundy", "a par-bur", "  A   PAR  -   BUR  ", "A PAR - BUR.",
    "A PAR \u2013 BUR", "A PAR ATTACKS BUR",
], ids=["dash", "arrow", "M", "MOVE", "MOVES-TO", "TO", "no-verb", "no-type", "full-names", "lower-no-spaces",
        "extra-spaces", "trailing-dot", "en-dash", "ATTACKS"])
def test_move_forms(standard, start, text):
    assert parse_order(standard, "FRANCE", text, SPRING, start) == Move("FRANCE", unit("A PAR"), "BUR")


@pytest.mark.parametrize("text", ["A PAR H", "A PAR HOLD", "A PAR HOLDS", "PAR H", "Army Paris holds."],
                         ids=["H", "HOLD", "HOLDS", "no-type", "sentence"])
def test_hold_forms(standard, start, text):
    assert parse_order(standard, "FRANCE", text, SPRING, start) == Hold("FRANCE", unit("A PAR"))


@pytest.mark.parametrize("text", ["A PAR S A MAR", "A PAR S A MAR H", "A PAR SUPPORT A MAR HOLD",
                                  "A PAR S MAR", "A PAR SUPPORTS ARMY MARSEILLES"],
                         ids=["S", "S-H", "SUPPORT-HOLD", "no-type", "words"])
def test_support_to_hold_forms(standard, start, text):
    assert parse_order(standard, "FRANCE", text, SPRING, start) == Support("FRANCE", unit("A PAR"), unit("A MAR"))


@pytest.mark.parametrize("text", ["A PAR S A MAR - BUR", "A PAR S MAR BUR", "A PAR SUPPORT A MAR TO BUR",
                                  "A PAR S A MAR -> BUR"],
                         ids=["S-dash", "no-type-no-dash", "SUPPORT-TO", "arrow"])
def test_support_to_move_forms(standard, start, text):
    expected = Support("FRANCE", unit("A PAR"), unit("A MAR"), "BUR")
    assert parse_order(standard, "FRANCE", text, SPRING, start) == expected


@pytest.mark.parametrize("text", ["F ENG C A LON - BEL", "F ENG CONVOY LON TO BEL", "ENG C LON BEL",
                                  "Fleet English Channel convoys army London - Belgium"],
                         ids=["C", "CONVOY-TO", "short", "sentence"])
def test_convoy_forms(standard, text):
    given = units(ENGLAND="F ENG, A LON")
    expected = Convoy("ENGLAND", unit("F ENG"), "LON", "BEL")
    assert parse_order(standard, "ENGLAND", text, SPRING, given) == expected


def test_convoyed_move_with_its_full_path(standard):
    order = parse_order(standard, "TURKEY", "A BUL-AEG - ION -> TUN", SPRING, units(TURKEY="A BUL"))
    assert order == Move("TURKEY", unit("A BUL"), "TUN", path=("AEG", "ION"))


def test_convoyed_move_through_one_fleet(standard, start):
    order = parse_order(standard, "ENGLAND", "A EDI-NTH-NWY", SPRING, units(ENGLAND="A EDI"))
    assert order == Move("ENGLAND", unit("A EDI"), "NWY", path=("NTH",))


@pytest.mark.parametrize("text", ["A LON - BEL VIA CONVOY", "A LON - BEL BY CONVOY", "A LON BEL VIA"],
                         ids=["VIA-CONVOY", "BY-CONVOY", "bare-VIA"])
def test_move_via_convoy(standard, text):
    order = parse_order(standard, "ENGLAND", text, SPRING, units(ENGLAND="A LON"))
    assert order == Move("ENGLAND", unit("A LON"), "BEL", via_convoy=True)


def test_via_with_places_gives_the_path(standard):
    order = parse_order(standard, "ENGLAND", "A LON - BEL VIA NTH", SPRING, units(ENGLAND="A LON"))
    assert order == Move("ENGLAND", unit("A LON"), "BEL", path=("NTH",))


def test_unit_type_is_taken_from_the_unit_there(standard, start):
    assert parse_order(standard, "FRANCE", "BRE - MAO", SPRING, start).unit == unit("F BRE")


def test_supported_unit_type_is_taken_from_the_unit_there(standard, start):
    order = parse_order(standard, "FRANCE", "A PAR S BRE - PIC", SPRING, start)
    assert order == Support("FRANCE", unit("A PAR"), unit("F BRE"), "PIC")


def test_supported_unit_type_is_taken_from_the_terrain_when_nobody_is_there(standard, start):
    order = parse_order(standard, "FRANCE", "F BRE S MAO - ENG", SPRING, start)
    assert order.target == unit("F MAO")
