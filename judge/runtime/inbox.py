"""The inbox runner: the daemon's `handle_mail(raw, now) -> list[EmailMessage]`, one spooled mail
in, the mails it calls for out, in five steps:

1. the receipt check: a mail whose change was made before a crash is answered from its receipt
   (`<games>/.receipts/`, `judge.runtime.journal`), not carried out again;
2. lock and read: a mail whose header block says it is not carried out (automatic mail,
   bounces, the judge's own, no one sender: `unanswered`) stops here, unanswered, its body never
   parsed nor a game read; `read_message` parses the others' bytes; the games the mail reads
   are read through a read-only view (`judge.runtime.game_access.StoreGames`), the one it may
   change locked, its change a crash left in flight completed first (when that was this mail's
   own, its receipt answers it), and read once;
3. run: `judge.commands.dispatch.run_mail` (through `game_access.run_read_ahead`, which reads
   ahead the game the mail takes), a pure function of the mail, the games as read and the time,
   gives the reply, the events and the change (`judge.commands.change.Change`);
4. render: the reply (templates/reply.txt unless another `render` is given) and the events'
   mailings (the mail layer's `Mailer`), within the sender's reply limit and the recipients one
   mail's answers may reach; each mailing goes out as one mail per recipient
   (`envelope.envelopes`: nobody sees another player's address), with a deterministic Message-ID
   made from the incoming bytes, so a mail processed twice is sent once;
5. one commit by the one writer (`judge.runtime.commit.commit`): the status and the receipt
   holding the mails, through the game's journal (a crash at any instant leaves the change made
   with its receipt, or neither), and the wrong passwords counted; then the locks go, and the
   caller puts the mails in the outbox (`judge.runtime.spool.queue_mails`).

Replies to one sender are rate-limited (`judge.runtime.sender_history.allowance`), and the CPU each mail cost
is counted against its sender's share (`judge.runtime.fair_share`): both kept a file a sender
(`judge.runtime.sender_history`). `pipe_mail` is `judge mail`.
"""
from __future__ import annotations

import base64
import json
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from functools import partial
from datetime import datetime
from email import message_from_bytes, policy
from email.message import EmailMessage, Message
from pathlib import Path
from typing import Any, cast

from judge.app.processing import ProcessingFailed
from judge.commands.reply import Reply, not_attached
from judge.commands.session import Settings
from judge.errors import StatusError, resource_failure
from judge.commands.dispatch import carried_out
from judge.mailin.message import (Incoming, automatic_reason, envelope_address, envelope_sender,
                                  parse_headers, parse_rest, read_message, reply_headers, sender_of)
from judge.mailout.envelope import AUTO_GENERATED, envelopes, loop_token, raw_key
from judge.drawing.pictures import Picture
from judge.mailout.envelope import Draw
from judge.mailout.mailings import Mailer, Mailing, PictureMail, bounded, render_reply
from judge.runtime.picture_process import PictureWorker
from judge.runtime.pictures import encoder, geometry_of, position_picture
from judge.mailout.render import Rendered, environment
from judge.maps import MapCache
from judge.runtime import game_files as persist
from judge.runtime.commit import commit, hold_failed
from judge.runtime.config import Config
from judge.runtime.game_access import AnsweredBefore, StoreGames, run_read_ahead
from judge.runtime.journal import read_receipt
from judge.runtime.sender_history import (
    HISTORY_FOLDER,
    ReplyHistory,
    cpu_use,
    record_cpu,
)
from judge.runtime.spool import open_spools, outbox_entries, queue_mails
from judge.status.model import GameStatus
from judge.runtime.store import GameDir, GameStore

log = logging.getLogger("judge.mail")

Render = Callable[[Reply], tuple[str, str]]


class MailHandler:
    """The inbox runner: the daemon's `handle_mail(raw, now)` (and `judge mail`'s), one spooled
    mail in, the mails it calls for out (see the module's doc)."""

    def __init__(self, config: Config, render: Render | None = None, env: Any = None,
                 search: Sequence[Path] = (), games_index: persist.IndexReader | None = None):
        self.config = config
        self.settings = Settings.from_config(config)
        if search:  # folders the maps are looked for in first (`judge process --map-dir`)
            self.settings = replace(self.settings, map_dirs=(*search, *self.settings.map_dirs))
        self.store = GameStore(config.paths.games)
        self.history = ReplyHistory(config.paths.spool / HISTORY_FOLDER, self.settings)
        self.cpu = cpu_use(config.paths.spool)
        self.render = render or self.reply_text
        self.env = env
        self.maps = MapCache(self.settings.map_dirs)
        self.games_index = persist.IndexReader() if games_index is None else games_index
        self.pictures = PictureWorker()  # the child process that draws this runner's pictures
        self.draw = encoder(self.config.limits, self.pictures)  # each picture made once, for all its mails

    def __call__(self, raw: bytes, now: datetime) -> list[EmailMessage]:
        return self.run(raw, now)[1]

    def run(self, raw: bytes, now: datetime, *, send: bool = True
            ) -> tuple[Reply | None, list[EmailMessage]]:
        """The mail carried out: its reply (None when it was answered from its receipt) and the
        mails it calls for. `send` False: no mail is made (a sign-on on the web, which the page
        answers), but the mail's change, its wrong passwords counted, is written all the same."""
        receipt = raw_key(raw, "receipt")
        kept = read_receipt(self.store.root, receipt)
        if kept is not None:
            return None, answered_before(receipt, kept)
        started = time.thread_time()  # the worker's own CPU: the gateway's is not the sender's
        heads = parse_headers(raw)
        dropped = unanswered(heads, self.settings, loop_token(self.config.judge))
        if dropped is not None:
            self.count_cpu(dropped.sender, now, time.thread_time() - started)
            return None, []
        msg = parse_rest(raw, heads)
        incoming = read_message(raw, envelope_sender(msg), loop_token(self.config.judge),
                                parsed=msg, authserv_id=self.config.judge.authserv_id)
        render = partial(self.mails, raw, incoming, now) if send else None
        try:
            reply, _, mails = carry_out(incoming, self.store, self.settings, now, self.maps,
                                        render, receipt, self.games_index, env=self.templates())
            return reply, mails
        except AnsweredBefore:
            kept = read_receipt(self.store.root, receipt)
            if kept is None:  # gone meanwhile: the mail is tried again, and carried out then
                raise
            return None, answered_before(receipt, kept)
        finally:
            self.count_cpu(incoming.sender, now, time.thread_time() - started)

    def count_cpu(self, sender: str, now: datetime, seconds: float) -> None:
        """Count what a mail cost against its sender's share (`judge.runtime.fair_share`); a
        share that cannot be written is not worth doing the mail again."""
        try:
            record_cpu(self.cpu, sender, now, seconds)
        except OSError as exc:
            log.warning("the CPU of a mail from %s not counted: %r", sender, exc)

    def mails(self, raw: bytes, incoming: Incoming, now: datetime, reply: Reply | None,
              events: Sequence[object], after: Mapping[str, GameStatus | None]
              ) -> list[EmailMessage]:
        """The reply and the events' mailings, each with a Message-ID made from `raw`. `after`:
        the status of the game the mail worked on, as the mail leaves it, by name (None: gone)."""
        judge = self.config.judge
        key = raw_key(raw, "reply")
        draw, attach = self.draw, self.config.maps.attach.lower()
        answer = self.answer(incoming, reply, now, key, after, draw)
        replied = answer.recipients
        if reply is not None and reply.said_by_confirmation:
            answer = Mailing((), answer.rendered)  # the order confirmation answers, as DPjudge's
        mailings, dropped = bounded([answer, *self.mailings(events, now, after, replied)],
                                    self.settings.recipients_per_mail)
        if dropped:
            log.warning("mail from %s: %d addresses not sent to, past the %d the mails answering "
                        "one mail may reach", incoming.sender, dropped,
                        self.settings.recipients_per_mail)
        mails: list[EmailMessage] = []
        thread = reply_headers(incoming)
        in_reply_to, references = thread.get("In-Reply-To", ""), thread.get("References", "")
        if mailings[0].recipients:
            mails += envelopes(judge, mailings[0], now=now, key=key, draw=draw, in_reply_to=in_reply_to,
                               references=references)
        sender = incoming.sender.lower()
        for number, mailing in enumerate(mailings[1:]):
            # what the mail made for its own sender (an order confirmation) answers it too
            mine = tuple(a for a in mailing.recipients if a.lower() == sender)
            others = tuple(a for a in mailing.recipients if a.lower() != sender)
            event_key = raw_key(raw, f"event{number}")
            if mine:
                mails += envelopes(judge, mailing._replace(recipients=mine), now=now, key=event_key,
                                   draw=draw, default_kind=attach, in_reply_to=in_reply_to, references=references)
            mails += envelopes(judge, mailing._replace(recipients=others), now=now, key=event_key,
                               auto=AUTO_GENERATED, draw=draw, default_kind=attach)
        return mails

    def map_picture(self, reply: Reply, after: Mapping[str, GameStatus | None],
                    draw: Draw, charge: Callable[[int], bool]) -> tuple[Reply, Picture | None]:
        """The board MAP asked for (only the first MAP of a mail asks), as the mail leaves it, made now by
        `draw`: one that cannot be made (past the limits), or whose bytes the sender's reply
        limit cannot be `charge`d with (one reply each `reply_picture_bytes`), leaves the reply
        saying so."""
        requests = reply.pictures
        if not requests:
            return reply, None
        wanted = requests[0]
        status = after.get(wanted.game) if wanted.game in after else self.read(wanted.game)
        if status is None:
            return reply, None
        m = self.maps.get(status.map_name, status.morphs)
        drawn = position_picture(self.templates(), status, m, wanted.kind, (), wanted.seen,
                                 wanted.full_sight).picture
        data = draw(drawn, wanted.kind)
        if data is None:
            return not_attached(reply, wanted, wanted.unmade), None
        if not charge(len(data) // self.config.limits.reply_picture_bytes):
            return not_attached(reply, wanted, wanted.unsent), None
        return reply, drawn

    def answer(self, incoming: Incoming, reply: Reply | None, now: datetime, key: str,
               after: Mapping[str, GameStatus | None], draw: Draw) -> Mailing:
        """The reply to the mail, to as many of its recipients (the sender first, then the copies
        to the power's addresses) as the sender's reply limit still allows, with the picture MAP
        asked for (`map_picture`); none for no reply. `key`: the reply's, so that the mail
        handled again costs the sender nothing more."""
        if reply is None:
            return Mailing((), Rendered("", ""))
        warn_overlong(reply.game or "", reply.overlong, self.settings.addresses_per_player)
        recipients = reply.recipients
        granted = self.history.grant(incoming.sender, now, len(recipients), key,
                                     signed=reply.authenticated)
        if granted < len(recipients):
            log.warning("reply to %s: %d of its %d copies not sent: too many replies to this "
                        "sender", incoming.sender, len(recipients) - granted, len(recipients))
        if not granted:
            return Mailing((), Rendered("", ""))
        signed = reply.authenticated

        def charge(replies: int) -> bool:
            return replies == 0 or self.history.grant(
                incoming.sender, now, replies, f"{key}-picture", signed=signed) == replies
        reply, drawn = self.map_picture(reply, after, draw, charge)
        answer = Mailing(recipients[:granted], Rendered(*self.render(reply)))
        if drawn is None:
            return answer
        kind = reply.pictures[0].kind
        return answer._replace(picture=PictureMail(drawn, {r.lower(): kind for r in
                                                           answer.recipients}))

    def reply_text(self, reply: Reply) -> tuple[str, str]:
        """Subject and body of the one answer to a mail, from templates/reply.txt."""
        return render_reply(self.templates(), reply)

    def templates(self) -> Any:
        if self.env is None:
            self.env = environment()
        return self.env

    # -- the events' mailings --------------------------------------------------------------------
    def mailings(self, events: Sequence[object], now: datetime,
                 after: Mapping[str, GameStatus | None], replied: Sequence[str] = ()
                 ) -> list[Mailing]:
        """The events' mailings; `replied`: who got the reply (no notice of the same for them)."""
        out: list[Mailing] = []
        for game in dict.fromkeys(getattr(e, "game", "") for e in events):
            mine = [e for e in events if getattr(e, "game", "") == game]
            try:
                out += self.game_mailings(game, mine, now, after.get(game), replied)
            except Exception as exc:
                if resource_failure(exc):  # the mail is handled again later: nobody misses them
                    raise
                log.exception("game %s: the mailings of %d events could not be made", game,
                              len(mine))
        return out

    def game_mailings(self, game: str, events: list[object], now: datetime,
                      status: GameStatus | None, replied: Sequence[str] = ()) -> list[Mailing]:
        """The mail layer words the events (the game's life's and the command layer's notices);
        the game's status after the mail says who is who. A purged game has no one to tell."""
        if status is None:
            return []
        m = self.maps.get(status.map_name, status.morphs)
        mailer = Mailer(self.templates(), status, m,
                        judge=self.config.judge.id, keeper=self.config.judge.keeper,
                        addresses_per_player=self.settings.addresses_per_player,
                        replied=replied, pictures=self.config.maps.attach.lower() != "none",
                        read_geometry=partial(geometry_of, m), url=self.config.judge.url)
        return mailer.for_events(cast(list[Any], events), now)

    def read(self, game: str) -> GameStatus | None:
        """The game's status on file (None: no such game, or its status cannot be read)."""
        try:
            return persist.read_status_file(GameDir(self.store.root / game), self.games_index)[1]
        except (OSError, ValueError, StatusError):
            return None


# -- lock and read, run, render, commit ----------------------------------------------------------
Mails = Callable[[Reply | None, list[object], Mapping[str, GameStatus | None]], list[EmailMessage]]
RUNS = 5  # runs of one mail while other mails keep changing the judge-wide count under it


def carry_out(incoming: Incoming, store: GameStore, settings: Settings, now: datetime,
              maps: MapCache | None = None, render: Mails | None = None,
              receipt: str | None = None, index: persist.IndexReader | None = None,
              env: Any = None) -> tuple[Reply | None, list[object], list[EmailMessage]]:
    """One read mail against the games in `store`: the games it reads locked and read (each once,
    a change a crash left in flight completed first), its commands run (`run_mail`, which writes
    nothing), the mails it calls for made (`render`: none without), and what it did written in one
    commit (`commit`), its receipt (the mails) with its change when it changed a game; then the
    locks go. The reply, the events and the mails. AnsweredBefore: the mail's own change, cut
    short by a crash, was completed instead (its receipt answers it). `maps` and `index`: the
    parsed maps and DPjudge's games index a long-lived caller keeps between mails, `env` its
    templates (the results archive's words are made with them)."""
    with StoreGames(store, settings, maps, receipt, index) as games:
        for _ in range(RUNS):
            try:
                reply, events, change = run_read_ahead(incoming, games, settings, now)
            except ProcessingFailed as failed:  # the mail fails; its game waits for its Master
                hold_failed(games, failed.game)
                raise
            mails = render(reply, events, change.after) if render is not None else []
            sealed = (receipt, pack(mails)) if receipt and change.writes_game else None
            if commit(games, change, sealed, now, env=env):
                return reply, events, mails
    raise TimeoutError("the judge-wide count of wrong passwords kept changing under the mail")


def unanswered(msg: Message, settings: Settings, our_loop: str) -> Incoming | None:
    """The mail as its headers (`parse_headers`) tell it, when they say its commands are not run
    (`carried_out`: automatic mail, no sender to answer, the judge's own), which leaves it
    without a reply, a change or a receipt; None for a mail to read whole. Its body is never
    parsed, nor any game read: most of what a flood of robots' mail costs."""
    heads = Incoming(sender=sender_of(msg), subject="", message_id="", references=(), lines=(),
                     automatic=automatic_reason(msg, envelope_sender(msg), our_loop))
    return None if carried_out(heads, settings) else heads


def answered_before(receipt: str, kept: bytes) -> list[EmailMessage]:
    """The mails of a mail processed before a crash, from its receipt: its change was made."""
    log.warning("mail %s was processed before: answered from its receipt", receipt)
    return unpack(kept)


def warn_overlong(game: str, names: Sequence[str], limit: int) -> None:
    """A hand-edited ADDRESS line longer than SET ADDRESS allows: mailed in part, left as it is."""
    if names:
        log.warning("game %s: the ADDRESS line of %s lists more than %d addresses: only the first "
                    "%d are mailed", game, ", ".join(names), limit, limit)


def pack(mails: Sequence[EmailMessage]) -> bytes:
    """A mail's receipt: the mails it called for."""
    return json.dumps([base64.b64encode(bytes(m)).decode("ascii") for m in mails]).encode()


def unpack(receipt: bytes) -> list[EmailMessage]:
    return [message_from_bytes(base64.b64decode(raw), policy=policy.default) for raw in json.loads(receipt)]


# -- `judge mail`: the classic MTA pipe ---------------------------------------------------------
EX_OK, EX_TEMPFAIL = 0, 75  # sysexits.h: 75 makes the MTA keep the mail and try again


def with_envelope(raw: bytes, sender: str | None) -> bytes:
    """The mail as the gateway spools it, its envelope sender in a `Return-Path:` header in front:
    the MTA's `sender` argument (Postfix's ${sender}, MAILER-DAEMON for a bounce), else the mbox
    `From ` line's (a sendmail alias pipe; the line goes). Without either, the mail is kept as it
    came: a `Return-Path:` in its header block (Postfix's flags=R) is its envelope. The body is
    never read for one: a bounce quotes the headers of the mail it returns."""
    if raw.startswith(b"From "):
        first, _, raw = raw.partition(b"\n")
        words = first.split()
        if sender is None and len(words) > 1:
            sender = words[1].decode("ascii", "replace")
    if sender is None:
        return raw
    address = envelope_address(sender)
    if envelope_sender(parse_headers(raw)) == address:
        return raw  # the MTA put the same in front already
    return f"Return-Path: <{address}>\r\n".encode("utf-8", "surrogateescape") + raw


def pipe_mail(config: Config, raw: bytes, sender: str | None, now: datetime,
              handler: Callable[[bytes, datetime], list[EmailMessage]] | None = None,
              err: Callable[[str], None] = log.error) -> int:
    """Store one mail in the inbox spool (75 when that fails), process it and queue the mails it
    calls for. A failure after the mail is stored leaves it in the inbox for the daemon: still 0
    (a failure for want of a resource is not counted against the mail, see `judge.runtime.daemon`)."""
    raw = with_envelope(raw, sender)
    spools = open_spools(config, create=False)
    inbox = spools.inbox
    try:
        item = inbox.put(raw)
    except Exception as exc:
        if not isinstance(exc, OSError) and not resource_failure(exc):
            raise
        err(f"judge mail: cannot store the mail in {inbox.root}: {exc!r}")
        return EX_TEMPFAIL
    assert item is not None
    try:
        claimed = inbox.claim(item)
    except FileNotFoundError:
        return EX_OK  # the daemon took it first
    try:
        outbox = spools.outbox.create()
        queue_mails(outbox, outbox_entries((handler or MailHandler(config))(raw, now)))
        inbox.done(claimed)
    except Exception as exc:  # noqa: BLE001 - stored: the daemon tries it again, then bad/
        err(f"judge mail: processing failed, left in the inbox for the daemon: {exc!r}")
        try:
            if resource_failure(exc):
                inbox.release(claimed)
            else:
                inbox.retry(claimed, repr(exc))
        except FileNotFoundError:
            pass  # in done/ after all
        except OSError as again:  # still claimed: the daemon recovers it when it starts
            err(f"judge mail: {claimed.path} cannot be put back now: {again!r}")
    return EX_OK
