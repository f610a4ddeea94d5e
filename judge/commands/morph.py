"""MORPH: map-file lines added to the game (`MORPH line`, or `MORPH` ... `END MORPH`).

The lines are checked by parsing the game's map with them (the map parser reads a game's MORPH
lines as the end of its map) before they are accepted; in a game that has started, every unit must
still stand where it is. They take effect from then on: the status file keeps them, and every map
the game loads is parsed with them.
"""
from __future__ import annotations

from dataclasses import replace

from judge.app.game_in_hand import phase_of
from judge.commands.master import MasterCommand
from judge.commands.notices import VictoryChanged
from judge.commands.registry import Command
from judge.commands.reply import Said, said
from judge.commands.session import Cursor, Refusal, Session
from judge.errors import MapError
from judge.maps import map_for_phase
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
        if status.completed:
            raise Refusal("the game is over: its map no longer changes")
        added = [" ".join(args)] if args else read_block(cursor)
        if not added:
            raise Refusal("MORPH needs map file lines")
        morphs = status.morphs + tuple(added)
        try:
            base = session.games.check_map(status, morphs)
        except MapError as error:
            problems = [str(without_folders(p)) for p in error.problems]
            raise Refusal("the map does not accept these lines; nothing was changed:",
                          *problems[:MAX_PROBLEMS]) from None
        phase = phase_of(status)
        if phase is not None:
            m = map_for_phase(base, phase)
            stranded = [f"{b.name} {u}" for b in status.powers for u in b.units
                        if not m.can_stand(u)]
            if stranded:
                raise Refusal("after these lines some units could not stand where they are; "
                              "nothing was changed:", *stranded)
        year = phase.year if phase is not None else base.begin.year
        before = session.base_map.victory_in(year)
        session.update(replace(status, morphs=morphs))
        session.keep_map(base)
        lines = [f"{len(added)} map line{'s' if len(added) != 1 else ''} added to the game's map."]
        if base.victory_in(year) != before:
            session.emit(VictoryChanged(session.game or "", year, before, base.victory_in(year)))
            lines.append(f"The supply centers needed to win are now {base.victory_in(year)} "
                         f"(were {before}): everyone is told.")
        return said(*lines, quoted=added)


COMMANDS: list[type[Command]] = [Morph]
