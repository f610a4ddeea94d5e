"""PROXY_OK as DPjudge plays it: a unit's owner gives it to another power for the phase with
`A PAR PROXY GERMANY`; the unit then follows that power's order (none: it holds); an order for
another power's unit that was not proxied to the one giving it counts for nothing."""
from __future__ import annotations

import re
from dataclasses import replace

import pytest

from judge.errors import OrderError
from judge.game import on_process
from judge.game.orders import orders_on_file, proxied
from judge.game.rules import rules_in_force
from judge.orders import Proxy, parse_order
from judge.types import Unit, UnitType
from tests.support.games import NOW, running


def with_orders(status, **orders: list[str]):
    for power, lines in orders.items():
        block = status.power(power)
        status = status.with_power(replace(block, orders=tuple(lines)))
    return status


def units(status, power: str) -> set[str]:
    return {str(u) for u in status.power(power).units}


@pytest.fixture
def proxy_game(standard):
    return running(standard, "RULE PROXY_OK")


def test_proxy_ok_brings_order_any_and_is_applied(proxy_game, standard):
    rules = rules_in_force(proxy_game, standard)
    assert {"PROXY_OK", "ORDER_ANY"} <= rules


def test_a_proxied_unit_follows_the_proxy_holders_order(proxy_game, standard):
    s = with_orders(proxy_game, FRANCE=["A PAR PROXY GERMANY", "A MAR H", "F BRE H"],
                    GERMANY=["A PAR - BUR", "A MUN H", "A BER H", "F KIE H"])
    after, _ = on_process(s, standard, NOW, force=True)
    assert "A BUR" in units(after, "FRANCE") and "A PAR" not in units(after, "FRANCE")


def test_an_order_to_a_unit_not_proxied_counts_for_nothing(proxy_game, standard):
    s = with_orders(proxy_game, FRANCE=["A PAR H", "A MAR H"],
                    GERMANY=["F BRE - MAO", "A MUN H", "A BER H", "F KIE H"])
    after, _ = on_process(s, standard, NOW, force=True)
    assert "F BRE" in units(after, "FRANCE")


def test_a_proxied_unit_its_holder_does_not_order_holds(proxy_game, standard):
    s = with_orders(proxy_game, FRANCE=["A PAR PROXY GERMANY", "A MAR H", "F BRE H"])
    sheet = orders_on_file(s, standard, s.phase, rules_in_force(s, standard))
    assert [str(o) for o in proxied(sheet.orders, s, standard)["FRANCE"]] == ["A MAR H", "F BRE H"]


RULES = frozenset({"PROXY_OK", "ORDER_ANY"})


@pytest.mark.parametrize("power, text, rules, reason", [
    ("FRANCE", "A PAR PROXY GERMANY", frozenset(), "not allowed in this game (PROXY_OK)"),
    ("GERMANY", "A PAR PROXY ITALY", RULES, "not yours to proxy"),
    ("FRANCE", "A PAR PROXY FRANCE", RULES, "its own power"),
    ("FRANCE", "A PAR PROXY NARNIA", RULES, "no such power"),
    ("FRANCE", "A PAR PROXY GERMANY ITALY", RULES, "names one power"),
])
def test_proxy_orders_refused(standard, power, text, rules, reason):
    from judge.phases import parse_phase
    units = {"FRANCE": (Unit(UnitType.ARMY, "PAR"),), "GERMANY": (Unit(UnitType.ARMY, "MUN"),)}
    with pytest.raises(OrderError, match=re.escape(reason)):
        parse_order(standard, power, text, parse_phase(standard, "S1901M"), units, rules=rules)


def test_a_proxy_order_reads(standard):
    from judge.phases import parse_phase
    units = {"FRANCE": (Unit(UnitType.ARMY, "PAR"),)}
    order = parse_order(standard, "FRANCE", "par proxy g", parse_phase(standard, "S1901M"), units,
                        rules=RULES)
    assert order == Proxy("FRANCE", Unit(UnitType.ARMY, "PAR"), "GERMANY")
