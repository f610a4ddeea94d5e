"""A phase's processing that raised: a bug in the judge, not a refusal. The game then waits in
AWAIT, as it was read, for its Master's PROCESS! or ROLLBACK, whichever door the processing came
through (a Master's mail, `judge process`, a mail that let the judge process): the door hands the
game to the one writer's hold (`judge.runtime.commit`). A failure for want of a resource is the
machine's, not the game's, and goes through unchanged: the work is tried again later.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from judge.app.refusal import Refusal
from judge.errors import resource_failure
from judge.game import GameError


class ProcessingFailed(Exception):
    """Processing game `game` raised; the error it raised is its cause."""

    def __init__(self, game: str):
        super().__init__(f"processing game '{game}' failed")
        self.game = game


@contextmanager
def guarded(game: str) -> Iterator[None]:
    """Run a processing of `game`: a bug raised in it becomes ProcessingFailed."""
    try:
        yield
    except (GameError, Refusal):
        raise
    except Exception as exc:
        if resource_failure(exc):
            raise
        raise ProcessingFailed(game) from exc
