"""Fixtures of the cycle tests: an empty judge folder (`tests/support/cycle.py`)."""
from __future__ import annotations

import pytest

from tests.support.cycle import Judge


@pytest.fixture()
def judge(tmp_path) -> Judge:
    return Judge(tmp_path)
