"""What the pages show, read from the games as the mail commands read them: the index as a bare
LIST treats the games (an unlisted game or one in preparation left out), a game's facts, its
results archive phase by phase as HISTORY would show it, the kept press as each reader's mail showed
it, and the boards drawn as MAP draws them. Nothing here writes."""
from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass

import jinja2

from judge.app.orders import ListsAhead, lists_ahead
from judge.commands.reply import PictureRequest
from judge.commands.session import Refusal
from judge.errors import MapError, StatusError
from judge.game.archive import Entry, entries, for_reader
from judge.game.order_lists import plays_lists
from judge.game.rule_table import RULES
from judge.game.press_kept import Seen, page_of
from judge.game.rules import rules_in_force
from judge.game.standing import GameState, game_state
from judge.maps import MapCache
from judge.runtime.game_access import StoreGames
from judge.runtime.pictures import position_picture
from judge.runtime.press_file import newest_first
from judge.runtime.store import GameDir, GameStore
from judge.status import parse_status
from judge.phases import parse_phase
from judge.status.model import GameStatus
from judge.rule_names import Rule as RuleName, Rules

# the index's sections, in DPjudge's order: open to join, in play, over
SECTIONS = (("Open to join", (GameState.FORMING,)),
            ("In play", (GameState.ACTIVE, GameState.WAITING)),
            ("Finished", (GameState.COMPLETED, GameState.TERMINATED)))
_NOTES = {rule.name: rule.note for rule in RULES}


@dataclass(frozen=True)
class IndexRow:
    name: str
    map_name: str
    state: str
    phase: str
    private: bool


def index_rows(games: StoreGames) -> dict[str, list[IndexRow]]:
    """The games a bare LIST would name to anyone, by section; a game that cannot be read is left
    out, as LIST leaves it out."""
    found: dict[str, list[IndexRow]] = {title: [] for title, _ in SECTIONS}
    for name in games.names():
        try:
            status = games.peek(name)
            standing = games.standing(name)
        except (Refusal, MapError, StatusError, OSError):  # broken: the cycle tells its Master
            continue
        if status is None or not standing.in_list:
            continue
        state = game_state(status, standing)
        for title, states in SECTIONS:
            if state in states:
                found[title].append(IndexRow(name, status.map_name, state.value,
                                             str(status.phase), bool(status.private)))
    return found


# the Master's state pulldown: each state DPjudge's offers, and the mail command that sets it
# (a game is completed by its end, never by choice)
STATE_COMMANDS = {"forming": "FORM", "active": "ACTIVATE", "waiting": "WAIT",
                  "terminated": "TERMINATE"}


@dataclass(frozen=True)
class States:
    """The game's state and those its Master's pulldown offers, as DPjudge's does."""

    current: str
    offered: tuple[str, ...]


def master_states(games: StoreGames, name: str) -> States | None:
    """The Master's pulldown: forming while the game forms, active and waiting until it is
    completed, completed once it is, terminated always."""
    try:
        status = games.peek(name)
        standing = games.standing(name)
    except (Refusal, MapError, StatusError, OSError):
        return None
    if status is None:
        return None
    state = game_state(status, standing)
    offered = (["forming"] * bool(status.forming)
               + ["active", "waiting"] * (state is not GameState.COMPLETED)
               + ["completed"] * (state is GameState.COMPLETED) + ["terminated"])
    return States(state.value, tuple(offered))


@dataclass(frozen=True)
class Rule:
    name: str
    note: str


def in_force(status: GameStatus, maps: MapCache) -> Rules:
    """The rules the game plays by (its own as written, when its map cannot be read)."""
    try:
        return rules_in_force(status, maps.get(status.map_name, status.morphs))
    except MapError:
        return status.rules


def lists_of(status: GameStatus, maps: MapCache, power: str) -> ListsAhead | None:
    """A Crystal Ball power's lists for the turns ahead, as its orders mail shows them."""
    try:
        return lists_ahead(status, maps.get(status.map_name, status.morphs), power)
    except MapError:
        return None


def rules_of(status: GameStatus, maps: MapCache) -> list[Rule]:
    """The rules in force, each with its line from the rule table."""
    return [Rule(name, _NOTES.get(name, "")) for name in sorted(in_force(status, maps))]


@dataclass(frozen=True)
class Phase:
    """One entry of the results archive as a reader may see it, with the board of its phase."""

    subject: str
    phase: str | None
    text: str


def locked_lists(store: GameStore, maps: MapCache, status: GameStatus, game: str,
                 phase: str | None) -> str | None:
    """Under PUBLIC_LISTS, the locked lists a Crystal Ball movement phase (`S1901M`) played, each
    line with its fate, as its lists mail showed them (LIMIT_LISTS applied): the game's lists file
    keeps them. None for another phase, game or rule, or a phase the file does not hold."""
    if phase is None or not plays_lists(status) or RuleName.PUBLIC_LISTS not in in_force(status, maps):
        return None
    with contextlib.suppress(OSError, ValueError, MapError):
        heading = f"{parse_phase(maps.get(status.map_name, status.morphs), phase)} ORDERS"
        return lists_section(GameDir(store.root / game).read_lists(), heading)
    return None


def lists_section(text: str, heading: str) -> str | None:
    """The part of a lists file under `heading` (its `=` line below it), up to the next heading;
    the last such part when a phase was played again after a rollback."""
    lines = text.split("\n")
    starts = [n for n, line in enumerate(lines[:-1]) if lines[n + 1].startswith("=") and
              line.endswith(" ORDERS") and set(lines[n + 1]) == {"="}]
    found = None
    for start, end in zip(starts, [*starts[1:], len(lines)]):
        if lines[start] == heading:
            found = "\n".join(lines[start:end]).strip("\n")
    return found


def archive_phases(store: GameStore, game: str, readers: Sequence[str] | None) -> list[Phase]:
    """The results archive as HISTORY shows it to `readers` (None: every part), entry by entry."""
    try:
        text = GameDir(store.root / game).read_results()
    except (OSError, ValueError):
        return []
    shown: list[Entry] = entries(for_reader(text, readers))
    return [Phase(e.subject, e.phase, "\n".join(e.lines).strip("\n")) for e in shown]


PRESS_PAGE = 20  # press messages a page shows at a time


@dataclass(frozen=True)
class PressPage:
    """One page of the press a reader saw, newest first: `number` from 0; `older`: another
    page follows."""

    seen: list[Seen]
    number: int
    older: bool


def press_page(store: GameStore, game: str, reader: str | None, number: int) -> PressPage:
    """Page `number` of the game's kept press as `reader` saw it (a block's name, MASTER, or
    None: the public, who read the broadcasts)."""
    number = max(number, 0)
    seen, older = page_of(newest_first(GameDir(store.root / game)), reader, number, PRESS_PAGE)
    return PressPage(seen, number, older)


def snapshot_board(env: jinja2.Environment, store: GameStore, maps: MapCache, game: str,
                   phase: str) -> str | None:
    """The board as it stood when `phase` was played (its snapshot), as SVG; None without one."""
    with contextlib.suppress(OSError, ValueError, StatusError, MapError):
        snapshot = parse_status(GameDir(store.root / game).read_snapshot(phase))
        m = maps.get(snapshot.map_name, snapshot.morphs)
        return position_picture(env, snapshot, m, "svg", ()).picture.svg
    return None


def drawn(env: jinja2.Environment, status: GameStatus, maps: MapCache,
          request: PictureRequest) -> str | None:
    """The board a MAP request asks for, as SVG (a BLIND reader's view when it says so)."""
    with contextlib.suppress(MapError, ValueError):
        m = maps.get(status.map_name, status.morphs)
        return position_picture(env, status, m, "svg", (), request.seen,
                                request.full_sight).picture.svg
    return None
