"""Crystal Ball (DPjudge's `xtalball`): each power's orders are written a movement phase ahead.

A power keeps two order lists (the status file's SOONER and LATER): SOONER holds the orders for
the next movement phase, locked, LATER those for the movement phase after it, which the player may
still change. When a movement phase is processed its SOONER list is read as DPjudge reads it:

- a later line for the same unit revokes an earlier one;
- at most as many lines count as the largest power has centres, the rest are ignored;
- a line for a unit the power does not have there (it moved, or was lost) is dropped;
- a unit no line orders holds;
- a proxy line (`A VIE P ITALY`, left in a status file DPjudge saved) is dropped, from both lists,
  as DPjudge drops it when it reads the file: it reads the power's name out of the line.

Each line's fate (ordered, revoked, ignored, no unit, or another power's unit) and the holds added
are what PUBLIC_LISTS mails to everyone (`ListsPlayed`).

A SKIP movement phase (a game begun on an empty board) plays no list and mails none: its lists
only move up. Then the lists move up: LATER becomes SOONER; a power that wrote no LATER list gets a SOONER list
holding its first unit, as DPjudge leaves it. No power is marked in civil disorder: each played the
list locked for the phase (DPjudge writes no CD for them). Retreats and adjustments are ordered as
in the standard game; after adjustments a power with units and no SOONER list gets one holding its
first unit (DPjudge leaves it none, and then takes every list mailed into SOONER).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from judge.events import ListsPlayed
from judge.game.order_lists import skip_phase
from judge.game.positions import power_blocks
from judge.game.stages import Processing, Stage
from judge.game.variants.model import Variant
from judge.game.variants.standard import PIPELINE, stages_through
from judge.rule_names import Rule, Rules
from judge.status.model import GameStatus, PowerStatus
from judge.types import ADJUSTMENTS, MOVEMENT


ORDERED, REVOKED, IGNORED, NO_UNIT, DEFAULT = "ordered", "revoked", "ignored", "no unit", "default"
FOREIGN, NOT_PROXIED = "foreign", "noProxy"  # another power's unit: under NO_PROXY, else


def lock_lists(p: Processing) -> Processing:
    """A movement phase's orders from each power's SOONER list; the lists moved up; the lists
    as read, each line with its fate, for the mail PUBLIC_LISTS sends."""
    if p.phase.type != MOVEMENT:
        return p
    blocks = power_blocks(p.status, p.m)
    if skip_phase(p.status):
        return replace(p, status=_moved_up(p.status, blocks), idle=())
    largest = max((len(b.owns) for b in blocks), default=0)
    owners = {_unit_key(str(u)): b.name for b in blocks for u in b.units}
    status, read = p.status, {}
    for block in blocks:
        fates = list_fates(replace(block, sooner=without_proxies(block.sooner)), largest, owners, p.rules)
        read[block.name] = fates
        status = status.with_power(replace(_next_lists(block), orders=tuple(x for f, x in fates if f == ORDERED)))
    order = {name: n for n, name in enumerate(p.m.powers)}
    shown = tuple((b.name, read[b.name]) for b in sorted(blocks, key=lambda b: order.get(b.name, len(order)))
                  if b.units)
    played = ListsPlayed(p.status.name or "", p.phase, shown, largest)
    return replace(p, status=status, idle=(), events=(*p.events, played))


def list_fates(block: PowerStatus, largest: int, owners: Mapping[tuple[str, str], str],
               rules: Rules) -> tuple[tuple[str, str], ...]:
    """Each line of the power's SOONER list with its fate (see the module's doc), then a hold for
    each of its units no line orders. `owners`: the power of the unit of each kind in a province."""
    lines = block.sooner or ()
    fates: dict[int, str] = {}
    for count, line in enumerate(lines):
        if count >= largest:
            fates[count] = IGNORED
            continue
        for earlier in range(count):
            if _unit_key(lines[earlier]) == _unit_key(line):
                fates[earlier] = REVOKED
    for count, line in enumerate(lines):
        if count not in fates:
            owner = owners.get(_unit_key(line))
            fates[count] = ORDERED if owner == block.name else NO_UNIT if owner is None else \
                FOREIGN if Rule.NO_PROXY in rules else NOT_PROXIED
    ordered = {_unit_key(line) for count, line in enumerate(lines) if fates[count] == ORDERED}
    defaults = tuple((DEFAULT, f"{u} H") for u in block.units if _unit_key(str(u)) not in ordered)
    return tuple((fates[count], line) for count, line in enumerate(lines)) + defaults


def without_proxies(lines: tuple[str, ...] | None) -> tuple[str, ...] | None:
    """A list less its proxy lines (`A VIE P ITALY`), as DPjudge reads a list from its status
    file: it takes the power's name out of such a line, which then orders nothing and is
    dropped (by mail it refuses them). None: no list left."""
    kept = tuple(line for line in lines or () if line.upper().split()[2:3] not in (["P"], ["PROXY"]))
    return kept or None


def hold_for_new_units(p: Processing) -> Processing:
    """After adjustments, a power with units and no SOONER list (it had no units when the lists
    moved up, or sent none in a SKIP phase) gets one holding its first unit: else the next lists
    mailed would all go to SOONER, as the game's first lists do, and replace the locked ones."""
    if p.phase.type != ADJUSTMENTS:
        return p
    status = p.status
    for block in power_blocks(status, p.m):
        if block.units and not block.sooner:
            status = status.with_power(replace(block, sooner=_first_hold(block)))
    return replace(p, status=status)


def _moved_up(status: GameStatus, blocks: Sequence[PowerStatus]) -> GameStatus:
    for block in blocks:
        status = status.with_power(_next_lists(block))
    return status


def _next_lists(block: PowerStatus) -> PowerStatus:
    """The power's lists moved up: LATER becomes SOONER (none: its first unit holds)."""
    return replace(block, sooner=without_proxies(block.later) or _first_hold(block), later=None)


def _first_hold(block: PowerStatus) -> tuple[str, ...] | None:
    return (f"{block.units[0]} H",) if block.units else None


def _unit_key(line: str) -> tuple[str, str]:
    words = line.split()
    return words[0], words[1].split("/")[0]


XTALBALL = Variant("xtalball", "Crystal Ball Diplomacy", (
    Stage("lock the lists", lock_lists),
    *PIPELINE[:stages_through("write back")],
    Stage("hold for new units", hold_for_new_units),
    *PIPELINE[stages_through("write back"):],
))
