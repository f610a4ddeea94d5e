"""The attacker's kit: mails written on the spot, a judge holding the `vienna` game, and the mail
handler the daemon runs (raw bytes in, the mails the judge would send out)."""
from __future__ import annotations

from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest

from judge.runtime.config import Config, JudgeSection, PathsSection
from judge.runtime.inbox import MailHandler
from tests.commands.conftest import GAMES, NOW, Judge

JUDGE_ADDRESS = "judge@example.org"
KEEPER = "keeper@example.net"


def mail(sender: str, *lines: str, subject: str = "orders", headers: tuple[str, ...] = (),
         number: int = 0) -> bytes:
    """A plain-text mail from `sender` with `lines` as its body (`number` makes it a new mail)."""
    head = [f"Return-Path: <{sender}>", f"From: {sender}", f"To: {JUDGE_ADDRESS}",
            f"Subject: {subject}", f"Message-ID: <attack{number}.{abs(hash(lines)) % 10**8}@x.test>",
            "MIME-Version: 1.0", "Content-Type: text/plain; charset=UTF-8", *headers]
    return ("\r\n".join(head) + "\r\n\r\n" + "\r\n".join(lines) + "\r\n").encode("utf-8")


def minutes(n: float) -> timedelta:
    return timedelta(minutes=n)


@pytest.fixture
def vienna(tmp_path: Path) -> Judge:
    judge = Judge(tmp_path / "games")
    judge.add("vienna")
    return judge


@pytest.fixture
def config(tmp_path: Path) -> Config:
    return Config(judge=JudgeSection(id="TEST", address=JUDGE_ADDRESS, keeper=KEEPER,
                                     password="jkpass"),
                  paths=PathsSection(games=tmp_path / "games", maps=tmp_path / "maps",
                                     spool=tmp_path / "spool"))


@pytest.fixture
def handler(config: Config) -> MailHandler:
    handler = MailHandler(config)
    handler.store.create("vienna", (GAMES / "vienna.status").read_text())
    return handler


IDENTIFIERS = ("Message-ID", "In-Reply-To", "References", "Date")  # hashes and clocks: any digits


def texts(mails: list[EmailMessage]) -> str:
    """Everything the judge would send, headers and bodies, as one text to search; identifiers and
    dates are left out, since a hash may hold any digits (`49` is no proof of a rendered `{{7*7}}`)."""
    def visible(m: EmailMessage) -> str:
        head = "".join(f"{k}: {v}\n" for k, v in m.items() if k not in IDENTIFIERS)
        return head + m.get_content()
    return "\n".join(visible(m) for m in mails)


__all__ = ["NOW", "mail", "minutes", "texts"]
