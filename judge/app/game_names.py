"""The use cases of CREATE and RENAME: a game made, or given another name. Each asks about the
other games on the judge (whether a name is taken, how many games the sender runs and made), which
its door reads and hands in as values; the new game's status and map are read by the door too
(from the mail's status-file lines, within the judge's map bounds).
"""
from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass, replace

from judge.app.refusal import Refusal
from judge.game.rules import rules_in_force
from judge.game.standing import GameState, Standing
from judge.maps.model import Map
from judge.notices import GameCreated
from judge.rule_names import Rule
from judge.status.model import GameStatus


@dataclass(frozen=True)
class Creator:
    """The sender's games on the judge, as CREATE's door read them: those the sender is the Master
    of that have not started (in preparation or forming), and those the sender created in the day
    before now (PURGEd ones too)."""

    forming: int
    created: int


@dataclass(frozen=True)
class CreationLimits:
    """How many games one address may have not yet started, and create in any 24 hours."""

    forming: int
    per_day: int


@dataclass(frozen=True)
class Created:
    """The new game's status, its state and listing (in preparation unless FORM was given), and
    what the judgekeeper and the map's NOTIFY addresses are told."""

    status: GameStatus
    standing: Standing
    events: tuple[GameCreated, ...]


def creatable(name: str, taken: Container[str], creator: Creator, limits: CreationLimits) -> None:
    """Refusal when the name is taken or the sender has made as many games as the judge allows."""
    if name in taken:
        raise Refusal(f"a game named '{name}' already exists")
    if creator.forming >= limits.forming:
        raise Refusal(f"you are the Master of {creator.forming} games not yet started, as many as "
                      "this judge allows one address: start or PURGE one first")
    if creator.created >= limits.per_day:
        raise Refusal(f"you have created {creator.created} games in the last 24 hours, as many as "
                      "this judge allows one address: try again tomorrow")


def create(status: GameStatus, m: Map, forms: bool, listed: bool, master: str) -> Created:
    """The game of `status` (as its lines made it, on the map `m`) created by `master`: forming if
    `forms`, else in preparation; a SOLITAIRE game is private, as DPjudge makes it."""
    if Rule.SOLITAIRE in rules_in_force(status, m) and not status.private:
        status = replace(status, private="SOLITAIRE")
    told = GameCreated(status.name or "", master, status.map_name, status.trial, m.notify)
    return Created(status, Standing(None if forms else GameState.PREPARATION, listed), (told,))


def rename(status: GameStatus, old: str, new: str, taken: Container[str]) -> GameStatus:
    """The game `old` (its status `status`) called `new`; Refusal when that is its name or another
    game's. The folder's name is the game's, not the status's: a rename cut short between the
    status and the folder's move is done again."""
    if new == old or new in taken:
        raise Refusal(f"a game named '{new}' already exists")
    return replace(status, name=new)
