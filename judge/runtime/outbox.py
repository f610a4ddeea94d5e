"""The outbox sender: drains the outbox spool to the relay over SMTP, and never loses a mail.

A mail leaves the outbox only when the relay has accepted it (it is then kept in `done/`, which also
remembers its id). A relay that cannot be reached, or answers 4xx, is tried again with exponential
backoff; a 5xx answer moves the mail to `failed/` and queues an alert to the judgekeeper (its words:
templates/mail_not_delivered.txt). A mail the relay keeps refusing with 4xx for `give_up_after`
also ends in `failed/`, as does one with no recipient recorded: only the mail's own failures move
it there, never a crash of the judge while it was being sent (`Spool.crash_counts`). Why it
failed is kept beside it (`Spool.reason_of`), so the alert says so even after a restart. An alert
the outbox cannot take (a disk full) is queued at a later drain: the judgekeeper is told of each
mail in `failed/` once (`Spool.untold`). With no relay configured nothing is sent: the mail waits
(`judge outbox` lists it).

smtplib runs in a worker thread (`asyncio.to_thread`), one connection per batch, with a timeout.
A picture the cycle kept as its SVG is made in the format its reader wants right before its mail is
sent (`judge.mailout.envelope.with_pictures`), made and written as a MIME part once per picture and
format in a batch (`PictureParts`), and let go soon after its last reader; one that cannot be made
is logged and the mail goes without it.
"""
from __future__ import annotations

import asyncio
import logging
import re
import smtplib
import ssl
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.parser import BytesHeaderParser
from enum import Enum

import jinja2

from judge.runtime.config import JudgeSection, SmtpOutSection
from judge.errors import resource_failure
from judge.limits import Limits
from judge.mailout.envelope import Draw, PictureParts, envelopes, outgoing, with_pictures
from judge.mailout.notices.keeper import outbox_alert
from judge.mailout.render import environment
from judge.runtime.pictures import encoder
from judge.runtime.spool import Item, Spool, outbox_entries, queue_mails

log = logging.getLogger("judge.mailout")

ALERT_PREFIX = "alert-"
CRLF = re.compile(rb"\r?\n")
CONNECTION = "connection: "
NO_RECIPIENT = "no recipient recorded by the judge: not sent"


class Outcome(Enum):
    SENT = "sent"
    RETRY = "retry"  # 4xx, or the relay could not be reached: try again later
    FAILED = "failed"  # 5xx: the relay will never take it


class Cause(Enum):
    """Why a mail ended in `failed/` (or, `REFUSED` with `partly`, was refused some recipients)."""

    REFUSED = "refused"  # the relay answered 5xx
    DEFERRED = "deferred"  # the relay answered 4xx for `give_up_after`
    UNSENDABLE = "unsendable"  # nothing the judge could send (no recipient recorded)


class RelayUnavailable(Exception):
    """The relay could not be reached or refused the session (not the mail's fault)."""


@dataclass
class Backoff:
    """Exponential backoff: base, 2 base, 4 base ... capped."""

    base: float = 30.0
    cap: float = 3600.0
    attempts: int = 0

    def next_delay(self) -> float:
        delay = min(self.cap, self.base * (2 ** self.attempts))
        self.attempts += 1
        return delay

    def reset(self) -> None:
        self.attempts = 0


def undelivered_alert(judge: JudgeSection, env: jinja2.Environment, item: Item, raw: bytes,
                      cause: Cause, reason: str, now: datetime, *, partly: bool = False
                      ) -> list[EmailMessage]:
    """The judgekeeper's alert about a mail that could not be delivered, for `cause` (`partly`:
    the relay refused some of its recipients only), where `item` now lies; keyed by the mail's
    id, so it is queued once."""
    original = message_from_bytes(raw, policy=policy.default)
    mailings = outbox_alert(env, judge.keeper, judge.id, id=item.id, queued=item.arrived,
                            to=str(original.get("To", "")),
                            subject=str(original.get("Subject", "")), reason=reason,
                            partly=partly, folder=str(item.path.parent), cause=cause.value)
    return [message for mailing in mailings
            for message in envelopes(judge, mailing, now=now, key=f"{ALERT_PREFIX}{item.id}")]


@dataclass
class OutboxSender:
    outbox: Spool
    relay: SmtpOutSection
    judge: JudgeSection
    templates: jinja2.Environment | None = None  # for the alerts; the bundled ones by default
    clock: Callable[[], datetime] = lambda: datetime.now(UTC)
    backoff_base: float = 30.0
    backoff_cap: float = 3600.0
    give_up_after: timedelta = timedelta(days=5)
    timeout: float = 60.0
    # a batch's maker of pictures (each made once in it); the daemon's draws within its [limits]
    pictures: Callable[[], Draw] = lambda: encoder(Limits())
    draw: PictureParts | None = field(default=None, init=False)  # the batch's, while it is sent
    relay_backoff: Backoff = field(init=False)
    relay_not_before: float = 0.0  # loop time before which the relay is not tried again
    not_before: dict[str, float] = field(default_factory=dict)  # id -> loop time of next try
    mail_backoff: dict[str, Backoff] = field(default_factory=dict)
    unqueued: list[EmailMessage] = field(default_factory=list)  # alerts the outbox could not take

    def __post_init__(self) -> None:
        self.relay_backoff = Backoff(self.backoff_base, self.backoff_cap)

    # -- one batch, blocking (runs in a thread) -------------------------------------------------
    def drain(self, now_mono: float) -> float:
        """Send every waiting mail that is due; return seconds until something is due again
        (infinity when nothing waits)."""
        if now_mono < self.relay_not_before:
            return self.relay_not_before - now_mono
        due = [item for item in self.outbox.waiting()
               if self.not_before.get(item.id, 0) <= now_mono]
        if due:
            try:
                with self.connect() as smtp:
                    self.draw = PictureParts(self.pictures())
                    for item in due:
                        self.send_item(smtp, item, now_mono)
            except RelayUnavailable as exc:
                delay = self.relay_backoff.next_delay()
                self.relay_not_before = now_mono + delay
                log.warning("relay %s:%s unavailable (%s); next try in %.1f s", self.relay.host,
                            self.relay.port, exc, delay)
                return delay
            finally:
                self.draw = None  # the batch's pictures are not kept
            self.relay_backoff.reset()
        self.tell_keeper()
        tried = {item.id for item in due}
        if any(item.id not in tried and self.not_before.get(item.id, 0) <= now_mono
               for item in self.outbox.waiting()):
            return 0.0  # queued meanwhile (a keeper alert, say): send it now
        later = [t - now_mono for t in self.not_before.values()]
        return max(0.0, min(later)) if later else float("inf")

    def connect(self) -> smtplib.SMTP:
        try:
            smtp = smtplib.SMTP(self.relay.host, self.relay.port, timeout=self.timeout)
        except (OSError, smtplib.SMTPException) as exc:
            raise RelayUnavailable(str(exc) or type(exc).__name__) from exc
        try:
            smtp.ehlo()
            if self.relay.starttls:
                smtp.starttls(context=ssl.create_default_context())
                smtp.ehlo()
            if self.relay.user:
                smtp.login(self.relay.user, self.relay.password)
        except (OSError, smtplib.SMTPException) as exc:
            smtp.close()
            raise RelayUnavailable(str(exc) or type(exc).__name__) from exc
        return smtp

    def send_item(self, smtp: smtplib.SMTP, item: Item, now_mono: float) -> Outcome:
        try:
            claimed = self.outbox.claim(item)
        except FileNotFoundError:  # taken meanwhile by another sender
            return Outcome.SENT
        raw = self.outbox.read(claimed)
        try:
            outcome, reason = self.submit(smtp, raw)
        except Exception:  # a resource failure while making a picture, say: tried again later
            self.outbox.release(claimed)
            raise
        if outcome is Outcome.SENT:
            done = self.outbox.done(claimed)
            self.forget(item.id)
            log.info("sent %s", item.id)
            if reason:  # some recipients were refused: never sent twice, but the keeper is told
                log.error("relay refused some recipients of %s: %s", item.id, reason)
                self.alert(done, raw, Cause.REFUSED, reason, partly=True)
        elif outcome is Outcome.RETRY and reason.startswith(CONNECTION):
            self.outbox.release(claimed)
            raise RelayUnavailable(reason)
        elif outcome is Outcome.RETRY and self.clock() - item.arrived < self.give_up_after:
            self.outbox.release(claimed)
            backoff = self.mail_backoff.setdefault(item.id, Backoff(self.backoff_base,
                                                                    self.backoff_cap))
            delay = backoff.next_delay()
            self.not_before[item.id] = now_mono + delay
            log.warning("relay deferred %s (%s); next try in %.1f s", item.id, reason, delay)
        else:
            cause = Cause.UNSENDABLE if reason == NO_RECIPIENT else \
                Cause.REFUSED if outcome is Outcome.FAILED else Cause.DEFERRED
            self.outbox.fail(claimed, recorded_reason(cause, reason))
            self.forget(item.id)
            log.error("mail %s failed for good: %s", item.id, reason)
        return outcome

    def submit(self, smtp: smtplib.SMTP, raw: bytes) -> tuple[Outcome, str]:
        """Hand one mail to the relay, to the recipient the judge recorded when it built the mail
        (never one read from its headers), its pictures made (by the batch's `draw`); what came
        of it and the relay's words."""
        recipient, message = outgoing(raw)
        if not recipient:
            return Outcome.FAILED, NO_RECIPIENT
        message = self.with_pictures(message, self.draw or PictureParts(self.pictures()))
        try:
            refused = smtp.sendmail(self.judge.address, [recipient], with_crlf(message))
        except smtplib.SMTPRecipientsRefused as exc:
            codes = [code for code, _ in exc.recipients.values()]
            kind = Outcome.RETRY if any(400 <= c < 500 for c in codes) else Outcome.FAILED
            return kind, refusals(exc.recipients)
        except smtplib.SMTPResponseException as exc:
            text = exc.smtp_error.decode(errors="replace") if isinstance(exc.smtp_error, bytes) \
                else str(exc.smtp_error)
            kind = Outcome.FAILED if 500 <= exc.smtp_code < 600 else Outcome.RETRY
            return kind, f"{exc.smtp_code} {text}"
        except (OSError, smtplib.SMTPException) as exc:
            return Outcome.RETRY, f"{CONNECTION}{exc or type(exc).__name__}"
        return Outcome.SENT, refusals(refused)

    @staticmethod
    def with_pictures(message: bytes, draw: PictureParts) -> bytes:
        """The mail with its pictures made (`with_pictures`); as stored when that fails (logged):
        a picture never holds its mail back."""
        try:
            return with_pictures(message, draw)
        except Exception as exc:
            if resource_failure(exc):
                raise
            log.exception("the pictures of a mail could not be made: sent as stored")
            return message

    def alert(self, item: Item, raw: bytes, cause: Cause, reason: str,
              partly: bool = False) -> None:
        """Make the keeper's alert about `item`; `tell_keeper` queues it."""
        if item.id.startswith(ALERT_PREFIX):
            return  # an alert that cannot be delivered is not alerted about
        if self.templates is None:
            self.templates = environment()
        self.unqueued += undelivered_alert(self.judge, self.templates, item, raw, cause, reason,
                                           self.clock(), partly=partly)

    def tell_keeper(self) -> None:
        """Queue the alerts made, and one about each mail in `failed/` the judgekeeper has not
        been told of, with the reason kept beside it. When the outbox cannot take them (a disk
        full), they wait for a later drain."""
        try:
            self.queue_alerts()
            for item in self.outbox.untold():
                try:
                    cause, reason = read_reason(self.outbox.reason_of(item))
                    self.alert(item, self.outbox.read(item), cause, reason)
                except Exception as exc:
                    if resource_failure(exc):
                        raise
                    log.exception("the judgekeeper cannot be told of %s by mail", item.path)
                self.queue_alerts()
                self.outbox.told(item)
        except Exception as exc:
            if not resource_failure(exc):
                raise
            log.warning("the judgekeeper's alerts wait for room in the outbox: %r", exc)

    def queue_alerts(self) -> None:
        while self.unqueued:
            message = self.unqueued[0]
            try:
                queue_mails(self.outbox, outbox_entries([message]))
            except Exception as exc:
                if resource_failure(exc):
                    raise
                log.exception("an alert to the judgekeeper cannot be queued")
            self.unqueued.pop(0)

    def forget(self, id: str) -> None:
        self.not_before.pop(id, None)
        self.mail_backoff.pop(id, None)

    # -- the loop -----------------------------------------------------------------------------
    async def run(self, stop: asyncio.Event, wake: asyncio.Event, poll: float = 10.0) -> None:
        """Drain when woken, every `poll` seconds, and when a backoff ends, until `stop`."""
        loop = asyncio.get_running_loop()
        while not stop.is_set():
            wake.clear()
            try:
                wait = await asyncio.to_thread(self.drain, loop.time())
            except Exception:  # a bug here must not stop the sender for good
                log.exception("outbox sender failed; trying again later")
                wait = self.relay_backoff.next_delay()
            await wait_any(stop, wake, max(min(poll, wait), 0.01))


def recorded_reason(cause: Cause, reason: str) -> str:
    """What `failed/` keeps of why a mail is there: its cause, then the relay's words."""
    return f"{cause.value}\n{reason}"


def read_reason(recorded: str) -> tuple[Cause, str]:
    """`recorded_reason` read back; a mail failed without one was refused, reason unknown."""
    cause, _, reason = recorded.partition("\n")
    try:
        return Cause(cause), reason
    except ValueError:
        return Cause.REFUSED, ""


def with_crlf(raw: bytes) -> bytes:
    """The mail with CRLF line ends, as SMTP wants them (the outbox keeps what bytes() made)."""
    return CRLF.sub(b"\r\n", raw)


def refusals(recipients: dict[str, tuple[int, bytes]]) -> str:
    return "; ".join(f"{rcpt}: {code} {text.decode(errors='replace')}"
                     for rcpt, (code, text) in recipients.items())


def outbox_lines(outbox: Spool) -> list[str]:
    """`judge outbox`: one line per mail waiting, being sent, or failed, oldest first."""
    rows = [("waiting", item) for item in outbox.waiting()] + \
        [("sending", item) for item in outbox.claimed()] + \
        [("FAILED", item) for item in outbox.failed()]
    lines = []
    for state, item in sorted(rows, key=lambda row: row[1].arrival_ns):
        try:
            head = BytesHeaderParser(policy=policy.default).parsebytes(outbox.read(item))
            to, subject = str(head.get("To", "")), str(head.get("Subject", ""))
        except Exception:  # moved meanwhile, or a header the parser cannot read
            to = subject = "?"
        lines.append(f"{item.arrived:%Y-%m-%d %H:%M:%S}  {state:7}  {item.id}  to {to}: {subject}")
    waiting = sum(1 for state, _ in rows if state != "FAILED")
    lines.append(f"{waiting} waiting, {len(rows) - waiting} failed ({outbox.root})")
    return lines


async def wait_any(stop: asyncio.Event, wake: asyncio.Event, timeout: float) -> None:
    tasks = [asyncio.ensure_future(stop.wait()), asyncio.ensure_future(wake.wait())]
    try:
        await asyncio.wait(tasks, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
