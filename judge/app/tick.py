"""The clock's use case: what a tick of the cycle does to one game, and the checks it makes first.

A game whose rules or times are wrong is not processed (`checked`, as DPjudge: the game's
problems, `judge.game.checkup.game_problems`); a game in AWAIT (a processing that did not finish)
is left alone until its Master's PROCESS! or ROLLBACK; any other game gets what the clock says is
due (`judge.game.schedule.on_tick`: vacations over, civil disorder, dismissal, DELAY, processing,
late notices, reminders).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from judge.errors import StatusError
from judge.events import Event
from judge.game.checkup import game_problems
from judge.game.schedule import on_tick
from judge.game.standing import Standing
from judge.maps.model import Map
from judge.status.model import GameStatus, PhaseMode
from judge.types import Phase


@dataclass(frozen=True)
class Ticked:
    """What the tick did to a game: the status it leaves and its events; `held`, nothing done,
    the game waits in AWAIT for its Master."""

    status: GameStatus
    events: tuple[Event, ...] = ()
    held: bool = False


def checked(text: str, status: GameStatus, m: Map, file: str) -> None:
    """StatusError with the game's problems, read from its status `text` as it stands in `file`."""
    problems = game_problems(status, m, text, file)
    if problems:
        raise StatusError(problems)


def tick(status: GameStatus, m: Map, now: datetime, standing: Standing) -> Ticked:
    """The tick of one game read and `checked`, at `now`, in the state `standing` gives it."""
    if status.phase_mode is PhaseMode.AWAIT and isinstance(status.phase, Phase):
        return Ticked(status, held=True)
    new, events = on_tick(status, m, now, standing)
    return Ticked(new, tuple(events))
