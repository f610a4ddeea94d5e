"""Place names: every alias of the map, multi-word and `+` aliases by longest match, ambiguity."""
from __future__ import annotations

import pytest

from judge.errors import OrderError
from judge.maps import load_map
from judge.orders import Move, Support, parse_order
from tests.support.maps import map_from_text
from tests.support.orders import SPRING, unit, units

TINY_UNITS = units(XLAND="A ALP", YLAND="F BET")


@pytest.mark.parametrize("text", ["A TY H", "A ALP - TY", "A ALP S TY"],
                         ids=["ordered-unit", "destination", "supported-unit"])
def test_ambiguous_alias_is_refused(tiny, text):
    with pytest.raises(OrderError, match=r"^'TY' is ambiguous: Tyrolia or Tyrrhenian Sea$"):
        parse_order(tiny, "XLAND", text, SPRING, TINY_UNITS)


@pytest.mark.parametrize("written", ["North Water", "north+water", "NORTH   WATER", "nwa"],
                         ids=["spaces", "plus", "extra-spaces", "abbreviation"])
def test_two_word_alias(tiny, written):
    order = parse_order(tiny, "YLAND", f"F BET - {written}", SPRING, TINY_UNITS)
    assert order == Move("YLAND", unit("F BET"), "NWA")


def test_full_place_name_of_several_words(tiny):
    assert parse_order(tiny, "YLAND", "F Beta - Tyrrhenian Sea", SPRING, TINY_UNITS).dest == "TYS"


@pytest.mark.parametrize("written, abbrev", [
    ("Mid-Atlantic Ocean", "MAO"),
    ("St. Petersburg", "STP"),
    ("st petersburg", "STP"),
    ("eas+med", "EAS"),
    ("eas med", "EAS"),
    ("Eastern Mediterranean", "EAS"),
    ("Gulf of Bothnia", "BOT"),
    ("Helgoland Bight", "HEL"),
], ids=["hyphen-in-name", "dotted", "undotted", "plus", "plus-as-space", "full-name",
        "three-words", "two-words"])
def test_standard_map_aliases(standard, written, abbrev):
    place_of = {"MAO": "F NAO", "STP": "A MOS", "EAS": "F ION", "BOT": "F SWE", "HEL": "F KIE"}
    mover = place_of[abbrev]
    order = parse_order(standard, "FRANCE", f"{mover} - {written}", SPRING, units(FRANCE=mover))
    assert order.dest == abbrev


def test_word_after_a_place_that_makes_no_alias_is_unknown(standard):
    with pytest.raises(OrderError, match="no such place 'ATLANTIC'"):
        parse_order(standard, "FRANCE", "F NAO - mid atlantic", SPRING, units(FRANCE="F NAO"))


def test_longest_alias_wins_over_its_first_word(standard):
    """`EAS MED` is one place, not EAS followed by an unknown MED."""
    order = parse_order(standard, "ITALY", "F ION - eas med", SPRING, units(ITALY="F ION"))
    assert order == Move("ITALY", unit("F ION"), "EAS")


def test_words_that_only_make_a_sentence_are_skipped(standard, start):
    order = parse_order(standard, "FRANCE", "The army in Paris will move to Burgundy", SPRING, start)
    assert order == Move("FRANCE", unit("A PAR"), "BUR")


def test_a_place_named_like_a_filler_word_is_a_place():
    m = map_from_text("Andorra = and\nAlpha = alp\nLAND AND ABUTS ALP\nLAND ALP ABUTS AND\n"
                      "XLAND AND\nA AND\nYLAND ALP\n")
    order = parse_order(m, "XLAND", "A AND - ALP", SPRING, units(XLAND="A AND"))
    assert order == Move("XLAND", unit("A AND"), "ALP")


def test_an_abbreviation_another_place_lists_with_a_question_mark_is_its_own_place():
    """Youngstown's Tyrrhenian Sea lists `tyr?`; DPjudge reads `A PIE S A VEN - TYR` as a support into
    Tyrolia (its results: `Army Piedmont SUPPORT Army Venice -> Tyrolia.`)."""
    youngstown = load_map("youngstown")
    italy = units(ITALY="A PIE, A VEN, F NAP")
    order = parse_order(youngstown, "ITALY", "A PIE S A VEN - TYR", SPRING, italy)
    assert order == Support("ITALY", unit("A PIE"), unit("A VEN"), "TYR")
