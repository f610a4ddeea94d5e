"""HELP: the player's guide (templates/_guide.txt); HELP MASTER: the Master's guide
(templates/_master_guide.txt); before or after a SIGNON."""
from __future__ import annotations

from judge.commands.auth import Level
from judge.commands.registry import Command, Stage
from judge.commands.reply import Document, Said, said
from judge.commands.session import Cursor, Refusal, Session


class Guide(Document):
    """The guide has no data of its own: the template is the whole text."""

    template = "_guide.txt"


class MasterGuide(Document):
    """The Master's guide: the template is the whole text."""

    template = "_master_guide.txt"


class Help(Command):
    name = "HELP"
    help = ("HELP: a player's guide: joining, signing on, orders, press, votes; HELP MASTER: "
            "a Master's guide: creating and running a game")
    stage = Stage.ANY
    level = Level.NONE
    writes = False
    arity = (0, 1)
    usage = "HELP takes nothing after it, or MASTER (HELP MASTER: the Master's guide)"

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        if not args:
            return said(document=Guide())
        if args[0].upper() != "MASTER":
            raise Refusal(self.usage)
        return said(document=MasterGuide())


COMMANDS: list[type[Command]] = [Help]
