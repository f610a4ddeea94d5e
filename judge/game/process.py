"""Processing a phase: `on_process(status, map, now) -> (status, events)`, pure.

`process_phase` runs the stages the game's variant lists (`judge.game.variants`; the standard
game's, and what each does, are in `judge.game.stages`). `map` is the game's map with its MORPH
lines; the map of each phase is derived from it.
"""
from __future__ import annotations

from datetime import datetime

from judge.events import Event, GameCompleted, PhaseResults, Preview
from judge.game.clock import readiness
from judge.game.seats import GameError
from judge.game.stages import begin
from judge.game.variants import Variant, variant_of
from judge.maps.model import Map
from judge.status.model import GameStatus
from judge.types import Phase


class NotReady(GameError):
    """PROCESS without force while orders are missing or the game waits for its deadline."""

    def __init__(self, message: str, late: tuple[str, ...] = ()):
        super().__init__(message)
        self.late = late


def on_process(status: GameStatus, m: Map, now: datetime, force: bool = False
               ) -> tuple[GameStatus, list[Event]]:
    """PROCESS (force: PROCESS!, missing orders defaulted). Raises NotReady, or GameError when the
    game is not running."""
    require_ready(status, m, now, force)
    return process_phase(status, m, now)


def require_ready(status: GameStatus, m: Map, now: datetime, force: bool = False) -> None:
    """Raise GameError when the game is not running, NotReady (unless `force`) when not ready."""
    if not isinstance(status.phase, Phase):
        raise GameError(f"game {status.name} is {status.phase.value.lower()}: there is nothing to process")
    if not force:
        state = readiness(status, m, now)
        if not state.ready:
            raise NotReady(f"game {status.name} is not ready for processing: {state.reason}",
                           state.duties.late)


def preview(status: GameStatus, m: Map, now: datetime) -> Preview:
    """PREVIEW: what processing would give now, missing orders defaulted; the game is unchanged."""
    if not isinstance(status.phase, Phase):
        raise GameError(f"game {status.name} is {status.phase.value.lower()}: there is nothing to preview")
    _, events = process_phase(status, m, now)
    results = next(e for e in events if isinstance(e, PhaseResults))
    completed = next((e for e in events if isinstance(e, GameCompleted)), None)
    return Preview(status.name or "", results, completed)


def process_phase(status: GameStatus, base: Map, now: datetime, variant: Variant | None = None
                  ) -> tuple[GameStatus, list[Event]]:
    """Process the status's phase whatever orders are missing, by the stages of `variant` (by
    default the game's)."""
    processing = begin(status, base, now)
    for stage in (variant or variant_of(status)).stages:
        processing = stage.run(processing)
    return processing.status, list(processing.events)
