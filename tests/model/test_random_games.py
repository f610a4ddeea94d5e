"""Random games played by mail and by the cycle (`tests/support/random_games.py`), every invariant
checked after every step: no game stalls untold, every mail gets one reply, the status file reads
back, nobody is mailed twice for one event.

A few seeded games run in CI; `MODEL_GAMES=200 pytest tests/model` plays more, and
`benchmarks/random_games.py` thousands (`MODEL_SEED` moves the seeds)."""
from __future__ import annotations

import os

import pytest

from tests.support.random_games import play

pytestmark = pytest.mark.model

GAMES = int(os.environ.get("MODEL_GAMES", "3"))
FIRST_SEED = int(os.environ.get("MODEL_SEED", "1"))
STEPS = 30  # actions a game: a forming, some phases, resignations, holds and rollbacks


@pytest.mark.parametrize("seed", range(FIRST_SEED, FIRST_SEED + GAMES))
def test_a_random_game_keeps_every_invariant(tmp_path, seed):
    violations = play(tmp_path, seed, STEPS)
    assert not violations, "\n".join(map(str, violations))
