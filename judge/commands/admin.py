"""CREATE (with status-file lines and FORM), PURGE and RENAME: making, removing and renaming games.

CREATE takes the rest of the mail: every line after it is a status-file line for the new game,
except FORM (the game forms at once; without it the game is in preparation, hidden from the world),
SET UNLISTED / SET LISTED (kept in the game's state file, `judge.game.standing`), and GAME, MASTER and
PHASE lines, which are not the Master's to give (and are ignored, as the spec says). A RULE this
judge does not know (DPjudge's "NO SUCH RULE"), needing another variant, excluding another RULE given,
or not yet applied by this judge is refused. Unlike
DPjudge, which had a web page to show them, problems in the lines are reported and the game is not
created.
"""
from __future__ import annotations

from dataclasses import replace
from typing import NoReturn

from judge.commands.auth import (
    Level,
    check_game_word,
    clean_password,
    valid_password,
)
from judge.commands.game_queries import addresses_for
from judge.app import game_names, game_state
from judge.commands.master import start_now
from judge.notices import GameRenamed
from judge.commands.registry import Command, Stage
from judge.commands.reply import Said, said
from judge.commands.session import Cursor, Refusal, Session, Settings
from judge.errors import MapError, StatusError
from judge.game.checkup import game_problems, time_problems
from judge.game.start import starts_at_once
from judge.maps.loader import without_folders
from judge.maps.model import Map
from judge.game.variants import played_variant, played_variants
from judge.status import apply_map_directives, parse_status
from judge.status.model import Dppd, GameStatus
from judge.types import MASTER

NOT_THE_MASTERS = ("GAME", "MASTER", "PHASE")
MAX_PROBLEMS = 15


def game_word(word: str) -> str:
    try:
        return check_game_word(word.lower())
    except ValueError as exc:
        raise Refusal(str(exc)) from None


def new_status(session: Session, name: str, password: str, lines: list[str], variant: str | None = None
               ) -> tuple[GameStatus, Map]:
    """The new game's status from the mail's lines, with the map's DIRECTIVES, and its map;
    problems refused. `variant`: the one CREATE names, so that its own rules are taken."""
    head = [f"GAME {name}", "PHASE FORMING", f"MASTER {Dppd('NO-ID', session.sender, '')}",
            f"PASSWORD {password}"]
    text, file = "\n".join(head + lines) + "\n", f"{name} (CREATE)"
    try:
        status = parse_status(text, file)
    except StatusError as error:
        refuse_problems([str(p) for p in error.problems])
    if variant is not None:
        status = replace(status, variant=variant)
    try:
        m = session.games.check_map(status)
        status = apply_map_directives(status, m.stanzas, file=m.name)
    except MapError as error:  # the times can still be told; the rest needs the map
        problems = [str(p) for p in time_problems(status, text, file)]
        refuse_problems(problems + [map_problem(status.map_name, str(without_folders(p)))
                                    for p in error.problems])
    except StatusError as error:
        refuse_problems([str(p) for p in error.problems])
    problems = [str(p) for p in game_problems(status, m, text, file)]
    if problems:
        refuse_problems(problems)
    return status, m


def creation_limits(settings: Settings) -> game_names.CreationLimits:
    return game_names.CreationLimits(settings.forming_games_per_sender,
                                     settings.games_per_sender_per_day)


def refuse_problems(problems: list[str]) -> NoReturn:
    raise Refusal("the game was not created: its status lines have problems "
                  "(line numbers count the four lines the judge puts first):",
                  *problems[:MAX_PROBLEMS])


def map_problem(name: str, problem: str) -> str:
    """A map problem for the reply (a missing map is named, not the judge's folders)."""
    if "cannot read map file" in problem:
        return f"MAP {name}: there is no such map on this judge"
    return problem


class Create(Command):
    name = "CREATE"
    help = ("CREATE game masterPassword [standard|xtalball|payola], then status-file lines, FORM: "
            "a new game (xtalball: Crystal Ball; payola: Payola, see HELP PAYOLA)")
    stage = Stage.BEFORE
    arity, secrets = (2, 3), (2,)
    usage = ("CREATE takes the game's name, the Master's password and, if you wish, the rule "
             "variant (standard, xtalball for Crystal Ball or payola for Payola)")

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        name = game_word(args[0])
        try:
            password = valid_password(clean_password(args[1]))
        except ValueError as exc:
            raise Refusal(str(exc)) from None
        if len(args) == 3 and played_variant(args[2]) is None:
            raise Refusal(f"the rule variant {args[2]!r} is not played on this judge ({played_variants()})")
        taken = session.names_taken(name)
        if session.game is not None and name not in taken:
            raise Refusal("one mail changes one game")
        game_names.creatable(name, taken, session.creator(), creation_limits(session.settings))
        lines, notes, listed = [], [], True
        for line in cursor.rest():
            words = line.upper().split()
            if words[:1] == ["FORM"] or words[:2] in (["SET", "UNLISTED"], ["SET", "LISTED"]):
                notes.append(line.strip())
                if words[0] == "SET":
                    listed = words[1] == "LISTED"
            elif words[:1] and words[0] in NOT_THE_MASTERS:
                notes.append(f"{line.strip()} (ignored: the judge writes it)")
            else:
                lines.append(line)
        cursor.index = len(cursor.lines)
        status, m = new_status(session, name, password, lines, args[2].lower() if len(args) == 3 else None)
        status = replace(status, password=session.hashed(password))
        forms = any(n.upper().split()[:1] == ["FORM"] for n in notes)
        created = game_names.create(status, m, forms, listed, session.sender)
        session.game, session.status, session.create = name, created.status, True
        session.standing = created.standing
        session.role, session.level = MASTER, Level.MASTER
        session.keep_map(m)
        status = created.status
        session.emit(*created.events)
        out = [f"Game '{name}' has been created on the {status.map_name} map; you are its Master."]
        if forms and starts_at_once(status, m):
            out.append(start_now(session).lines[0])
        elif forms:
            out.append(f"It is forming: players join with JOIN {name} password"
                       + (" privacyPassword." if status.private else "."))
        else:
            out.append(f"It is in preparation, hidden from the world: when it is ready, sign on "
                       f"(SIGNON M{name} password) and send FORM to let players join, or ACTIVATE "
                       "to start it.")
        if not listed:
            out.append("It is unlisted: LIST does not show it; players need its name.")
        return said(*out, quoted=[f"{n}" for n in notes if "ignored" in n])


def master_level(session: Session, status: GameStatus, given: str, command: str) -> Level:
    level = session.password_level(status, MASTER, given, command)
    if level < Level.MASTER:
        raise Refusal(f"{command}: wrong Master password for game '{status.name}'")
    return level


class Purge(Command):
    name = "PURGE"
    help = "PURGE game masterPassword: remove a game nobody has joined (the judgekeeper: any)"
    stage = Stage.BEFORE
    arity, secrets = (2,), (2,)
    usage = "PURGE takes the game's name and the Master's password"

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        status = session.take_game(game_word(args[0]))
        level = master_level(session, status, args[1], self.name)
        game_state.purgeable(status, session.state, level >= Level.JUDGEKEEPER)
        session.purge = True
        return said(f"Game '{status.name}' has been purged.")


class Rename(Command):
    name = "RENAME"
    help = "RENAME game newName masterPassword: rename a game (best before it starts)"
    stage = Stage.BEFORE
    arity, secrets = (3,), (3,)
    usage = "RENAME takes the game's name, its new name and the Master's password"

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        old, new = game_word(args[0]), game_word(args[1])
        status = session.take_game(old)
        master_level(session, status, args[2], self.name)
        session.update(game_names.rename(status, old, new, session.names_taken(new)))
        session.rename_to = new
        limit = session.settings.addresses_per_player
        everyone = tuple(dict.fromkeys(a for b in status.powers
                                       for a in addresses_for(status, b.name, limit)))
        session.emit(GameRenamed(new, old, everyone + addresses_for(status, MASTER, limit)))
        note = "" if status.forming else " Players have been told; they must use the new name."
        return said(f"Game '{old}' is now called '{new}'.{note}")


COMMANDS: list[type[Command]] = [Create, Purge, Rename]
