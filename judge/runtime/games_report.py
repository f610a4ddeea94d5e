"""`judge games`: every game of the games folder with its state, and every problem found in it, as
`file:line: what is wrong`. A judgekeeper runs it after copying a DPjudge games folder in (or at
any time): a game with a problem cannot be played until it is mended.

Reading only: each game is read under its lock, as the cycle reads it, and nothing is written (a
change a crash left in flight is left for the cycle to complete).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from judge.errors import Problem, ProblemsError
from judge.game.checkup import game_problems, time_problems
from judge.game.games_index import INDEX_FILE
from judge.game.standing import game_state
from judge.game.variants import played_variant, played_variants
from judge.maps import MapCache
from judge.runtime.game_files import IndexReader, read_index, read_standing, read_status_file
from judge.runtime.store import STATUS, GameStore, check_game_name, read_bytes
from judge.status.model import GameStatus
from judge.status.parser import decode_status

BROKEN = "broken"  # the state shown for a game whose files cannot be read


@dataclass(frozen=True)
class GameReport:
    name: str
    state: str  # preparation, forming, active, waiting, completed, terminated, or broken
    phase: str = ""
    map_name: str = ""
    listed: bool = True
    private: bool = False
    problems: tuple[str, ...] = ()

    @property
    def playable(self) -> bool:
        return not self.problems


def report_games(store: GameStore, search: Sequence[Path] = ()) -> list[GameReport]:
    """Every game, in name order: those with a folder, then those only the index names."""
    maps = MapCache(search)
    index = _Index(store)
    reader = IndexReader()
    reports = [_with_variant(_report(store, name, maps, reader), index) for name in store.names()]
    return reports + _misnamed(store) + _missing(index, {r.name for r in reports})


class _Index:
    """DPjudge's games index of the folder, with the line each game is on."""

    def __init__(self, store: GameStore):
        self.entries = read_index(store.root)
        self.text = decode_status(read_bytes(store.root / INDEX_FILE, store.root))[0] \
            if self.entries else ""

    def line(self, name: str) -> int:
        return next((n for n, line in enumerate(self.text.lower().splitlines(), 1)
                     if line.split()[:1] == [name]), 1)


def _with_variant(report: GameReport, index: _Index) -> GameReport:
    """A game of a DPjudge variant the judge does not play cannot be played here."""
    entry = index.entries.get(report.name)
    if entry is None or played_variant(entry.variant) is not None:
        return report
    problem = Problem(INDEX_FILE, index.line(report.name),
                      f"game {report.name} is a {entry.variant} game: the judge plays {played_variants()} games")
    return replace(report, problems=(str(problem), *report.problems))


def _report(store: GameStore, name: str, maps: MapCache, index: IndexReader) -> GameReport:
    file = f"{name}/{STATUS}"
    try:
        with store.locked(name) as game:
            text, status = read_status_file(game, index)
            standing = read_standing(game, status, index)
    except (ProblemsError, OSError, LookupError, ValueError) as exc:
        return GameReport(name, BROKEN, problems=_lines(exc))
    shown = GameReport(name, game_state(status, standing).value, _phase(status), status.map_name,
                       standing.listed, status.private is not None)
    try:
        problems = game_problems(status, maps.get(status.map_name, status.morphs), text, file)
    except (ProblemsError, LookupError) as exc:  # the map cannot be read: the rest is still shown
        problems = time_problems(status, text, file) + [
            Problem(file, _line_of(text, ("MAP", "TRIAL")), f"map {status.map_name}: {line}")
            for line in _lines(exc)]
    return replace(shown, problems=tuple(str(p) for p in problems))


def _phase(status: GameStatus) -> str:
    return getattr(status.phase, "value", None) or str(status.phase)


def _lines(exc: Exception) -> tuple[str, ...]:
    if isinstance(exc, ProblemsError):
        return tuple(str(p) for p in exc.problems)
    return (str(exc),)


def _line_of(text: str, keywords: tuple[str, ...]) -> int:
    for number, line in enumerate(text.splitlines(), 1):
        if line.split()[:1] and line.split()[0].upper() in keywords:
            return number
    return 1


def _misnamed(store: GameStore) -> list[GameReport]:
    """The folders with a status file the judge leaves alone, for their name."""
    reports = []
    for name in store.misnamed():
        try:
            check_game_name(name)
        except ValueError as exc:
            problem = Problem(f"{name}/{STATUS}", 1, f"the judge leaves this game alone: {exc}")
            reports.append(GameReport(name, BROKEN, problems=(str(problem),)))
    return reports


def _missing(index: _Index, found: set[str]) -> list[GameReport]:
    """The games DPjudge's index names that have no folder here."""
    return [GameReport(name, index.entries[name].state or BROKEN, problems=(str(Problem(
        INDEX_FILE, index.line(name),
        f"game {name} is in the index but has no folder {name}/ with a status file")),))
        for name in sorted(set(index.entries) - found)]
