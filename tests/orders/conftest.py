"""Fixtures of the order tests: the standard map's opening units, and the tiny map of tests/support/orders.py."""
from __future__ import annotations

import pytest

from tests.support.maps import map_from_text
from tests.support.orders import TINY


@pytest.fixture(scope="session")
def start(standard):
    """Every power's units in Spring 1901 on the standard map."""
    return {name: power.units for name, power in standard.powers.items()}


@pytest.fixture(scope="session")
def tiny():
    return map_from_text(TINY)
