"""A judge in a temporary folder, real .eml fixtures sent to it, and what came back.

`judge.add("vienna", rules=...)` installs a game from `games/<name>.status` (with extra RULE lines);
`judge.send("orders.eml")` carries out a mail as the daemon would and returns the reply (as data
and as rendered text) and the events; `judge.status(name)` / `judge.text(name)` read the game back.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime
from email import message_from_bytes, policy
from pathlib import Path

from judge.commands.reply import Outcome, Reply
from judge.commands.session import Settings
from judge.mailin.message import read_message
from judge.mailout.mailings import Mailer, render_reply
from judge.mailout.render import environment
from judge.maps import MapCache
from judge.mailin.message import envelope_sender
from judge.runtime.game_files import IndexReader
from judge.runtime.inbox import carry_out
from judge.status import parse_status, write_status
from judge.status.model import GameStatus
from judge.runtime.store import GameStore

HERE = Path(__file__).parent.parent / "commands"  # the command tests' .eml mails and games
EML = HERE / "eml"
GAMES = HERE / "games"
NOW = datetime(2025, 2, 9, 12, 0, tzinfo=UTC)  # vienna's deadline is Mon 10 Feb 18:00 Vienna
LATE = datetime(2025, 2, 11, 9, 0, tzinfo=UTC)  # after it
MAPS = MapCache()  # parsed maps shared by the tests (maps are immutable values)
SETTINGS = Settings(judge_id="TEST", address="judge@example.org", keeper="keeper@example.net",
                    keeper_password="jkpass")


def eml(name: str, *changes: tuple[bytes, bytes]) -> bytes:
    """A fixture's bytes with some text replaced (the same mail for another game or sender)."""
    raw = (EML / name).read_bytes()
    for old, new in changes:
        assert old in raw, f"{old!r} is not in {name}"
        raw = raw.replace(old, new)
    return raw


TEMPLATES = environment()  # the replies players get are rendered from templates/reply.txt


@dataclass
class Sent:
    reply: Reply | None
    events: list

    @property
    def text(self) -> str:
        return render_reply(TEMPLATES, self.reply)[1] if self.reply is not None else ""

    @property
    def prose(self) -> str:
        """The reply's words with the template's line wrapping undone, to look for a phrase."""
        return " ".join(self.text.split())

    def outcome(self, command: str) -> Outcome:
        """The first outcome whose echoed command starts with `command` (case-insensitive)."""
        assert self.reply is not None, "no reply"
        for outcome in self.reply.outcomes:
            if outcome.command.upper().startswith(command.upper()):
                return outcome
        raise AssertionError(f"no outcome for {command!r} in:\n{self.text}")

    def events_of(self, kind: type) -> list:
        return [e for e in self.events if isinstance(e, kind)]

    @property
    def failed(self) -> bool:
        return self.reply is not None and self.reply.failed


class Judge:
    def __init__(self, root: Path, settings: Settings = SETTINGS):
        self.store = GameStore(root)
        self.settings = settings
        self.index = IndexReader()  # kept between mails, as the daemon keeps it

    def add(self, name: str, *, rules: tuple[str, ...] = (), fixture: str | None = None,
            **changes: object) -> GameStatus:
        status = parse_status((GAMES / f"{fixture or name}.status").read_text(encoding="utf-8"))
        status = replace(status, name=name, rules=status.rules | frozenset(rules), **changes)
        self.store.create(name, write_status(status))
        return status

    def send(self, eml: str | bytes, now: datetime = NOW) -> Sent:
        raw = eml if isinstance(eml, bytes) else (EML / eml).read_bytes()
        msg = message_from_bytes(raw, policy=policy.default)
        incoming = read_message(raw, envelope_sender(msg), self.settings.address)
        reply, events, _ = carry_out(incoming, self.store, self.settings, now, MAPS, index=self.index)
        return Sent(reply, events)

    def text(self, name: str) -> str:
        return (self.store.root / name / "status").read_text(encoding="utf-8")

    def status(self, name: str) -> GameStatus:
        return parse_status(self.text(name))

    def results(self, name: str, events: list) -> str:
        """The body of the results mail the events make for the game's players."""
        status = self.status(name)
        mails = Mailer(TEMPLATES, status, MAPS.get(status.map_name),
                       judge=self.settings.judge_id).for_events(events)
        return next(m.rendered.body for m in mails if "results" in m.rendered.subject)
