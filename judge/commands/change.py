"""What one mail does to the files, as a value: the command layer hands it back, the inbox runner
(`judge.runtime.inbox`) writes it in one commit. Nothing here touches a file.

A mail changes at most one game: it makes it (CREATE), purges it, renames it, or gives it a new
status or state file; and it may count wrong passwords, in the games it opened and across the
judge. The judge-wide count is shared with every other mail and process, so the change carries the
table as the mail read it beside the one to keep: the runner keeps it only if nobody changed it
meanwhile, and runs the mail again otherwise.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from judge.notices import Press
from judge.commands.session import Session
from judge.commands.throttle import Failures
from judge.game.seats import open_seats
from judge.game.standing import FREE, Standing
from judge.maps.model import Map
from judge.status.model import GameStatus


@dataclass(frozen=True)
class Change:
    game: str | None = None  # the game the mail worked on (None: none)
    status: GameStatus | None = None  # its status after the mail
    before: str = ""  # its status file as read (as it was before a phase was processed)
    map: Map | None = None  # its map, when its status changed (the snapshots' order)
    events: tuple[Any, ...] = ()
    new_status: bool = False  # the status changed
    standing: Standing = FREE  # its state and listing after the mail (its state file)
    new_standing: bool = False  # they changed
    create: bool = False
    creator: str = ""  # who created it (counted against his games a day)
    purge: bool = False
    rename_to: str | None = None
    failures: Mapping[str, Failures] = field(default_factory=dict)  # to keep, by game
    judge_failures: tuple[Failures, Failures] | None = None  # (as read, to keep)

    @property
    def writes_game(self) -> bool:
        """Whether the mail changed its game (the change its receipt goes with); press sent
        is kept with the game (`judge.runtime.press_file`)."""
        return self.status is not None and (self.create or self.purge or bool(self.rename_to)
                                            or self.new_status or self.new_standing
                                            or any(isinstance(e, Press) for e in self.events))

    @property
    def after(self) -> dict[str, GameStatus | None]:
        """The game's status once the change is written, by name (None: purged, or renamed
        away): who is who for the mails the mail calls for."""
        if self.game is None:
            return {}
        if self.purge:
            return {self.game: None}
        if self.rename_to:
            return {self.game: None, self.rename_to: self.status}
        return {self.game: self.status}


def with_seats(session: Session, changed: bool) -> Standing:
    """The game's standing with the seats it has open, when its status changed (see
    `judge.game.standing`): counted with the map the mail read, so LIST need not read it."""
    status, standing = session.current(), session.standing
    if not changed:
        return standing
    seats = open_seats(status, session.base_map) if status.forming else None
    return replace(standing, seats=seats)


def change_of(session: Session) -> Change:
    """What the mail `session` carried out does to the files."""
    failures = dict(session.failures)
    judge_failures = None
    if session.judge_failures is not None:
        judge_failures = (session.judge_failures_read or {}, session.judge_failures)
    status, original = session.status, session.original
    if session.game is None or status is None:
        return Change(failures=failures, judge_failures=judge_failures)
    new_status = status != original and not session.create and not session.purge
    standing = with_seats(session, new_status or session.create)
    return Change(game=session.game, status=status,
                  before=session.snapshot_text or session.loaded_text,
                  map=session.base_map if new_status else None, events=tuple(session.events),
                  new_status=new_status, standing=standing,
                  new_standing=standing != session.original_standing, create=session.create,
                  creator=session.sender if session.create else "",
                  purge=session.purge, rename_to=session.rename_to, failures=failures,
                  judge_failures=judge_failures)
