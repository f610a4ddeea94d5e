"""`judge process` and `judge rollback`: a Master's command run from the shell as the Master's mail
would run it, written as a mail's change is, with the mails it calls for.

The command line (PROCESS, PROCESS!, ROLLBACK ..., ROLLFORWARD ...) runs through the mail command
layer in a session signed on as the game's Master, so every check a mail meets holds here too
(the game's state, a game in AWAIT, readiness, the snapshot asked for), and what the judge does
itself after a mail follows; a processing that raises (a bug) leaves the game in AWAIT, for the
Master to see, as the Master's mail and the cycle do. The change is written by the inbox runner's
`commit`; the mails the events call for, made as a mail's are for everyone but its sender, go in
the same journal entry and are handed to the outbox when it is carried out
(`judge.runtime.journal`): a crash loses none and sends none twice. The Master gets no reply:
the shell prints what the command did.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage
from pathlib import Path

from judge.commands.auth import Level, registered_addresses
from judge.commands.change import change_of
from judge.commands.dispatch import judge_moves, run_commands
from judge.commands.session import Refusal, Session
from judge.mailout.envelope import AUTO_GENERATED, envelopes, raw_key
from judge.runtime.config import Config
from judge.runtime.game_access import StoreGames
from judge.app.processing import ProcessingFailed
from judge.runtime.commit import commit, hold_failed
from judge.runtime.inbox import MailHandler
from judge.runtime.spool import open_spools, outbox_entries, queue_mails
from judge.status.model import GameStatus
from judge.types import MASTER


@dataclass(frozen=True)
class MasterOutcome:
    """What the command did: the events, the reply's lines (the reason first when `failed`), and
    how many mails it put in the outbox."""

    events: tuple[object, ...]
    lines: tuple[str, ...]
    failed: bool
    queued: int


def run_as_master(config: Config, game: str, line: str, now: datetime,
                  search: Sequence[Path] = ()) -> MasterOutcome:
    """Run the Master's command `line` on `game`; `search`: map folders looked in first."""
    handler = MailHandler(config, search=search)
    queued: list[int] = []
    outbox = open_spools(config).outbox
    with StoreGames(handler.store, handler.settings, handler.maps, index=handler.games_index) as games:
        session = Session(handler.settings.keeper, now, handler.settings, games)
        try:
            master_signed_on(session, game)
        except Refusal as refusal:
            return MasterOutcome((), (refusal.reason, *refusal.details), True, 0)
        try:
            run_commands(session, (line,))
            judge_moves(session)
        except ProcessingFailed:
            hold_failed(games, game)
            raise
        change = change_of(session)
        mails: list[EmailMessage] = []
        if change.new_status:
            origin = "\n".join([game, line, now.isoformat(), change.before]).encode("utf-8")
            mails = notices(handler, origin, session.events, now, change.after)
        commit(games, change, None, now, mails=outbox_entries(mails),
               deliver=lambda entries: queued.append(queue_mails(outbox, entries)))
    results = session.results
    lines = tuple(text for outcome in results.outcomes if not (results.failed and outcome.ok)
                  for text in outcome.lines)
    return MasterOutcome(tuple(session.events), lines, results.failed, sum(queued))


def master_signed_on(session: Session, game: str) -> GameStatus:
    """The session as the Master's SIGNON leaves it, from the Master's first address; the game's
    status as read."""
    status = session.take_game(game)
    addresses = registered_addresses(status, MASTER, session.settings.addresses_per_player)
    session.sender = addresses[0] if addresses else session.settings.keeper
    session.role, session.level = MASTER, Level.MASTER
    return status


def notices(handler: MailHandler, origin: bytes, events: Sequence[object], now: datetime,
            after: dict[str, GameStatus | None]) -> list[EmailMessage]:
    """The events' mailings as a mail's are made for everyone but its sender (`MailHandler.mails`),
    each Message-ID made of `origin`, so that the same change makes the same mails."""
    draw = handler.draw
    attach = handler.config.maps.attach.lower()
    mails: list[EmailMessage] = []
    for number, mailing in enumerate(handler.mailings(events, now, after)):
        mails += envelopes(handler.config.judge, mailing, now=now, key=raw_key(origin, f"event{number}"),
                           auto=AUTO_GENERATED, draw=draw, default_kind=attach)
    return mails
