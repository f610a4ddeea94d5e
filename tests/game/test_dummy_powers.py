"""A power nobody plays (PLAYER DUMMY in the status file) is a dummy to the rules that name dummies,
like a power the map makes one (IMMOBILE_DUMMIES, DUMMY_FIRE)."""
from __future__ import annotations

from dataclasses import replace

import pytest

from judge.game import on_process
from judge.game.positions import position_of
from judge.status.model import PlayerHistory, Vacancy
from tests.support.games import DAY, NOW, everyone_orders, running, units_of


def _dummy(status, power):
    return status.with_power(replace(status.power(power), player=PlayerHistory(Vacancy.DUMMY), password=None))


def test_the_position_names_the_powers_nobody_plays(standard):
    s = _dummy(running(standard), "TURKEY")
    assert position_of(s, standard, s.phase).dummies == frozenset({"TURKEY"})


@pytest.mark.parametrize("dummy, moved", [(False, True), (True, False)])
def test_immobile_dummies_holds_a_power_left_to_the_dummy(standard, dummy, moved):
    s = running(standard, "RULE IMMOBILE_DUMMIES DEFAULT_UNORDERED")
    if dummy:
        s = _dummy(s, "TURKEY")
    s, _ = on_process(everyone_orders(s, {"TURKEY": ["A CON - BUL"]}), standard, NOW + DAY)
    assert ("A BUL" in units_of(s, "TURKEY")) is moved
