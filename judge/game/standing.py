"""A game's state and listing: what DPjudge kept in the judge's own records, not in the status file.

DPjudge names six states: preparation, forming, active, waiting, completed, terminated. Four are read
from the status file (`game_state`): PHASE FORMING is forming, PHASE COMPLETED completed, a NEED line
waiting (for replacements), any other phase active. Three cannot be read from it, since the status
syntax has no directive for them, and neither can whether the game shows in LIST: a game in
preparation (CREATE without FORM: hidden from the world), a game the Master holds with WAIT (its
deadline ignored), a TERMINATED game. This judge keeps those in a small file of their own beside the
status, `games/<name>/state`, which a person may edit by hand:

    # the game's state and listing, kept by the judge beside the status file
    STATE waiting
    LISTED no

One `KEY value` per line, case not minding; `#` starts a comment. `STATE` is `preparation`,
`waiting` or `terminated` (the states the status file cannot tell); `LISTED` is `yes` or `no`. A
missing line, or a missing file, means: the state read from the status file, and listed. A game
that has not started also keeps `SEATS n`, the seats still open to players, written with its
status by whatever changed it: LIST tells them without reading the game's map (which a stranger's
MORPH lines may have made slow to read); without the line, LIST reads the map.
`parse_standing` / `write_standing` turn the file into a `Standing` and back (through
`judge.runtime.store.GameDir.read_state` / `write_state`, atomic like the status).

The Master's commands are pure functions here: `form`, `activate`, `wait` and `terminate` take the
status and the standing and give the new standing, or raise `GameError` saying why not (a completed
game cannot be changed). ACTIVATE of a game whose PHASE is FORMING also starts it: the command calls
`judge.game.start_game` when `activate(...)` says so. The cycle leaves a held game alone
(`Standing.held`: preparation, waiting, terminated; `judge.game.schedule.on_tick`).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from judge.errors import Problem, StateError
from judge.game.seats import GameError
from judge.status.model import GameStatus
from judge.types import Phase

STATE_FILE = "state"
# words of DPjudge's games index (`judge.game.games_index`) that tell a standing: `held` is an
# older word for a hold, `unlisted` a game LIST leaves out
HELD, UNLISTED = "held", "unlisted"


class GameState(str, Enum):
    PREPARATION = "preparation"
    FORMING = "forming"
    ACTIVE = "active"
    WAITING = "waiting"
    COMPLETED = "completed"
    TERMINATED = "terminated"


KEPT = (GameState.PREPARATION, GameState.WAITING, GameState.TERMINATED)  # not read from the status


@dataclass(frozen=True)
class Standing:
    """What the state file keeps: a state the status cannot tell (None: read it from the status),
    and whether the game shows in LIST."""

    state: GameState | None = None
    listed: bool = True
    seats: int | None = None  # seats open, in a game not started (None: not known without its map)

    @property
    def held(self) -> bool:
        """The cycle leaves the game alone: in preparation, waiting on the Master, or terminated."""
        return self.state is not None

    @property
    def hidden(self) -> bool:
        """Hidden from the world (preparation): not even named in a reply to a stranger."""
        return self.state is GameState.PREPARATION

    @property
    def in_list(self) -> bool:
        """Shown in a LIST of all games (to anyone but the Master and the judgekeeper)."""
        return self.listed and not self.hidden


FREE = Standing()


def indexed_standing(state: str, flags: tuple[str, ...], status: GameStatus) -> Standing:
    """What DPjudge's games index says of a game with no state file, from the state word and flags
    of its line: its hold (preparation, a Master's wait, a termination) and its listing. A game
    waiting for replacements (a NEED line) waits by its status, and takes them over as any game
    does."""
    held = {GameState.PREPARATION.value: GameState.PREPARATION,
            GameState.TERMINATED.value: GameState.TERMINATED}.get(state)
    if HELD in (state, *flags) or (state == GameState.WAITING.value and not status.need):
        held = GameState.WAITING
    return Standing(None if status.completed else held, UNLISTED not in flags)
YES_NO = {"yes": True, "no": False}


# --- the file ----------------------------------------------------------------------------------------

def parse_standing(text: str, file: str = STATE_FILE) -> Standing:
    """The state file's text -> `Standing`; StateError naming every bad line."""
    found: dict[str, tuple[int, str]] = {}
    problems: list[Problem] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        key = words[0].upper()
        if key not in ("STATE", "LISTED", "SEATS"):
            problems.append(Problem(file, number, f"unknown line {words[0]!r}: STATE, LISTED or "
                                                  "SEATS"))
        elif len(words) != 2:
            problems.append(Problem(file, number, f"{key} takes one word"))
        elif key in found:
            problems.append(Problem(file, number, f"{key} is given twice (first on line "
                                                  f"{found[key][0]})"))
        else:
            found[key] = (number, words[1].lower())
    state, listed = None, True
    if "STATE" in found:
        number, word = found["STATE"]
        state = next((s for s in KEPT if s.value == word), None)
        if state is None:
            problems.append(Problem(file, number, state_problem(word)))
    if "LISTED" in found:
        number, word = found["LISTED"]
        if word not in YES_NO:
            problems.append(Problem(file, number, f"LISTED is yes or no, not {word!r}"))
        listed = YES_NO.get(word, True)
    seats = None
    if "SEATS" in found:
        number, word = found["SEATS"]
        if not word.isdigit():
            problems.append(Problem(file, number, f"SEATS is a number, not {word!r}"))
        seats = int(word) if word.isdigit() else None
    if problems:
        raise StateError(problems)
    return Standing(state, listed, seats)


def state_problem(word: str) -> str:
    if word in (GameState.FORMING, GameState.ACTIVE, GameState.COMPLETED):
        return (f"STATE {word} is read from the status file's PHASE: remove the line "
                "(STATE keeps preparation, waiting or terminated)")
    return f"STATE is preparation, waiting or terminated, not {word!r}"


def write_standing(standing: Standing) -> str:
    """The file's text; empty when nothing is kept (the store then removes the file)."""
    lines = []
    if standing.state is not None:
        lines.append(f"STATE {standing.state.value}")
    if not standing.listed:
        lines.append("LISTED no")
    if standing.seats is not None:
        lines.append(f"SEATS {standing.seats}")
    return "".join(line + "\n" for line in lines)


# --- the state ------------------------------------------------------------------------------------------

def game_state(status: GameStatus, standing: Standing = FREE) -> GameState:
    """The game's state: a completed status is completed, else the kept state, else what the
    status file says (a NEED line: waiting for replacements)."""
    if status.completed:
        return GameState.COMPLETED
    if standing.state is not None:
        return standing.state
    if status.forming:
        return GameState.FORMING
    if status.need:
        return GameState.WAITING
    return GameState.ACTIVE


def _changeable(status: GameStatus, standing: Standing, command: str) -> None:
    if status.completed:
        raise GameError(f"game {status.name} is completed: its state cannot be changed by "
                        f"{command} (ask the judgekeeper)")


def form(status: GameStatus, standing: Standing) -> Standing:
    """FORM: a game whose PHASE is FORMING takes JOIN (out of preparation, or back from terminated
    or a hold)."""
    _changeable(status, standing, "FORM")
    if not status.forming:
        raise GameError(f"game {status.name} has started: to bring it back to FORMING, "
                        "ROLLBACK FORMING")
    return replace(standing, state=None)


def activate(status: GameStatus, standing: Standing) -> tuple[Standing, bool]:
    """ACTIVATE: the new standing, and whether the game must be started now (its PHASE is FORMING:
    the powers are set up for the first phase). A game whose PHASE is a phase of play (a position
    set up in preparation, a hold, a terminated game) goes on from where it is."""
    _changeable(status, standing, "ACTIVATE")
    if standing.state is None and not status.forming and status.need:
        raise GameError(f"game {status.name} waits for replacements of "
                        f"{', '.join(n.power for n in status.need)}: it goes on when they are "
                        "taken over (or the Master makes them DUMMY)")
    return replace(standing, state=None), status.forming


def wait(status: GameStatus, standing: Standing) -> Standing:
    """WAIT: the Master holds a game in play; its deadline is ignored until ACTIVATE."""
    _changeable(status, standing, "WAIT")
    if not isinstance(status.phase, Phase):
        raise GameError(f"game {status.name} has not started: it has no deadline to hold "
                        "(a forming game just waits for its players)")
    if standing.state is GameState.PREPARATION:
        raise GameError(f"game {status.name} is in preparation: ACTIVATE it (or FORM) first")
    return replace(standing, state=GameState.WAITING)


def terminate(status: GameStatus, standing: Standing) -> Standing:
    """TERMINATE: the game ends without a result; nothing is processed any more."""
    _changeable(status, standing, "TERMINATE")
    return replace(standing, state=GameState.TERMINATED)


def settled(status: GameStatus, standing: Standing) -> Standing:
    """The standing once the status has moved on: a completed game keeps no state of its own."""
    return replace(standing, state=None) if status.completed else standing
