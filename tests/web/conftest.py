"""A judge with one game in play, made by mail, and its pages through Starlette's test client."""
from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from judge.runtime.config import Config, JudgeSection, PathsSection
from judge.runtime.inbox import MailHandler
from judge.runtime.spool import open_spools, outbox_entries, queue_mails
from judge.web.app import make_app
from judge.web.door import MailDoor

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
MASTER = "gm@players.test"
PLAYERS = tuple(f"player{n}@players.test" for n in range(7))
BASE = "/games"


def raw_mail(sender: str, body: str, n: int | str) -> bytes:
    return (f"Return-Path: <{sender}>\r\nFrom: {sender}\r\nTo: judge@judge.test\r\n"
            f"Subject: web\r\nMessage-ID: <m{n}@players.test>\r\n\r\n{body}\r\n").encode()


def judge_config(root: Path, url: str = "https://judge.test" + BASE) -> Config:
    return Config(judge=JudgeSection(id="TEST", address="judge@judge.test",
                                     keeper="keeper@judge.test", url=url),
                  paths=PathsSection(games=root / "games", maps=root / "maps",
                                     spool=root / "spool"))


def start_game(handler: MailHandler, name: str = "quiet", *extra: str, at: datetime = NOW
               ) -> list[EmailMessage]:
    """A standard game started by mail at `at`: the Master's CREATE, then seven JOINs (passwords
    pw0..)."""
    sent: list[EmailMessage] = []
    lines = [f"CREATE {name} masterpw", "map standard", *extra, "form"]
    mails = [(MASTER, "\n".join(lines)),
             *((p, f"JOIN {name} pw{k}") for k, p in enumerate(PLAYERS))]
    for n, (sender, body) in enumerate(mails):
        sent += handler(raw_mail(sender, body, f"{name}{n}"), at + timedelta(minutes=n))
    return sent


class Clock:
    def __init__(self, now: datetime = NOW + timedelta(hours=1)):
        self.now = now

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def config(tmp_path: Path) -> Config:
    return judge_config(tmp_path)


@pytest.fixture
def handler(config: Config) -> MailHandler:
    made = MailHandler(config)
    start_game(made)
    return made


def outbox_of(config: Config) -> list[bytes]:
    outbox = open_spools(config).outbox
    return [outbox.read(item) for item in outbox.waiting()]


@pytest.fixture
def clock() -> Clock:
    return Clock()


def pages(config: Config, handler: MailHandler, clock: Clock) -> TestClient:
    """The pages of the judge `handler` runs, their mails queued in its outbox."""
    spools = open_spools(config)
    door = MailDoor(handler, asyncio.Lock(),
                    lambda mails: queue_mails(spools.outbox, outbox_entries(mails)), clock)
    return TestClient(make_app(config, door, secret="test-secret"), base_url="https://judge.test")


@pytest.fixture
def client(config: Config, handler: MailHandler, clock: Clock):
    with pages(config, handler, clock) as made:
        yield made


def form(client: TestClient, path: str, **fields: object):
    """Post a form with the page's CSRF token, as a browser would."""
    page = client.get(BASE + "/signon")
    token = page.text.split('name="csrftoken" value="')[1].split('"')[0]
    return client.post(BASE + path, data={"csrftoken": token, **fields}, follow_redirects=False)


def sign_on(client: TestClient, config: Config, power: str = "FRANCE",
            password: str | None = None, game: str = "quiet"):
    return form(client, "/signon", game=game, power=power,
                password=password if password is not None else password_of(config, power, game))


def password_of(config: Config, power: str, game: str = "quiet") -> str:
    """The password its player JOINed with (player<k> joined with pw<k>)."""
    text = (config.paths.games / game / "status").read_text()
    block = text.split(f"POWER {power}\n")[1]
    address = block.split("ADDRESS ")[1].split()[0]
    return "pw" + address.removeprefix("player").split("@")[0]
