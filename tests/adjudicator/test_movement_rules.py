"""Rules that change movement adjudication, where a case table cannot say it: the dummies of a
status file, and how `judge adjudicate` reports a unit nobody ordered. The rule variants' cases are
in tables/rules.txt (run by test_tables.py)."""
from __future__ import annotations

import pytest

from judge.adjudicator.request import adjudicate_request
from judge.maps.loader import load_map


def test_an_unordered_unit_holds_and_is_reported():
    answer = adjudicate_request({"map": "standard", "phase": "SPRING 1901 MOVEMENT",
                                 "units": {"FRANCE": ["A PAR"], "GERMANY": ["A MUN", "A RUH"]},
                                 "orders": {"GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR"]}},
                                load_map)
    assert answer["results"]["FRANCE"] == [{"unit": "A PAR", "order": "A PAR H", "result": []}]


# --- a power nobody plays (DUMMY in the status file) is a dummy too -------------------------------

def _resolve_germany(orders: list, rules: list, dummies: tuple):
    """A, BER, MUN and SIL of Germany on the standard map, Germany a dummy if `dummies` says so."""
    from judge.adjudicator import resolve
    from judge.adjudicator.model import Position
    from judge.orders import parse_order
    from judge.types import Phase, Unit, UnitType

    m = load_map("standard")
    phase = Phase("SPRING", 1901, "MOVEMENT")
    units = {"GERMANY": tuple(Unit(UnitType.ARMY, p) for p in ("BER", "MUN", "SIL"))}
    typed = [parse_order(m, "GERMANY", line, phase, units) for line in orders]
    position = Position(phase, units, {}, dummies=frozenset(dummies))
    return resolve(m, position, {"GERMANY": typed}, frozenset(rules))


@pytest.mark.parametrize("dummies, moved", [((), True), (("GERMANY",), False)])
def test_immobile_dummies_holds_a_power_the_status_file_makes_a_dummy(dummies, moved):
    resolution = _resolve_germany(["A SIL - PRU"], ["IMMOBILE_DUMMIES"], dummies)
    assert ("A PRU" in {str(u) for u in resolution.units["GERMANY"]}) is moved


@pytest.mark.parametrize("dummies, dislodged", [((), False), (("GERMANY",), True)])
def test_dummy_fire_takes_in_a_power_the_status_file_makes_a_dummy(dummies, dislodged):
    resolution = _resolve_germany(["A MUN - BER", "A SIL S A MUN - BER", "A BER H"], ["DUMMY_FIRE"], dummies)
    assert bool(resolution.dislodged) is dislodged
