"""The use case of MORPH: map-file lines added to a game's map. The door reads the map the game
would have with them (within the judge's map bounds); here the game is checked against it: a
game over keeps its map, and in a game that has started every unit must still stand where it is.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from judge.app.game_in_hand import GameInHand, phase_of
from judge.app.refusal import Refusal
from judge.maps import map_for_phase
from judge.maps.model import Map
from judge.notices import VictoryChanged
from judge.status.model import GameStatus


@dataclass(frozen=True)
class Morphed:
    """The status with the lines added, the game's map from now on, the supply centres needed to
    win in `year` before and after, and, when they differ, what everyone in the game is told."""

    status: GameStatus
    map: Map
    year: int
    victory_before: int
    victory_after: int
    events: tuple[VictoryChanged, ...] = ()


def morphable(status: GameStatus) -> None:
    """Refusal for a game over (checked before the lines are read)."""
    if status.completed:
        raise Refusal("the game is over: its map no longer changes")


def morph(game: GameInHand, before: Map, after: Map, added: tuple[str, ...]) -> Morphed:
    """`added` kept with the game, whose map goes from `before` to `after` (both as at BEGIN)."""
    status = game.status
    morphable(status)
    phase = phase_of(status)
    if phase is not None:
        m = map_for_phase(after, phase)
        stranded = [f"{b.name} {u}" for b in status.powers for u in b.units if not m.can_stand(u)]
        if stranded:
            raise Refusal("after these lines some units could not stand where they are; "
                          "nothing was changed:", *stranded)
    year = phase.year if phase is not None else after.begin.year
    was, now = before.victory_in(year), after.victory_in(year)
    told = (VictoryChanged(game.name, year, was, now),) if was != now else ()
    return Morphed(replace(status, morphs=status.morphs + added), after, year, was, now, told)
