"""Crystal Ball's lists as players fill them (`judge.game.order_lists`): which list takes orders,
and a list's lines checked against the map as if each unit stood where its line says."""
from __future__ import annotations

from dataclasses import replace

import pytest

from judge.game.rules import check_rules
from judge.game.order_lists import LATER, NO_PROXY_IN_LISTS, SOONER, list_taking_orders, lists_submitted, read_list
from judge.status import parse_status
from tests.support.xtalball import HERE

STATUS = parse_status((HERE / "S1901M.status").read_text())


def test_a_list_orders_units_the_power_may_not_have_yet(standard):
    orders, errors = read_list(standard, "FRANCE", ["A MUN - BUR", "F MAO S A BRE", "A CON - BLA - RUM"],
                               STATUS.phase, frozenset())
    assert [str(o) for o in orders] == ["A MUN - BUR", "F MAO S A BRE", "A CON - BLA - RUM"]
    assert errors == []


@pytest.mark.parametrize("line, reason", [
    ("PAR - BUR", "each line of a list starts with the unit's type (A or F)"),
    ("F PAR H", "no fleet can stand in PAR"),
    ("A MAO H", "no army can stand in MAO"),
    ("F STP - BOT", "a fleet in STP stands on one of its coasts: name it"),
    ("A PAR - MOS", "A PAR cannot reach Moscow"),
    ("A PAR PROXY ENGLAND", NO_PROXY_IN_LISTS),
])
def test_a_line_no_unit_could_carry_out_is_refused(standard, line, reason):
    assert read_list(standard, "FRANCE", [line], STATUS.phase, frozenset()) == ([], [(line, reason)])


def test_a_later_line_for_a_unit_is_kept_beside_the_earlier_and_clear_starts_over(standard):
    orders, _ = read_list(standard, "FRANCE", ["A PAR H", "CLEAR", "A PAR - BUR", "A PAR - PIC"],
                          STATUS.phase, frozenset())
    assert [str(o) for o in orders] == ["A PAR - BUR", "A PAR - PIC"]


def test_the_first_lists_go_to_sooner_until_every_power_with_units_has_one():
    empty = replace(STATUS, powers=tuple(replace(b, sooner=None, later=None) for b in STATUS.powers))
    assert list_taking_orders(empty.powers) == SOONER
    assert lists_submitted(empty.powers) == ()
    one_short = replace(STATUS, powers=tuple(replace(b, later=None) if b.name != "TURKEY"
                                             else replace(b, sooner=None, later=None) for b in STATUS.powers))
    assert list_taking_orders(one_short.powers) == SOONER
    assert "TURKEY" not in lists_submitted(one_short.powers) and "FRANCE" in lists_submitted(one_short.powers)


def test_then_lists_go_to_later_and_a_phase_waits_for_the_later_lists():
    locked = replace(STATUS, powers=tuple(replace(b, later=None) if b.name == "ITALY" else b
                                          for b in STATUS.powers))
    assert list_taking_orders(locked.powers) == LATER
    assert "ITALY" not in lists_submitted(locked.powers)
    assert len(lists_submitted(STATUS.powers)) == 7


def test_public_and_limited_lists_are_played_in_a_crystal_ball_game(standard):
    game = replace(STATUS, variant="xtalball", rules=frozenset({"PUBLIC_LISTS", "LIMIT_LISTS"}))
    found = check_rules(game, standard, game.variant)
    assert found.problems == () and {"PUBLIC_LISTS", "LIMIT_LISTS"} <= found.in_force


def test_the_standard_games_own_rules_are_refused_in_a_crystal_ball_game(standard):
    game = replace(STATUS, variant="xtalball", rules=frozenset({"NO_CHECK", "CD_SUPPORTS"}))
    problems = {str(p) for p in check_rules(game, standard, game.variant).problems}
    assert problems == {"RULE NO_CHECK REQUIRES STANDARD VARIANT", "RULE CD_SUPPORTS REQUIRES STANDARD VARIANT"}
