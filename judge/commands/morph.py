"""MORPH: map-file lines added to the game (`MORPH line`, or `MORPH` ... `END MORPH`).

The lines are checked by parsing the game's map with them (the map parser reads a game's MORPH
lines as the end of its map) before the use case (`judge.app.morph`) accepts them. They take
effect from then on: the status file keeps them, and every map the game loads is parsed with them.
"""
from __future__ import annotations

from judge.app import morph
from judge.commands.master import MasterCommand
from judge.commands.registry import Command
from judge.commands.reply import Said, said
from judge.commands.session import Cursor, Refusal, Session
from judge.errors import MapError
from judge.maps.loader import without_folders

MAX_PROBLEMS = 10


def read_block(cursor: Cursor) -> list[str]:
    lines, ended = cursor.take_until(lambda words: words[:2] == ["END", "MORPH"])
    if not ended:
        raise Refusal("MORPH alone on a line starts map lines that END MORPH must close")
    return [line.strip() for line in lines if line.strip()]


class Morph(MasterCommand):
    name = "MORPH"
    help = "MORPH mapFileLine, or MORPH, map file lines, END MORPH: change the game's map"

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        status = session.current()
        morph.morphable(status)
        added = [" ".join(args)] if args else read_block(cursor)
        if not added:
            raise Refusal("MORPH needs map file lines")
        try:
            base = session.games.check_map(status, status.morphs + tuple(added))
        except MapError as error:
            problems = [str(without_folders(p)) for p in error.problems]
            raise Refusal("the map does not accept these lines; nothing was changed:",
                          *problems[:MAX_PROBLEMS]) from None
        outcome = morph.morph(session.in_hand(), session.base_map, base, tuple(added))
        session.keep(outcome.status, outcome.events)
        session.keep_map(outcome.map)
        lines = [f"{len(added)} map line{'s' if len(added) != 1 else ''} added to the game's map."]
        before, after = outcome.victory_before, outcome.victory_after
        if after != before:
            lines.append(f"The supply centers needed to win are now {after} "
                         f"(were {before}): everyone is told.")
        return said(*lines, quoted=added)


COMMANDS: list[type[Command]] = [Morph]
