"""The game begins: the last JOIN (or the Master) starts it, powers assigned, the board set up, START
written, the first deadline set.

Seats named after a power (POWER_CHOICE) keep it; the `POWER#n` seats, in number order, get the other
playable powers in an order shuffled by a generator seeded with the game's name and its START text,
both kept in the status, so an assignment can always be reproduced from the file. The map's dummies
and the dummies of TEAMS get `PLAYER DUMMY` (controlled by their team's main power, or as the map's
CONTROL says); a playable power nobody took (the Master started a game not full) is a DUMMY too.
The first phase is the map's BEGIN; its deadline is set with `first=True` (twice the usual delay).
The game's variant gives each power what its game begins with (Payola: a purse, an acceptance list).

MOBILIZE and BLANK_BOARD (as DPjudge's findStartPhase) begin with the last adjustment phase before
BEGIN, when BEGIN is not one. Under MOBILIZE every power starts with no unit and no centre but one
`SC!` build token (a dummy one per home under IMMOBILE_DUMMIES); under BLANK_BOARD it owns its
centres and keeps only its units off them, to build the others.
"""
from __future__ import annotations

import random
from dataclasses import replace
from datetime import datetime

from judge.events import Assignment, Event, GameFull, GameStarted, PlayerJoined
from judge.game import visibility
from judge.game.positions import centers_of, units_of
from judge.game.deadlines import deadline_for, with_deadline
from judge.game.flow import mode_for
from judge.game.rules import rules_in_force
from judge.game.variants import variant_of
from judge.game.seats import (
    SEAT_PREFIX,
    GameError,
    open_seats,
    playable_powers,
    player_email,
    refresh_need,
    seats,
)
from judge.maps.model import Map, PowerInfo
from judge.phases import previous_phase
from judge.rule_names import Rule, Rules
from judge.status.model import Dppd, GameStatus, PlayerHistory, PowerStatus, Vacancy
from judge.timing import game_zone
from judge.types import ADJUSTMENTS, Phase, Unit

START_FORMAT = "%a %b %d %Y %H:%M"


def start_text(now: datetime, zone: str | None) -> str:
    """The START line's date: `Tue Jun 03 2025 18:20`, on the game's wall clock."""
    return now.astimezone(game_zone(zone)).strftime(START_FORMAT)


def start_game(status: GameStatus, m: Map, now: datetime, seed: str | None = None
               ) -> tuple[GameStatus, list[Event]]:
    """Start a forming game (the last JOIN, or the Master when START_MASTER holds it)."""
    if not status.forming:
        raise GameError(f"game {status.name} is not forming")
    start = start_text(now, status.zone)
    chosen = assign(status, m, seed if seed is not None else f"{status.name}|{start}")
    team_main = {d: team.main for team in status.teams for d in team.dummies}
    rules = rules_in_force(status, m)
    blocks = [_power_block(status, m.powers[name], chosen.get(name), team_main.get(name), rules)
              for name in m.powers]
    others = tuple(b for b in status.powers if not b.is_power)
    first = first_phase(m, rules)
    status = replace(status, powers=tuple(blocks) + others, phase=first, phase_mode=mode_for(first),
                     start=start, need=(), result=None, finish=None)
    status = variant_of(status).opening(status, m, rules)
    status = refresh_need(status, m)
    deadline = deadline_for(status, m, now, first=True)
    status = with_deadline(status, deadline.moment)
    rules = rules_in_force(status, m)
    if Rule.BLIND in rules:
        status = visibility.with_sees(status, m, rules, fresh=True)
    assignments = tuple(_assignment(name, chosen.get(name)) for name in m.powers)
    return status, [GameStarted(status.name or "", first, deadline.moment, assignments,
                                units_of(status, m), centers_of(status, m))]


def starts_at_once(status: GameStatus, m: Map) -> bool:
    """Whether a game starts as it forms (DPjudge's CREATE and FORM): no seat is left to fill
    (under SOLITAIRE there is none) and START_MASTER does not keep the start for the Master."""
    return open_seats(status, m) <= 0 and Rule.START_MASTER not in rules_in_force(status, m)


def first_phase(m: Map, rules: Rules) -> Phase:
    """The map's BEGIN; under MOBILIZE or BLANK_BOARD the adjustment phase before it."""
    if (Rule.MOBILIZE in rules or Rule.BLANK_BOARD in rules) and m.begin.type != ADJUSTMENTS:
        return previous_phase(m, m.begin, ADJUSTMENTS)
    return m.begin


def assign(status: GameStatus, m: Map, seed: str) -> dict[str, PowerStatus]:
    """Power -> the seat that gets it."""
    taken = seats(status, m)
    named = {b.name: b for b in taken if not b.name.startswith(SEAT_PREFIX)}
    numbered = sorted((b for b in taken if b.name.startswith(SEAT_PREFIX)),
                      key=lambda b: int(b.name[len(SEAT_PREFIX):]) if b.name[len(SEAT_PREFIX):].isdigit()
                      else 10 ** 6)
    free = sorted(p for p in playable_powers(status, m) if p not in named)
    if len(numbered) > len(free):
        raise GameError(f"{len(numbered)} players for {len(free)} powers")
    random.Random(seed).shuffle(free)
    return {**named, **dict(zip(free, numbered))}


def _power_block(status: GameStatus, info: PowerInfo, seat: PowerStatus | None,
                 main: str | None, rules: Rules) -> PowerStatus:
    """The power's block at the start: its seat's player (or a dummy) and the map's board."""
    base = seat or status.power(info.name) or PowerStatus(name=info.name)
    block = replace(base, name=info.name)
    if block.player is None:
        control = block.control or ((main,) if main else info.control)
        block = replace(block, player=PlayerHistory(Vacancy.DUMMY), control=control, password=None)
    units, owns = _board(info, rules, block.player is not None and block.player.dummy)
    return replace(block, units=units, owns=owns, dislodged=(), home=None, orders=None, adjustments=())


def _board(info: PowerInfo, rules: Rules, dummy: bool) -> tuple[tuple[Unit, ...], tuple[str, ...]]:
    """The power's units and OWNS line at the start (see the module's doc)."""
    if Rule.MOBILIZE in rules:
        return (), ("SC!",) * (len(info.homes) if dummy and Rule.IMMOBILE_DUMMIES in rules else 1)
    tokens = ("SC!",) * info.build_and_own + ("SC?",) * info.build_unowned
    units = info.units
    if Rule.BLANK_BOARD in rules:
        units = tuple(u for u in units if u.province not in info.centers)
    return units, tuple(sorted(info.centers)) + tokens


def _assignment(power: str, seat: PowerStatus | None) -> Assignment:
    current = seat.player.current if seat is not None and seat.player else None
    return Assignment(power, seat.name if seat else power, current if isinstance(current, Dppd) else None)


def join(status: GameStatus, m: Map, now: datetime, player: Dppd, password: str,
         address: tuple[str, ...] = (), power: str | None = None) -> tuple[GameStatus, list[Event]]:
    """A player takes a seat (JOIN); the game starts when it was the last one (see `start_game`)."""
    if not status.forming:
        raise GameError(f"game {status.name} is not forming: TAKEOVER a vacant power instead")
    if any(player_email(b) == player.email.lower() for b in status.powers):
        raise GameError(f"{player.email} already plays in game {status.name}")
    if open_seats(status, m) <= 0:
        raise GameError(f"game {status.name} has no seat left")
    seat = _seat_name(status, m, power)
    block = PowerStatus(name=seat, player=PlayerHistory(player), address=address or (player.email,),
                        password=password)
    status = status.with_power(block)
    left = open_seats(status, m)
    events: list[Event] = [PlayerJoined(status.name or "", seat, player, left)]
    if left == 0:
        if Rule.START_MASTER in rules_in_force(status, m):
            events.append(GameFull(status.name or ""))
        else:
            status, started = start_game(status, m, now)
            events += started
    return status, events


def _seat_name(status: GameStatus, m: Map, power: str | None) -> str:
    if power is None:
        taken = {b.name for b in status.powers}
        return next(f"{SEAT_PREFIX}{n}" for n in range(1, len(taken) + 2)
                    if f"{SEAT_PREFIX}{n}" not in taken)
    name = power.upper()
    if Rule.POWER_CHOICE not in rules_in_force(status, m):
        raise GameError("powers are assigned at random in this game (no POWER_CHOICE): JOIN without "
                        "naming a power")
    if name not in playable_powers(status, m):
        raise GameError(f"{power} is not a power to play on the {m.name} map")
    if status.power(name) is not None:
        raise GameError(f"{name} is already taken")
    return name
