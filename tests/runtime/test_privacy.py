"""No mail the judge sends shows one player's address to another (anonymous games): every mailing
to several people goes out as one mail per recipient, from the mail handler and from the cycle."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest

from judge.runtime.config import Config, JudgeSection, PathsSection
from judge.runtime.inbox import MailHandler

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
MASTER = "gm@players.test"
PLAYERS = tuple(f"player{n}@players.test" for n in range(7))


def others_named(mail: EmailMessage, people: tuple[str, ...]) -> list[str]:
    """The addresses of `people` a mail shows, its own reader's aside."""
    [reader] = [a.strip().lower() for a in str(mail["To"]).split(",")]
    text = bytes(mail).decode("utf-8", "replace").lower()
    return [a for a in people if a != reader and a in text]


@pytest.fixture
def handler(tmp_path: Path) -> MailHandler:
    return MailHandler(Config(judge=JudgeSection(id="TEST", address="judge@judge.test",
                                                 keeper="keeper@judge.test"),
                              paths=PathsSection(games=tmp_path / "games", maps=tmp_path / "maps",
                                                 spool=tmp_path / "spool")))


def test_joins_and_the_start_of_a_game_name_nobody_else(handler):
    sent: list[EmailMessage] = []
    for n, (sender, body) in enumerate([(MASTER, "CREATE quiet masterpw\nmap standard\nform"),
                                        *((p, f"JOIN quiet pw{k}") for k, p in enumerate(PLAYERS))]):
        raw = (f"Return-Path: <{sender}>\r\nFrom: {sender}\r\nTo: judge@judge.test\r\n"
               f"Subject: m{n}\r\nMessage-ID: <m{n}@players.test>\r\n\r\n{body}\r\n").encode()
        sent += handler(raw, NOW + timedelta(minutes=n))
    subjects = [str(m["Subject"]) for m in sent]
    assert subjects.count("Diplomacy game quiet join notice") == 1 + 2 + 3 + 4 + 5 + 6 + 7
    assert subjects.count("Diplomacy game quiet starting") == 8
    assert sum(s.startswith("Diplomacy power assignment") for s in subjects) == 7
    assert [m for m in sent if others_named(m, (MASTER, *PLAYERS))] == []
    assert len({m["Message-ID"] for m in sent}) == len(sent)
