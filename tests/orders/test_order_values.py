"""Orders and units are frozen values however they are made (`filled_directly` makes them)."""
from __future__ import annotations

import dataclasses
import pickle

import pytest

from judge.orders.model import Build, Convoy, Hold, Move, Support, Waive
from judge.types import Unit, UnitType

A, F = UnitType.ARMY, UnitType.FLEET


@pytest.mark.parametrize("value", [
    Unit(F, "SPA/NC"), Hold("FRANCE", Unit(A, "PAR")), Move("FRANCE", Unit(A, "PAR"), "BUR"),
    Move("ENGLAND", Unit(A, "LON"), "BEL", True, ("NTH",)), Support("FRANCE", Unit(A, "MAR"), Unit(A, "PAR"), "BUR"),
    Convoy("ENGLAND", Unit(F, "NTH"), "LON", "BEL"), Build("FRANCE", Unit(A, "PAR")), Waive("ITALY")])
def test_a_value_is_frozen_and_equal_to_itself_made_by_keywords(value):
    given = {f.name: getattr(value, f.name) for f in dataclasses.fields(value) if f.init}
    twin = type(value)(**given)
    assert twin == value and hash(twin) == hash(value) and repr(twin) == repr(value)
    assert pickle.loads(pickle.dumps(value)) == value
    assert dataclasses.replace(value) == value
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(value, dataclasses.fields(value)[0].name, None)


def test_defaults_and_the_worked_out_province():
    move = Move("FRANCE", Unit(F, "SPA/SC"), "MAO")
    assert (move.via_convoy, move.path, move.unit.province) == (False, (), "SPA")
    assert Support("FRANCE", Unit(A, "MAR"), Unit(A, "PAR")).dest is None
    assert Convoy("ENGLAND", Unit(F, "NTH"), "LON", "BEL").carried is A
    with pytest.raises(TypeError):
        Move("FRANCE", Unit(A, "PAR"))  # (the destination has no default)
