"""Reading and checking the many orders of one phase: the map's place index made once and let go
with the map, the units indexed once, one checker for the phase; answers as for a single order."""
from __future__ import annotations

import gc
import weakref

import pytest

from judge.errors import OrderError
from judge.orders import OrderReader, check_order, parse_order
from judge.orders.lexer import place_index
from judge.orders.parser import OrderableUnits
from judge.orders.validate import OrderChecker
from tests.support.maps import map_from_text
from tests.support.orders import SPRING, TINY, position


def test_place_index_is_made_once_a_map(standard):
    assert place_index(standard) is place_index(standard)
    assert OrderReader(standard).index is OrderReader(standard).index


def test_place_index_goes_with_its_map():
    m = map_from_text(TINY)
    place_index(m)
    gone = weakref.ref(m)
    del m
    gc.collect()
    assert gone() is None


LINES = ["A PAR - BUR", "F BRE - MAO", "A MAR S A PAR - BUR", "F LON - NTH", "A VIE - TYR",
         "A PAR - PIC - BEL", "F KIE - HOL", "A MUN - KIE", "F STP/SC - BOT", "A WAR S A MOS"]


@pytest.mark.parametrize("power, text", [(p, t) for p in ("FRANCE", "ENGLAND", "GERMANY") for t in LINES])
def test_orderable_units_read_as_the_mapping(standard, start, power, text):
    def read(units):
        try:
            return OrderReader(standard).read(power, text, SPRING, units)
        except OrderError as error:
            return str(error)
    assert read(OrderableUnits(start)) == read(start)


def test_one_checker_for_a_phase_answers_as_check_order(standard, start):
    board = position(SPRING, start)
    orders = [parse_order(standard, p, t, SPRING, start, rules=frozenset({"ORDER_ANY"}))
              for p in ("FRANCE", "ENGLAND", "GERMANY") for t in LINES
              if _readable(standard, p, t, start)]
    checker = OrderChecker(standard, board, frozenset())
    for order in orders + orders[::-1]:
        assert checker.check(order) == check_order(standard, order, board, frozenset())


def _readable(m, power, text, start) -> bool:
    try:
        parse_order(m, power, text, SPRING, start, rules=frozenset({"ORDER_ANY"}))
    except OrderError:
        return False
    return True

