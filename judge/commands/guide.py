"""HELP: the player's guide (templates/_guide.txt), before or after a SIGNON."""
from __future__ import annotations

from judge.commands.auth import Level
from judge.commands.registry import Command, Stage
from judge.commands.reply import Said, said
from judge.commands.session import Cursor, Session


class Help(Command):
    name = "HELP"
    help = "HELP: a player's guide: joining, signing on, orders, press, votes"
    stage = Stage.ANY
    level = Level.NONE
    writes = False
    arity = (0,)
    usage = "HELP takes nothing after it"

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        return said(piece="guide")


COMMANDS: list[type[Command]] = [Help]
