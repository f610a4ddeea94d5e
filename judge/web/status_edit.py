"""The Master's editor of the status file, and the rules form that edits it: an edit is checked
as the cycle (`judge check`) and `judge games` check a game (`game_problems`) before anything is
written, and refused whole with each problem as file:line: what. An edit that passes is written by
the one writer (`judge.runtime.commit.commit`: journal, games index), as a mail's
change is."""
from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from judge.commands.change import Change
from judge.commands.session import Refusal
from judge.errors import Problem, ProblemsError
from judge.game.checkup import game_problems
from judge.maps import MapCache
from judge.maps.model import Map
from judge.runtime.game_access import StoreGames
from judge.runtime.commit import commit
from judge.runtime.inbox import MailHandler
from judge.status import parse_status, write_status
from judge.status.model import GameStatus


def status_file(game: str) -> str:
    """The status file as its problems name it (as `judge games` does)."""
    return f"{game}/status"


def checked(game: str, text: str, maps: MapCache) -> tuple[GameStatus, Map]:
    """The status `text` of `game` read and checked; StatusError or MapError (ProblemsError)
    with every problem found."""
    file = status_file(game)
    try:
        status = parse_status(text, file)
    except ValueError as exc:  # what the parser did not put as a problem: still the file's
        raise ProblemsError([Problem(file, 0, str(exc))]) from None
    if status.name and status.name.lower() != game:
        raise ProblemsError([Problem(file, _line_of(text, "GAME"),
                                     f"the game is {game}: RENAME gives it another name")])
    try:
        m = maps.get(status.map_name, status.morphs)
    except (ProblemsError, LookupError) as exc:  # told at the status file's MAP line
        lines = [str(p) for p in exc.problems] if isinstance(exc, ProblemsError) else [str(exc)]
        raise ProblemsError([Problem(file, _line_of(text, "MAP"),
                                     f"map {status.map_name}: {line}") for line in lines]
                            ) from None
    problems = game_problems(status, m, text, file)
    if problems:
        raise ProblemsError(problems)
    return status, m


def _line_of(text: str, keyword: str) -> int:
    for number, line in enumerate(text.splitlines(), 1):
        if line.split()[:1] == [keyword]:
            return number
    return 1


def read_text(handler: MailHandler, game: str) -> str:
    """The game's status file as it stands (a change a crash left in flight completed first)."""
    with StoreGames(handler.store, handler.settings, handler.maps) as games:
        return games.open(game)[0]


def save(handler: MailHandler, game: str, text: str, now: datetime) -> list[str]:
    """Write `text` as `game`'s status file if it passes the checks, under the game's lock; the
    problems (none: written)."""
    with StoreGames(handler.store, handler.settings, handler.maps) as games:
        try:
            before, _ = games.open(game)
            status, m = checked(game, text.replace("\r\n", "\n"), games.maps)
            standing = games.standing(game)
        except LookupError:
            return [f"{status_file(game)}: there is no game {game} any more"]
        except ProblemsError as exc:
            return [str(p) for p in exc.problems]
        except Refusal as exc:
            return [f"{status_file(game)}: {exc}"]
        commit(games, Change(game, status, before, m, new_status=True, standing=standing),
               None, now)
    return []


def with_rules(text: str, game: str, rules: set[str]) -> str:
    """The status `text` with the game's own rules made `rules` (those it turned off kept off);
    ProblemsError when `text` cannot be read."""
    status = parse_status(text, status_file(game))
    order = tuple(r for r in status.rule_order if r in rules)
    return write_status(replace(status, rules=frozenset(rules), rule_order=order))
