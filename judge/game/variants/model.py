"""A variant: what it changes in a game (see `judge.game.variants`)."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from judge.game.stages import Stage
from judge.maps.model import Map
from judge.rule_names import Rules
from judge.status.model import GameStatus


def as_set_up(status: GameStatus, m: Map, rules: Rules) -> GameStatus:
    return status


@dataclass(frozen=True)
class Variant:
    name: str  # DPjudge's game class, as `games/status` writes it
    title: str  # as DPjudge's rule pages and mails name it
    stages: tuple[Stage, ...]  # processing a phase, in order
    # whether the mail commands and the cycle carry its games: a variant whose order lists they do
    # not fill yet is processed by the core alone, and its games are refused
    played: bool = True
    # the game as it begins, from the board the start set up (Payola: each power's purse)
    opening: Callable[[GameStatus, Map, Rules], GameStatus] = as_set_up
