"""The Master's use cases that move the game through its phases: PROCESS (PROCESS!: the missing
orders defaulted), PREVIEW (what PROCESS! would give, the game unchanged) and ROLLBACK /
ROLLFORWARD to a snapshot, each with its checks (a phase to process, the game open, ready unless
forced; a completed game is not rolled). Whichever door the Master came through (a mail, `judge
process`, `judge rollback`, a page), these decide; the door reads the syntax and, for a rollback,
finds the snapshot. A bug raised while moving the game is `judge.app.processing.ProcessingFailed`,
for the door to hold the game in AWAIT.
"""
from __future__ import annotations

from dataclasses import dataclass

from judge.app.game_in_hand import GameInHand, closed_refusal, phase_of
from judge.app.processing import guarded
from judge.app.refusal import Refusal
from judge.events import Event, PhaseResults, Preview
from judge.game import GameError, on_process, preview, roll_to
from judge.game.clock import readiness
from judge.game.standing import Standing, settled
from judge.maps.model import Map
from judge.status.model import GameStatus
from judge.status.writer import write_status


@dataclass(frozen=True)
class Moved:
    """What PROCESS or ROLLBACK did: the status it leaves, its events, the game's standing after
    it, and (PROCESS) the status text before, kept as the processed phase's snapshot."""

    status: GameStatus
    events: tuple[Event, ...]
    standing: Standing
    snapshot_text: str | None = None

    @property
    def processed(self) -> PhaseResults | None:
        return next((e for e in self.events if isinstance(e, PhaseResults)), None)


def process(game: GameInHand, base_map: Map, standing: Standing, force: bool,
            request: str = "PROCESS") -> Moved:
    """The phase processed now (`force`: the missing orders defaulted); Refusal when there is no
    phase, the game is closed to the `request`, or (not forced) it is not ready, saying that
    PROCESS! would do."""
    status = game.status
    if phase_of(status) is None:
        raise Refusal(f"game '{game.name}' is {game.state.value}: there is nothing to process")
    closed = closed_refusal(game.state, game.name, request)
    if closed is not None:
        raise closed
    try:
        with guarded(game.name):
            new, events = on_process(status, base_map, game.now, force=force)
    except GameError as error:
        if force or not readiness(status, base_map, game.now).duties.late:
            raise Refusal(str(error)) from None
        raise Refusal(str(error), "PROCESS! processes it now, the missing orders "
                      "defaulted.") from None
    return Moved(new, tuple(events), settled(new, standing), write_status(status))


def preview_phase(game: GameInHand, base_map: Map) -> Preview:
    """What processing the phase now would give, the missing orders defaulted; the game is
    unchanged."""
    if phase_of(game.status) is None:
        raise Refusal(f"game '{game.name}' has no phase to preview")
    try:
        return preview(game.status, base_map, game.now)
    except GameError as error:
        raise Refusal(str(error)) from None


def rollable(game: GameInHand) -> None:
    """Refusal for a completed game: it is not rolled back or forward (checked before anything
    else of a ROLLBACK is read)."""
    if game.status.completed:
        raise Refusal("a completed game cannot be rolled back or forward (ask the judgekeeper)")


def roll(game: GameInHand, base_map: Map, standing: Standing, snapshot: GameStatus, *,
         restore: bool, full: bool, forward: bool) -> Moved:
    """The game rolled back (`forward`: forward) to `snapshot`; Refusal for a completed game."""
    rollable(game)
    try:
        with guarded(game.name):
            new, events = roll_to(game.status, snapshot, base_map, game.now, restore=restore,
                                  full=full, forward=forward)
    except GameError as error:
        raise Refusal(str(error)) from None
    return Moved(new, tuple(events), standing)
