"""A variant: what it changes in a game (see `judge.game.variants`)."""
from __future__ import annotations

from dataclasses import dataclass

from judge.game.stages import Stage


@dataclass(frozen=True)
class Variant:
    name: str  # DPjudge's game class, as `games/status` writes it
    title: str  # as DPjudge's rule pages and mails name it
    stages: tuple[Stage, ...]  # processing a phase, in order
    # whether the mail commands and the cycle carry its games: a variant whose order lists they do
    # not fill yet is processed by the core alone, and its games are refused
    played: bool = True
