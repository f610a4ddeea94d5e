"""The SMTP gateway: an aiosmtpd handler that accepts mail for the judge and spools it, no more.

It answers `250` only once the raw message is on disk (temp, fsync, rename) and `451` when it cannot
store it, so the sending MTA keeps the mail and retries. It accepts only the judge's own address
(and `local+tag@domain` sub-addresses): `550` for anything else, so it is never an open relay. The
size cap answers `552`. The message is stored as received, with the `Return-Path:` (the envelope
sender, `<>` for a bounce) and `X-Original-To:` lines a final delivery adds in front. It runs in
a process of its own under the daemon (`judge.runtime.gateway_process`); mails stored at the same
time share the inbox folder's fsync (`spool.FolderSync`).
"""
from __future__ import annotations

import asyncio
import functools
import logging
import socket
from collections.abc import Callable

from aiosmtpd.smtp import SMTP, Envelope, Session

from judge.runtime.config import JudgeSection
from judge.mailin.message import envelope_address
from judge.runtime.spool import Spool

log = logging.getLogger("judge.mailin.smtp")

OK_QUEUED = "250 2.0.0 OK: queued"
OK_RECIPIENT = "250 2.1.5 OK"
SHUTTING_DOWN = "421 4.3.2 Service shutting down, try again later"
CANNOT_STORE = "451 4.3.0 Cannot store the message now, try again later"
LOCAL_ERROR = "451 4.3.0 Local error, try again later"
NOT_OURS = "550 5.7.1 Relaying denied: no such recipient here"
TOO_BIG = "552 5.3.4 Message too big"


def accepts_address(judge: JudgeSection) -> Callable[[str], bool]:
    """The judge's own address, and `local+anything@domain`, in any letter case."""
    return accepts_address_of(judge.address)


def accepts_address_of(own: str) -> Callable[[str], bool]:
    """`own`, and `local+anything@domain` of it, in any letter case."""
    local, _, domain = own.lower().rpartition("@")

    def accepts(address: str) -> bool:
        their_local, at, their_domain = address.lower().rpartition("@")
        return bool(at) and their_domain == domain and \
            (their_local == local or their_local.startswith(local + "+"))
    return accepts


def delivery_headers(mail_from: str | None, rcpt_tos: list[str]) -> bytes:
    """What a final delivery puts in front of the message (RFC 5321 section 4.4)."""
    sender = envelope_address(mail_from or "")  # aiosmtpd gives "<>" for a bounce
    lines = [f"Return-Path: <{sender}>"]
    lines += [f"X-Original-To: {rcpt}" for rcpt in rcpt_tos]
    return ("\r\n".join(lines) + "\r\n").encode("utf-8", "surrogateescape")


class Gateway:
    """The aiosmtpd handler (the hooks aiosmtpd calls are the `handle_*` methods)."""

    def __init__(self, inbox: Spool, accepts: Callable[[str], bool], max_bytes: int,
                 stored: Callable[[], None] = lambda: None,
                 refused: Callable[[OSError], None] = lambda exc: None):
        self.inbox = inbox
        self.accepts = accepts
        self.max_bytes = max_bytes
        self.stored = stored  # called on the loop after each message is spooled
        self.refused = refused  # called on the loop when the spool could not take a message
        self.closing = False
        self.storing = 0  # messages being written to the spool right now

    async def handle_MAIL(self, server: SMTP, session: Session, envelope: Envelope,
                          address: str, mail_options: list[str]) -> str:
        if self.closing:
            return SHUTTING_DOWN
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return "250 2.1.0 OK"

    async def handle_RCPT(self, server: SMTP, session: Session, envelope: Envelope,
                          address: str, rcpt_options: list[str]) -> str:
        if self.closing:
            return SHUTTING_DOWN
        if not self.accepts(address):
            log.info("refused recipient %s from %s", address, session.peer)
            return NOT_OURS
        envelope.rcpt_tos.append(address)
        return OK_RECIPIENT

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        raw = envelope.original_content or b""
        if len(raw) > self.max_bytes:
            return TOO_BIG
        data = delivery_headers(envelope.mail_from, envelope.rcpt_tos) + raw
        self.storing += 1
        try:
            item = await asyncio.to_thread(self.inbox.put, data)
        except OSError as exc:
            log.error("cannot spool a mail from %s: %s", envelope.mail_from, exc)
            self.refused(exc)
            return CANNOT_STORE
        finally:
            self.storing -= 1
        log.info("spooled %s from <%s>", item.id if item else "?", envelope.mail_from)
        self.stored()
        return OK_QUEUED

    async def settled(self, limit: float = 10.0) -> None:
        """Wait (at most `limit` seconds) until no message is half-way into the spool."""
        loop = asyncio.get_running_loop()
        end = loop.time() + limit
        while self.storing and loop.time() < end:
            await asyncio.sleep(0.01)

    async def handle_exception(self, error: Exception) -> str:
        log.error("SMTP session error", exc_info=error)
        return LOCAL_ERROR


class GatewaySMTP(SMTP):
    """aiosmtpd's SMTP, but a client may skip HELO, as Postfix allows by default
    (`smtpd_helo_required = no`): minimal senders and scripts go straight to MAIL."""

    async def check_helo_needed(self, helo: str = "HELO") -> bool:
        if self.session is not None and not self.session.host_name:
            self.session.host_name = "unknown"
        return await super().check_helo_needed(helo)


async def start_gateway(gateway: Gateway, sock: socket.socket, hostname: str) -> asyncio.Server:
    """Serve the listening `sock` on the running loop (not aiosmtpd's threaded Controller)."""
    loop = asyncio.get_running_loop()
    factory = functools.partial(GatewaySMTP, gateway, hostname=hostname,
                                data_size_limit=gateway.max_bytes, enable_SMTPUTF8=True,
                                decode_data=False, timeout=300, loop=loop)
    return await loop.create_server(factory, sock=sock)
