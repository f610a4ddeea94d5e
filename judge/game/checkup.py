"""What keeps a game that parsed from being played: times that cannot be read, rules that are
unknown, excluded or not applied here, and places, centres and powers its map does not have. Each
problem carries the status file's line that says it (`file:line: what`), found from the file's
text, since the status model keeps values, not lines.

`game_problems` is the one list: the cycle (`judge check`, `judge serve`) does not play a game that
has any, and `judge games` (`judge.runtime.games_report`) shows them all.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator

from judge.errors import Problem
from judge.game.deadlines import current_deadline
from judge.game.rules import check_rules, located
from judge.maps.model import Map
from judge.status.model import GameStatus, PowerStatus
from judge.status.values import BUILD_ANYWHERE
from judge.timing import game_zone, parse_timing

# The game block's lines the deadlines are worked out from, each with what reads it (ValueError,
# saying what is wrong): a game whose times cannot be read cannot be cycled.
TIME_LINES: tuple[tuple[str, Callable[[GameStatus], object]], ...] = (
    ("TIMING", lambda status: parse_timing(status.timing or "")),
    ("ZONE", lambda status: game_zone(status.zone)),
    ("DEADLINE", current_deadline),
)


def game_problems(status: GameStatus, m: Map, text: str, file: str) -> list[Problem]:
    """Everything that keeps the game `status` (read from `text`, the status file `file`) from
    being played on `m`: its times, its rules, and what `m` lacks, in that order."""
    return [*time_problems(status, text, file), *located(check_rules(status, m, status.variant).problems, text, file),
            *map_problems(status, m, text, file)]


def time_problems(status: GameStatus, text: str, file: str) -> list[Problem]:
    """`check_times` for a report: each line that cannot be read, with its number."""
    problems = []
    for keyword, read in TIME_LINES:
        try:
            read(status)
        except ValueError as exc:
            problems.append(Problem(file, _Lines(text).game_line(keyword), f"{keyword}: {exc}"))
    return problems


def map_problems(status: GameStatus, m: Map, text: str, file: str) -> list[Problem]:
    """Every unit, dislodged unit, centre, home or power of `status` that `m` lacks."""
    found = [(block.name, start, message) for block in status.powers
             for start, message in _power_problems(block, status, m)]
    if not found:  # (the text is split into words only to locate a problem)
        return []
    lines = _Lines(text)
    problems = [Problem(file, lines.find(name, start), message) for name, start, message in found]
    return sorted(problems, key=lambda p: p.line)


def _power_problems(block: PowerStatus, status: GameStatus, m: Map
                    ) -> Iterator[tuple[tuple[str, ...], str]]:
    if block.is_power and not status.forming and block.name not in m.powers:
        yield (), f"{block.name} is not a power of map {m.name}"
    for unit in (*block.units, *(d.unit for d in block.dislodged)):
        if unit.location not in m.locations:
            yield tuple(str(unit).split()), f"{unit}: map {m.name} has no place {unit.location}"
    centers = m.supply_centers
    for word, found in (("OWNS", block.owns), ("HOME", block.home or ()), ("SEES", block.sees)):
        for center in found:
            if center not in BUILD_ANYWHERE and center not in centers:
                yield (word,), f"{word} {center}: not a supply centre of map {m.name}"


class _Lines:
    """The status text's lines, to find the line a power's block says something on."""

    def __init__(self, text: str):
        self.words = [line.upper().split() for line in text.splitlines()]

    def find(self, power: str, start: tuple[str, ...]) -> int:
        """The line in `power`'s block starting with the words `start` (`HOME` finds INHABITS
        too); the block's first line when none does, 1 when there is no such block."""
        heading = self._heading(power)
        if heading is None:
            return 1
        wanted: tuple[tuple[str, ...], ...] = (("HOME",), ("HOMES",), ("INHABITS",)) if start == ("HOME",) else (start,)
        for number in range(heading + 1, len(self.words)):
            words = self.words[number]
            if not words:
                break
            if start and any(tuple(words[:len(w)]) == w for w in wanted):
                return number + 1
        return heading + 1

    def game_line(self, keyword: str) -> int:
        """The game block's line starting with `keyword` (1 when there is none)."""
        for number, words in enumerate(self.words):
            if not words and number:
                break
            if words[:1] == [keyword]:
                return number + 1
        return 1

    def _heading(self, power: str) -> int | None:
        for number, words in enumerate(self.words):
            previous = self.words[number - 1] if number else []
            if words and words[-1] == power and len(words) <= 2 and not previous:
                return number
        return None
