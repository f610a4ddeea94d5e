"""Fixtures of the game's-life tests."""
from __future__ import annotations

import pytest

from judge.maps.loader import load_map


@pytest.fixture(scope="session")
def testing():
    return load_map("testing")
