"""ROLLBACK and ROLLFORWARD: the game put back to the status kept before a phase was processed.

The snapshot `status.<S1901M>` holds the game as it stood when that phase was about to be processed
(`status.FORMING`: before it started). Going back (or forward, to a later snapshot after a rollback)
takes from it the phase and the board (units, dislodged units, centres, homes, the NEED and vote
state of that time), and by default:
- clears the orders on file (RESTORE keeps the orders the snapshot held);
- keeps everything else as it is now: rules, description, players, addresses, passwords, control,
  observers (FULL takes the whole snapshot instead, undoing takeovers and rule changes too).
A fresh deadline is set for the phase, from now. Going back keeps the game as it was as the snapshot
of the phase it was in, as DPjudge does, so that ROLLFORWARD can return to it (its orders cleared
too, unless RESTORE).
"""
from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from judge.events import Event, RolledBack
from judge.game.deadlines import deadline_for, with_deadline
from judge.game.flow import mode_for
from judge.game.seats import refresh_need
from judge.maps.model import Map
from judge.status.model import GameStage, GameStatus, PowerStatus
from judge.types import ADJUSTMENTS, Phase

BOARD_FIELDS = ("units", "dislodged", "owns", "home", "orders", "sooner", "later", "adjustments", "cd", "sees", "funds",
                "vote")


def roll_to(current: GameStatus, snapshot: GameStatus, m: Map, now: datetime, *, restore: bool = False,
            full: bool = False, forward: bool = False) -> tuple[GameStatus, list[Event]]:
    """The game as `snapshot` had it (see the module's doc)."""
    status = snapshot if full else _board_from(current, snapshot)
    if not restore:
        status = replace(status, powers=tuple(_without_orders(b, status.phase) for b in status.powers))
    if isinstance(status.phase, Phase):
        mode = snapshot.phase_mode if snapshot.phase_mode.value in ("SKIP", "WAIT") else mode_for(status.phase)
        status = replace(status, phase_mode=mode, delay=None, result=None, finish=None)
        fresh = deadline_for(status, m, now)
        status = refresh_need(with_deadline(status, fresh.moment), m)
        moment = fresh.moment
    else:
        status, moment = replace(status, deadline=None, delay=None, result=None, finish=None), None
    left = current.phase.abbrev if isinstance(current.phase, Phase) else ""
    return status, [RolledBack(status.name or "", status.phase if isinstance(status.phase, Phase)
                               else status.phase.value, forward, restore, full, moment, left)]


def _board_from(current: GameStatus, snapshot: GameStatus) -> GameStatus:
    """Today's game settings and players with the snapshot's phase and board."""
    blocks = []
    for old in snapshot.powers:
        now_block = current.power(old.name)
        if now_block is None or not old.is_power:
            blocks.append(old if now_block is None else now_block)
            continue
        blocks.append(replace(now_block, **{f: getattr(old, f) for f in BOARD_FIELDS}))
    known = {b.name for b in blocks}
    if snapshot.forming or current.forming:  # across the start, the seats are the snapshot's
        blocks += [b for b in current.powers if not b.is_power and b.name not in known]
    else:
        blocks += [b for b in current.powers if b.name not in known]
    return replace(current, phase=snapshot.phase, phase_mode=snapshot.phase_mode, powers=tuple(blocks),
                   proposal=snapshot.proposal, start=snapshot.start, need=snapshot.need)


def _without_orders(block: PowerStatus, phase: Phase | GameStage) -> PowerStatus:
    """The power's orders cleared. In an adjustment phase a `BUILD A PAR HIDDEN` is an order (as
    DPjudge keeps a hidden build); elsewhere it is a status file's record of a unit built hidden,
    kept until the movement revealing it, and stays."""
    adjusting = isinstance(phase, Phase) and phase.type == ADJUSTMENTS
    kept = () if adjusting else tuple(o for o in block.adjustments if getattr(o, "hidden", False))
    return replace(block, orders=None, adjustments=kept, wait=False)
