"""A judge folder for the cycle tests (judge.toml, games, spool), games started in it, mail arriving
(orders stored, then `after_mail`; or a real mail carried out as the daemon's inbox runner does),
`judge check --now` run in-process, and the outbox."""
from __future__ import annotations

import contextlib
import io
from collections.abc import Callable, Sequence
from datetime import datetime
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

from judge.cli import main
from judge.runtime.config import load_config
from judge.game import join
from judge.runtime.commit import run
from judge.runtime.commit import new_game
from judge.runtime.inbox import MailHandler
from judge.status import parse_status
from judge.status.model import GameStatus
from judge.runtime.store import GameStore
from judge.game.schedule import after_mail
from tests.support.games import player

KEEPER = "keeper@example.test"
MASTER = "gm@example.test"


class Judge:
    """A judge folder and the commands a test runs in it."""

    def __init__(self, root: Path):
        self.root = root
        (root / "judge.toml").write_text(
            '[judge]\nid = "TEST"\naddress = "judge@example.test"\n'
            f'keeper = "{KEEPER}"\n[paths]\n'
            f'games = "{root / "games"}"\nspool = "{root / "spool"}"\nmaps = "{root / "maps"}"\n')
        self.config = load_config(root / "judge.toml")
        self.store = GameStore(root / "games")
        self.handler: MailHandler | None = None
        self.mails_sent = 0

    def send(self, sender: str, body: str, now: datetime) -> list[EmailMessage]:
        """A mail from `sender` carried out by the inbox runner: the mails it calls for."""
        if self.handler is None:
            self.handler = MailHandler(self.config)
        self.mails_sent += 1
        raw = (f"Return-Path: <{sender}>\r\nFrom: {sender}\r\nTo: judge@example.test\r\n"
               f"Subject: mail {self.mails_sent}\r\n"
               f"Message-ID: <m{self.mails_sent}@players.test>\r\n\r\n"
               + body.replace("\n", "\r\n") + "\r\n").encode()
        return self.handler(raw, now)

    def check(self, now: datetime, *words: str) -> tuple[int, list[str]]:
        """`judge check --config ... --now NOW [words]`: the exit code and the lines printed."""
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = main(["check", "--config", str(self.root / "judge.toml"), "--now", now.isoformat(),
                         *words])
        return code, out.getvalue().splitlines()

    def start(self, name: str, lines: Sequence[str], now: datetime) -> GameStatus:
        """A standard game with a Master and seven players, started at `now`."""
        new_game(self.store, name, "standard", MASTER, "pw", list(lines))
        for n in range(7):
            run(self.store, name, lambda s, m, n=n: join(s, m, now, player(n), "pw"))
        return self.status(name)

    def status(self, name: str) -> GameStatus:
        with self.store.locked(name) as game:
            return parse_status(game.read_status())

    def mail_in(self, name: str, change: Callable[[GameStatus], GameStatus], now: datetime) -> None:
        """What a mail would do: change the status, then the judge's own moves (`after_mail`)."""
        def action(status, m):
            return after_mail(status, change(status), m, now)
        run(self.store, name, action)

    def take_outbox(self) -> list[EmailMessage]:
        """The mails in the outbox, taken out of it (so the next call sees only newer ones)."""
        folder = self.root / "spool" / "outbox"
        mails = []
        for path in sorted(folder.glob("*.eml")) if folder.is_dir() else []:
            mails.append(message_from_bytes(path.read_bytes(), policy=policy.default))
            path.unlink()
        return mails  # type: ignore[return-value]


def recipients(mail: EmailMessage) -> set[str]:
    return {a.strip() for a in str(mail["To"]).split(",")}
