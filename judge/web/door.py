"""The web's one way into a game: a form becomes the mail it stands for, carried out by the
inbox runner (`judge.runtime.inbox.MailHandler`) exactly as that mail would be: the same sign-on
and its throttle, the same checks, the same commit, the same mails in the outbox. A page is
answered with the words the mail's sender would get.

Every mail the web carries out runs under the daemon's work lock, so it takes its turn with
the mail from the inbox and the tick; `queue` puts its mails in the outbox (the daemon's own
`queue`, so a crash between the commit and the outbox is recovered as for mail: the receipt).
"""
from __future__ import annotations

import asyncio
import re
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage
from typing import TypeVar

from judge.commands.auth import MASTER_WORDS
from judge.commands.reply import PictureRequest, Reply, not_attached
from judge.runtime.inbox import MailHandler
from judge.types import GAME_NAME

# what may stand in a SIGNON line's words: one word each, nothing that would start another line
_WORD = re.compile(r"[^\s\x00-\x1f\x7f]{1,80}")
T = TypeVar("T")
# the end of MAP's line when its picture goes with the mail
_ATTACHED = re.compile(r" is attached \(\w+\)\.$")


class FormError(ValueError):
    """A form field that cannot stand in the mail it would become."""


@dataclass(frozen=True)
class Answer:
    """What a mail carried out for a page says: the text its sender would be mailed (the reply,
    or the order confirmation that stands for it), and whether a right password was given."""

    text: str
    signed_on: bool
    failed: bool
    pictures: tuple[PictureRequest, ...] = ()


@dataclass(frozen=True)
class Credentials:
    """A sign-on: the game, who (a power's name or letter, or MASTER) and the password."""

    game: str
    who: str
    password: str

    def signon_line(self) -> str:
        return f"SIGNON {self.who}@{self.game} {self.password}"

    @property
    def is_master(self) -> bool:
        return self.who.upper() in MASTER_WORDS


def game_name(text: str) -> str:
    """A game's name as a page or form gives it, checked: one word, as a mail line takes it."""
    game = text.strip().lower()
    if not GAME_NAME.fullmatch(game):
        raise FormError("a game's name is one word of letters, digits, - and _")
    return game


def credentials(game: str, who: str, password: str) -> Credentials:
    """The form's sign-on fields checked: each one word, as a SIGNON line takes them."""
    game = game_name(game)
    who, password = who.strip(), password.strip()
    if not _WORD.fullmatch(who) or "@" in who:
        raise FormError("a power's name is one word")
    if not _WORD.fullmatch(password):
        raise FormError("a password is one word")
    return Credentials(game, who, password)


def mail_bytes(judge_address: str, sender: str, lines: Sequence[str], domain: str) -> bytes:
    """The mail a form stands for, as the gateway would spool it (its envelope sender in front);
    its Message-ID is new each time, so each form is carried out once, as a new mail is."""
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = judge_address
    msg["Subject"] = "web"
    msg["Message-ID"] = f"<{secrets.token_hex(16)}@web.{domain}>"
    msg.set_content("\n".join(lines) + "\n")
    return f"Return-Path: <{sender}>\r\n".encode() + bytes(msg)


def body_lines(text: str) -> list[str]:
    """A form's text as mail lines; a SIGNOFF line ends it as it ends a mail."""
    return [line.rstrip() for line in text.replace("\r\n", "\n").split("\n")]


def on_the_page(reply: Reply) -> Reply:
    """The reply as a page shows it: a page draws the board a MAP asks for, so the line that
    would say it is attached says it is shown below."""
    for outcome in reply.outcomes:
        if outcome.picture is not None and outcome.lines:
            line = _ATTACHED.sub(" is drawn below.", outcome.lines[0])
            reply = not_attached(reply, outcome.picture, line)
    return reply


class MailDoor:
    """Carries out the mails the forms stand for (see the module's doc). `lock`: the daemon's
    work lock; `queue`: puts mails in the outbox; `clock`: now."""

    def __init__(self, handler: MailHandler, lock: asyncio.Lock,
                 queue: Callable[[list[EmailMessage]], None], clock: Callable[[], datetime],
                 wake: Callable[[], None] = lambda: None):
        self.handler = handler
        self.lock = lock
        self.queue = queue
        self.clock = clock
        self.wake = wake
        judge = handler.config.judge
        self.address = judge.address
        self.domain = judge.domain

    async def run(self, sender: str, lines: Sequence[str], *, send: bool = True) -> Answer:
        """The mail from `sender` with `lines` carried out in its turn; its mails queued."""
        raw = mail_bytes(self.address, sender, lines, self.domain)
        async with self.lock:
            reply, mails = await asyncio.to_thread(self.handler.run, raw, self.clock(),
                                                   send=send)
            if mails:
                await asyncio.to_thread(self.queue, mails)
        if mails:
            self.wake()
        return self.answer(sender, reply, mails)

    async def as_master(self, sender: str, creds: Credentials, work: Callable[[datetime], T]
                        ) -> tuple[Answer, T | None]:
        """For what no mail command does (the status file's editor): the SIGNON a mail would
        carry, run as that mail (its password checked and counted), then, when it signed on the
        game's Master, `work` done at now in the same turn under the work lock; None when not."""
        raw = mail_bytes(self.address, sender, [creds.signon_line()], self.domain)
        async with self.lock:
            reply, _ = await asyncio.to_thread(self.handler.run, raw, self.clock(), send=False)
            answer = self.answer(sender, reply, ())
            if not (answer.signed_on and creds.is_master):
                return answer, None
            return answer, await asyncio.to_thread(work, self.clock())

    async def look(self, sender: str, lines: Sequence[str]) -> Answer:
        """A mail of looks only (LIST, MAP of a game by name: no sign-on), carried out without
        waiting its turn: it locks no game and writes nothing, so a page a stranger reads is not
        held up by a tick."""
        raw = mail_bytes(self.address, sender, lines, self.domain)
        reply, _ = await asyncio.to_thread(self.handler.run, raw, self.clock(), send=False)
        return self.answer(sender, reply, ())

    def answer(self, sender: str, reply: Reply | None, mails: Sequence[EmailMessage]) -> Answer:
        own = [body for m in mails if sender.lower() in str(m.get("To", "")).lower()
               and (body := m.get_body(("plain",))) is not None]
        if own:
            text = "\n".join(str(body.get_content()) for body in own)
        elif reply is not None:
            text = self.handler.reply_text(on_the_page(reply))[1]
        else:
            text = ""
        return Answer(text, bool(reply and reply.authenticated), bool(reply and reply.failed),
                      reply.pictures if reply is not None else ())
