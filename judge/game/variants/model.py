"""A variant: what it changes in a game (see `judge.game.variants`)."""
from __future__ import annotations

from dataclasses import dataclass

from judge.game.stages import Stage


@dataclass(frozen=True)
class Variant:
    name: str  # DPjudge's game class, as `games/status` writes it
    title: str  # as DPjudge's rule pages and mails name it
    stages: tuple[Stage, ...]  # processing a phase, in order
