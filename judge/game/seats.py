"""Players coming and going: the seats of a forming game, RESIGN, TAKEOVER, the Master's DUMMY, and
the NEED line. JOIN, which starts the game when it takes the last seat, is `judge.game.start.join`.

While a game is FORMING, a player joins as `POWER#n` (the lowest number free), or, under
POWER_CHOICE, as the power chosen. Once the game runs, a resigning player leaves the power RESIGNED (the
PLAYER line keeps the history: `PLAYER RESIGNED S1911R NO-ID|john@doe.net|`), it is listed on the
NEED line with its units and centres, and processing waits for a replacement; TAKEOVER fills it.
"""
from __future__ import annotations

from dataclasses import replace

from judge.errors import JudgeError
from judge.events import (
    Dummied,
    Event,
    PlayerJoined,
    PlayerLeft,
    Resigned,
    TookOver,
)
from judge.game.positions import alive, owned_centers, power_blocks
from judge.game.rules import rules_in_force
from judge.maps.model import Map
from judge.rule_names import Rule
from judge.status.model import (
    Dppd,
    GameStatus,
    Handover,
    Need,
    PlayerHistory,
    PowerStatus,
    Vacancy,
)
from judge.types import MASTER, MONITOR, OBSERVER, Phase

SEAT_PREFIX = "POWER#"


class GameError(JudgeError):
    """A request the game cannot carry out now; the message says why, for the reply."""


def playable_powers(status: GameStatus, m: Map) -> list[str]:
    """The map's powers that need a player: not the map's dummies, not the dummies of a TEAM; none
    under SOLITAIRE (every power is a dummy the Master controls)."""
    if Rule.SOLITAIRE in rules_in_force(status, m):
        return []
    team_dummies = {p for team in status.teams for p in team.dummies}
    return [name for name, info in m.powers.items() if not info.dummy and name not in team_dummies]


def seats(status: GameStatus, m: Map) -> list[PowerStatus]:
    """The seats taken in a forming game: `POWER#n` blocks and blocks named after a playable power."""
    playable = set(playable_powers(status, m))
    return [b for b in status.powers if b.is_power and (b.name.startswith(SEAT_PREFIX)
                                                        or b.name in playable)]


def open_seats(status: GameStatus, m: Map) -> int:
    return len(playable_powers(status, m)) - len(seats(status, m))


def player_email(block: PowerStatus) -> str | None:
    current = block.player.current if block.player else None
    return current.email.lower() if isinstance(current, Dppd) else None


def observe(status: GameStatus, m: Map, name: str, player: Dppd, password: str, kind: str = OBSERVER,
            address: tuple[str, ...] = ()) -> tuple[GameStatus, list[Event]]:
    """A non-map player joins (OBSERVE, MONITOR, or a type the game ALLOWs): a block `kind name`."""
    kind, name = kind.upper(), name.upper()
    if kind not in (OBSERVER, MONITOR) and kind not in status.allow:
        raise GameError(f"game {status.name} does not ALLOW {kind} players")
    if status.power(name) is not None or name == MASTER or name.startswith(SEAT_PREFIX):
        raise GameError(f"the name {name} is taken")
    block = PowerStatus(name=name, kind=kind, player=PlayerHistory(player),
                        address=address or (player.email,), password=password)
    left = open_seats(status, m) if status.forming else len(status.need)
    return status.with_power(block), [PlayerJoined(status.name or "", name, player, left)]


def resign(status: GameStatus, m: Map, power: str, by_master: bool = False
           ) -> tuple[GameStatus, list[Event]]:
    """The player leaves (RESIGN). While forming the seat is freed; later the power is RESIGNED."""
    block = _block(status, power)
    current = block.player.current if block.player else None
    if status.forming:
        rest = tuple(b for b in status.powers if b.name != block.name)
        return replace(status, powers=rest), [PlayerLeft(status.name or "", block.name,
                                                         current if isinstance(current, Dppd) else None)]
    if status.completed:
        raise GameError(f"game {status.name} is completed")
    if not isinstance(current, Dppd):
        raise GameError(f"{block.name} has no player to resign")
    status = vacate(status, m, block, Vacancy.RESIGNED)
    return status, [Resigned(status.name or "", block.name, current, by_master)]


def make_dummy(status: GameStatus, m: Map, power: str) -> tuple[GameStatus, list[Event]]:
    """The Master turns a power over to the judge (DUMMY): PLAYER DUMMY, history kept."""
    block = _block(status, power)
    current = block.player.current if block.player else None
    status = vacate(status, m, block, Vacancy.DUMMY)
    return status, [Dummied(status.name or "", block.name, current if isinstance(current, Dppd) else None)]


def vacate(status: GameStatus, m: Map, block: PowerStatus, vacancy: Vacancy) -> GameStatus:
    """The power without its player: the PLAYER line starts with `vacancy`, the history kept."""
    history = block.player or PlayerHistory(vacancy)
    handovers = history.handovers
    if isinstance(history.current, Dppd):
        handovers = (Handover(_abbrev(status), history.current),) + handovers
    vacant = replace(block, player=PlayerHistory(vacancy, handovers), address=(), password=None,
                     wait=False, vote=None)
    return refresh_need(status.with_power(vacant), m)


def takeover(status: GameStatus, m: Map, power: str, player: Dppd, password: str,
             address: tuple[str, ...] = ()) -> tuple[GameStatus, list[Event]]:
    """A player takes a RESIGNED power over (TAKEOVER)."""
    if not isinstance(status.phase, Phase):
        raise GameError(f"game {status.name} is {status.phase.value.lower()}: there is nothing to take over")
    block = _block(status, power)
    if block.player is None or not block.player.resigned:
        raise GameError(f"{block.name} is not vacant")
    if any(player_email(b) == player.email.lower() for b in status.powers if b.name != block.name):
        raise GameError(f"{player.email} already plays in game {status.name}")
    taken = replace(block, player=PlayerHistory(player, block.player.handovers),
                    address=address or (player.email,), password=password)
    status = refresh_need(status.with_power(taken), m)
    return status, [TookOver(status.name or "", block.name, player)]


def refresh_need(status: GameStatus, m: Map) -> GameStatus:
    """The NEED line: each RESIGNED power still on the board, with its units and centres."""
    need = tuple(Need(b.name, len(b.units), len(owned_centers(b))) for b in power_blocks(status, m)
                 if b.player is not None and b.player.resigned and alive(b))
    return replace(status, need=need)


def _block(status: GameStatus, power: str) -> PowerStatus:
    block = status.power(power.upper())
    if block is None or not block.is_power:
        raise GameError(f"there is no power {power} in game {status.name}")
    return block


def _abbrev(status: GameStatus) -> str:
    return status.phase.abbrev if isinstance(status.phase, Phase) else "S0M"
