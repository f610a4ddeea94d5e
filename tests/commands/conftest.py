"""Fixtures of the command tests: a judge in a temporary folder (`tests/support/commands.py`), empty
or holding the `vienna` game."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.commands import Judge


@pytest.fixture
def judge(tmp_path: Path) -> Judge:
    return Judge(tmp_path / "games")


@pytest.fixture
def vienna(judge: Judge) -> Judge:
    judge.add("vienna")
    return judge
