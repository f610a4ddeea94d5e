"""DPjudge's games index, the file `status` at the top of its games folder: one line a game,

                           alpha standard active
                           gamma standard preparation unlisted

the game's name right-aligned in 32 columns, its variant (DPjudge's game class: standard, payola,
xtalball...), its state (preparation, forming, active, waiting, completed, terminated; `held` is
an older word for a hold), then flags: `unlisted` (LIST leaves it out), `private` (a PRIVATE game).

DPjudge reads a game's state there and nowhere else. This judge reads it for a game with no state
file of its own (`judge.game.standing.indexed_standing`), so that a copied DPjudge games folder plays on as it was,
and keeps it up to date when a game is created or changes state, so that DPjudge could read the
folder back. Words DPjudge may add that this judge does not use are kept as they are.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from judge.game.standing import FREE, UNLISTED, GameState, Standing, game_state
from judge.status.model import STANDARD_VARIANT, GameStatus

INDEX_FILE = "status"
VARIANT = STANDARD_VARIANT  # DPjudge's game class for every map this judge plays
PRIVATE = "private"
MANAGED = (UNLISTED, PRIVATE)  # the flags this judge sets from a game; other words are kept
# What a game's state on its line rules out, so that a look over all games (a LIST, the count of a
# sender's games not started) reads only the games it may concern (DPjudge's LIST reads the index
# alone). Every change of a game's state rewrites its line (`entry_for`).
STARTED = frozenset({GameState.ACTIVE.value, GameState.COMPLETED.value})
NEVER_LISTED = STARTED | {GameState.TERMINATED.value}


@dataclass(frozen=True)
class IndexEntry:
    variant: str = VARIANT
    state: str = ""
    flags: tuple[str, ...] = ()


def may_be_listed(entry: IndexEntry | None) -> bool:
    """Whether a LIST of all games may show the game with this line of the index (None: the game
    has no line, and is read to know)."""
    return entry is None or entry.state not in NEVER_LISTED


def may_be_unstarted(entry: IndexEntry | None) -> bool:
    """Whether the game with this line of the index may not have started (None: no line)."""
    return entry is None or entry.state not in STARTED


def parse_index(text: str) -> dict[str, IndexEntry]:
    """The index's lines by game name (lower case, as DPjudge reads them); a line of one word is a
    game with nothing known."""
    entries = {}
    for line in text.splitlines():
        words = line.lower().split()
        if words:
            variant, state, *flags = words[1:] + [""] * max(0, 3 - len(words))
            entries[words[0]] = IndexEntry(variant or VARIANT, state, tuple(f for f in flags if f))
    return entries


def write_index(entries: dict[str, IndexEntry]) -> str:
    """The index in DPjudge's layout, its games in name order."""
    return "".join(_line(name, entries[name]) for name in sorted(entries))


def _line(name: str, entry: IndexEntry) -> str:
    return "%32s %s\n" % (name, " ".join(w for w in (entry.variant, entry.state, *entry.flags) if w))


def entry_for(status: GameStatus, standing: Standing = FREE, old: IndexEntry | None = None
              ) -> IndexEntry:
    """The game's line as DPjudge would write it now (its variant and other words kept)."""
    old = old or IndexEntry(variant=status.variant)
    kept = tuple(f for f in old.flags if f not in MANAGED)
    flags = ((UNLISTED,) if not standing.listed else ()) + ((PRIVATE,) if status.private else ())
    return replace(old, state=game_state(status, standing).value, flags=flags + kept)
