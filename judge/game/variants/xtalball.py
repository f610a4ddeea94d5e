"""Crystal Ball (DPjudge's `xtalball`): each power's orders are written a movement phase ahead.

A power keeps two order lists (the status file's SOONER and LATER): SOONER holds the orders for
the next movement phase, locked, LATER those for the movement phase after it, which the player may
still change. When a movement phase is processed its SOONER list is read as DPjudge reads it:

- a later line for the same unit revokes an earlier one;
- at most as many lines count as the largest power has centres, the rest are ignored;
- a line for a unit the power does not have there (it moved, or was lost) is dropped;
- a unit no line orders holds.

Then the lists move up: LATER becomes SOONER; a power that wrote no LATER list gets a SOONER list
holding its first unit, as DPjudge leaves it. No power is marked in civil disorder: each played the
list locked for the phase (DPjudge writes no CD for them). Retreats and adjustments are ordered as
in the standard game.
"""
from __future__ import annotations

from dataclasses import replace

from judge.game.positions import power_blocks
from judge.game.stages import Processing, Stage
from judge.game.variants.model import Variant
from judge.game.variants.standard import PIPELINE
from judge.status.model import PowerStatus
from judge.types import MOVEMENT


def lock_lists(p: Processing) -> Processing:
    """A movement phase's orders from each power's SOONER list; the lists moved up."""
    if p.phase.type != MOVEMENT:
        return p
    blocks = power_blocks(p.status, p.m)
    largest = max((len(b.owns) for b in blocks), default=0)
    status = p.status
    for block in blocks:
        status = status.with_power(replace(block, orders=chosen_orders(block, largest),
                                           sooner=block.later or _first_hold(block), later=None))
    return replace(p, status=status, idle=())


def chosen_orders(block: PowerStatus, largest: int) -> tuple[str, ...]:
    """The lines of the power's SOONER list that order its units (see the module's doc)."""
    last: dict[tuple[str, str], str] = {}
    for line in (block.sooner or ())[:largest]:
        last[_unit_key(line)] = line
    own = {(u.type.value, u.province) for u in block.units}
    return tuple(line for key, line in last.items() if key in own)


def _first_hold(block: PowerStatus) -> tuple[str, ...] | None:
    return (f"{block.units[0]} H",) if block.units else None


def _unit_key(line: str) -> tuple[str, str]:
    words = line.split()
    return words[0], words[1].split("/")[0]


XTALBALL = Variant("xtalball", "Crystal Ball Diplomacy", (
    Stage("lock the lists", lock_lists),
    *PIPELINE,
))
