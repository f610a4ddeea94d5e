"""A map's `[variant] DIRECTIVES` stanzas applied to a game's status.

The order is DPjudge's: the map's stanzas are read first (those for every variant, then those for
the game's variant, each in map order), then the game's own lines, which take precedence: a value
the game sets wins over the map's, TIMING keys the game sets win over the map's same keys, and lists
(DESC, NAME, MORPH and Payola's TAX lines) hold the map's lines before the game's. RULEs add up from every source:
`RULE !X` turns X off after all other rules, wherever either line comes from (status syntax, RULE).
MORPH lines are map lines: they change the game's map after the map file and its stanzas are read.

Applying is idempotent, so a status written after it and read again gives the same result.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from judge.errors import Problem, StatusError
from judge.maps.model import Stanza
from judge.status.model import GameStatus
from judge.status.parser import parse_game_lines

SCALARS = ("name", "master", "password", "tester", "start", "finish", "result", "private",
           "proposal", "deadline", "zone", "delay", "judge", "signon", "cap")
CONCATENATED = ("morphs", "description", "origin", "taxes")
EITHER = ("need", "rotate", "teams", "address", "groups")


def apply_map_directives(status: GameStatus, stanzas: Iterable[Stanza], variant: str = "standard",
                         file: str = "map") -> GameStatus:
    """`status` with the lines of the map's stanzas that apply to `variant` under it."""
    chosen = _chosen(list(stanzas), variant)
    problems: list[Problem] = []
    inherited = GameStatus()
    for stanza in chosen:
        label = f"{file} ({stanza.variant + ' ' if stanza.variant else ''}DIRECTIVES)"
        try:
            inherited = overlay(inherited, parse_game_lines(stanza.lines, label))
        except StatusError as exc:
            problems += exc.problems
    if problems:
        raise StatusError(problems)
    return overlay(inherited, status)


def _chosen(stanzas: list[Stanza], variant: str) -> list[Stanza]:
    general = [s for s in stanzas if s.variant is None]
    return general + [s for s in stanzas if s.variant and s.variant.upper() == variant.upper()]


def overlay(base: GameStatus, top: GameStatus) -> GameStatus:
    """`top` over `base`: top's phase, map and powers, top's values where it has them."""
    changes: dict[str, Any] = {f: _first(getattr(top, f), getattr(base, f)) for f in SCALARS}
    changes.update({f: _concatenated(getattr(base, f), getattr(top, f)) for f in CONCATENATED})
    changes.update({f: getattr(top, f) or getattr(base, f) for f in EITHER})
    return replace(top, rules=base.rules | top.rules, rules_off=base.rules_off | top.rules_off,
                   allow=base.allow | top.allow, timing=_timing(base.timing, top.timing), **changes)


def _first(top: object, base: object) -> object:
    return base if top is None else top


def _concatenated(base: tuple[str, ...], top: tuple[str, ...]) -> tuple[str, ...]:
    return top if top[:len(base)] == base else base + top


def _timing(base: str | None, top: str | None) -> str | None:
    """TIMING keys: the map's, except those the game sets too, then the game's."""
    if base is None or top is None:
        return _first(top, base)  # type: ignore[return-value]
    base_words, top_words = base.split(), top.split()
    if len(base_words) % 2 or len(top_words) % 2:
        return top
    keys = {key.upper() for key in top_words[::2]}
    kept = [f"{k} {v}" for k, v in zip(base_words[::2], base_words[1::2]) if k.upper() not in keys]
    return " ".join(kept + [top])
