"""One class per mail command (GNU Mailman 3's way), each with its name and help, and a registry by
the words that call it.

A command's `run(session, args, cursor)` changes `session.status` and returns what it did (`Said`),
which the dispatcher puts into the results buffer under the line that called it; it raises
`Refusal` to say why it cannot be done (which stops the rest of the
mail). Who may use a command, and when, is declared on the class and checked by `check_use` before
`run` is called; checks that depend on the game (its state, the phase, the rules) are in `run`.
"""
from __future__ import annotations

from enum import Flag
from typing import ClassVar

from judge.commands.auth import Level
from judge.commands.reply import Said
from judge.commands.session import Cursor, Refusal, Session


class Stage(Flag):
    BEFORE = 1  # before (or instead of) a SIGNON
    AFTER = 2  # after a SIGNON
    ANY = 3


class Command:
    name: ClassVar[str] = ""
    words: ClassVar[tuple[str, ...]] = ()  # the first word(s) that call it (default: `name`)
    help: ClassVar[str] = ""
    stage: ClassVar[Stage] = Stage.AFTER
    level: ClassVar[Level] = Level.POWER  # after a SIGNON: the password level it needs
    writes: ClassVar[bool] = True  # changes something (refused to read-only sign-ons)
    arity: ClassVar[tuple[int, ...] | None] = None  # how many words may follow it (None: any)
    usage: ClassVar[str] = ""  # the refusal when they are not that many
    secrets: ClassVar[tuple[int, ...]] = ()  # positions of words the reply shows as *** (0: it)
    outcome: ClassVar[str] = ""  # the kind of its outcome in the reply (`reply.Outcome.kind`)

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said | None:
        raise NotImplementedError

    @classmethod
    def call_words(cls) -> tuple[str, ...]:
        return cls.words or (cls.name,)

    @classmethod
    def echo(cls, line: str) -> str:
        """The line as the reply shows it, passwords masked."""
        return masked(line, *cls.secrets) if cls.secrets else line


def masked(line: str, *positions: int) -> str:
    """`line` with the words at `positions` (0: the command word) replaced by `***`."""
    words = line.split()
    for index in positions:
        if index < len(words):
            words[index] = "***"
    return " ".join(words)


def check_use(command: type[Command], session: Session, args: list[str] | None = None) -> None:
    """Refuse a command used at the wrong time, with too low a password level, or with the wrong
    number of words after it."""
    name = command.name
    if args is not None and command.arity is not None and len(args) not in command.arity:
        raise Refusal(command.usage or f"{name}: wrong number of words")
    if session.signed_on and not command.stage & Stage.AFTER:
        raise Refusal(f"{name} is not used after a SIGNON: send it in a mail of its own")
    if not session.signed_on and not command.stage & Stage.BEFORE:
        raise Refusal(f"{name} needs a SIGNON first (SIGNON Fgame password)")
    if session.signed_on:
        if session.level < command.level:
            who = {Level.MASTER: "the Master", Level.JUDGEKEEPER: "the judgekeeper"}
            raise Refusal(f"only {who.get(command.level, 'a player')} may use {name}")
        if command.writes and session.level == Level.OMNISCIENT:
            raise Refusal(f"an omniscient password gives read-only access: {name} is refused")


class Registry:
    """Commands by the words that call them; a word may name one command before a SIGNON and
    another after it (RESIGN Fgame pw / RESIGN power)."""

    def __init__(self, commands: list[type[Command]]):
        self.commands = tuple(commands)
        self._by_key: dict[str, list[type[Command]]] = {}
        for command in commands:
            for key in command.call_words():
                self._by_key.setdefault(key, []).append(command)

    def find(self, words: list[str], signed_on: bool) -> type[Command] | None:
        """The command a line's upper-case words call, preferring the one meant for this stage."""
        stage = Stage.AFTER if signed_on else Stage.BEFORE
        for key in (" ".join(words[:2]), words[0] if words else ""):
            found = self._by_key.get(key, [])
            for command in found:
                if command.stage & stage:
                    return command
            if found:
                return found[0]
        return None

    def help_lines(self) -> list[str]:
        return [f"{command.name}: {command.help}" for command in self.commands]
