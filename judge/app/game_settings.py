"""The use cases of what is set about the game itself: SET ABSENCE (days on which no deadline
falls), SET ZONE / NOZONE (the game's clock, the Master's) and SET LISTED / UNLISTED (whether
LIST shows the game, the Master's). The door reads the dates and the zone's name; here the game
decides who may set them and when.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, datetime
from typing import Protocol

from judge.app.game_in_hand import GameInHand
from judge.app.refusal import Refusal, unkept
from judge.game.schedule import add_absence, set_zone
from judge.game.standing import Standing
from judge.notices import AbsenceSet, StateChanged, ZoneChanged
from judge.rule_names import Rule
from judge.status.model import GameStatus
from judge.timing import game_zone


class AbsenceAsked(Protocol):
    """An absence as the door read it (`judge.commands.dates.Absence`): from `first` (None: now)
    to `last`, whole days unless `timed`."""

    @property
    def first(self) -> datetime | None: ...

    @property
    def last(self) -> datetime: ...

    @property
    def timed(self) -> bool: ...

    def days(self, today: date) -> int: ...

    def stamps(self) -> tuple[str | None, str]: ...


@dataclass(frozen=True)
class GameSet:
    """The status a setting of the game leaves, and what everyone in the game is told of it."""

    status: GameStatus
    events: tuple[AbsenceSet | ZoneChanged, ...]


@dataclass(frozen=True)
class Listed:
    """The standing SET LISTED / UNLISTED leaves, and what everyone in the game is told of it."""

    standing: Standing
    events: tuple[StateChanged, ...]


def absence_settable(game: GameInHand, master: bool) -> None:
    """Refusal unless an absence may be set (checked before the dates are read): players set
    their own unless NO_ABSENCES; nobody once the game is over."""
    if Rule.NO_ABSENCES in game.rules and not master:
        raise Refusal("only the Master sets absences in this game (NO_ABSENCES)")
    if game.status.completed:
        raise Refusal("the game is over")


def set_absence(game: GameInHand, master: bool, absence: AbsenceAsked, max_days: int, who: str
                ) -> GameSet:
    """The game's status with `absence` kept, set by `who`; a player's at most `max_days` long.
    Everyone is told, but who set it under HIDE_ABSENTEES (save the Master), and only the Master
    under SILENT_ABSENCES."""
    absence_settable(game, master)
    today = game.now.astimezone(game_zone(game.status.zone)).date()
    if not master and absence.days(today) > max_days:
        raise Refusal(f"only the Master may set an absence longer than {max_days} days")
    try:
        status = add_absence(game.status, *absence.stamps(), game.now)
    except ValueError as exc:
        raise Refusal(str(exc)) from None
    told = AbsenceSet(game.name, absence.first, absence.last, absence.timed,
                      None if Rule.HIDE_ABSENTEES in game.rules else who, who,
                      Rule.SILENT_ABSENCES in game.rules)
    return GameSet(status, (told,))


def set_game_zone(game: GameInHand, master: bool, zone: str | None) -> GameSet:
    """The game on the clock of `zone` (None: GMT), the Master's to set."""
    status = game.status
    if not master:
        raise unkept("players' own time zones", f"keep one: times are given in the game's "
                     f"zone, {status.zone or 'GMT'}")
    try:
        status = set_zone(status, zone)
    except ValueError as exc:
        raise Refusal(str(exc)) from None
    return GameSet(status, (ZoneChanged(game.name, status.zone),))


def listing(game: str, standing: Standing, listed: bool) -> Listed | None:
    """The game's standing shown in LIST (`listed`) or not; None when it already is so."""
    if standing.listed == listed:
        return None
    return Listed(replace(standing, listed=listed),
                  (StateChanged(game, "listed" if listed else "unlisted"),))
