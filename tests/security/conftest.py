"""Fixtures of the attacks: a judge holding the `vienna` game, and the mail handler the daemon runs
(raw bytes in, the mails the judge would send out). Mails are written with tests/support/mail.py."""
from __future__ import annotations

from pathlib import Path

import pytest

from judge.runtime.config import Config, JudgeSection, PathsSection
from judge.runtime.inbox import MailHandler
from tests.support.commands import GAMES, Judge
from tests.support.mail import JUDGE_ADDRESS, KEEPER


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
