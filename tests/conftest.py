"""Shared fixtures."""
from __future__ import annotations

import pytest

from judge.maps.loader import load_map


@pytest.fixture(scope="session")
def standard():
    return load_map("standard")
