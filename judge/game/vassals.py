"""VASSAL_DUMMIES and TORN_ALLEGIANCE, at the year's end (DPjudge's captureCenters and vassalship).

A dummy (PLAYER DUMMY) is a minor power; its CONTROL line names the great power it is a vassal of.
- Capture: a unit takes no centre from a power of its own side: from the power controlling it, from
  a vassal of its power, or from a vassal of the same controller (`keeps`).
- Vassalship, once centres are taken: a minor power all of whose owned homes belong to one great
  power (or its vassals) becomes that power's vassal (a minor power's side makes it independent);
  otherwise its allegiance does not change. Then every minor power gets its homes back from whoever
  took them, and hands its controller the controller's homes it holds.
- TORN_ALLEGIANCE: a vassal's unit standing on a centre of another side (a great power, or a vassal
  of another) is destroyed.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from judge.game.positions import owned_centers, power_blocks, with_board
from judge.maps.model import Map
from judge.status.model import GameStatus, PowerStatus
from judge.types import Unit


@dataclass
class Vassalage:
    """What the year's end did to the minor powers."""

    status: GameStatus
    moved: dict[str, str] = field(default_factory=dict)  # centre -> new owner, back from a taker
    torn: dict[str, tuple[Unit, ...]] = field(default_factory=dict)  # units destroyed
    allegiance: tuple[tuple[str, str | None], ...] = ()  # minor power -> its controller, if any


def keeps(status: GameStatus):
    """Capture under VASSAL_DUMMIES: whether `holder` keeps a centre a unit of `taker` stands on."""
    control = {b.name: b.control[:1] for b in status.powers if b.is_power}

    def kept(holder: str, taker: str) -> bool:
        if control.get(holder):
            return control.get(taker) == control[holder] or control[holder] == (taker,)
        return control.get(taker) == (holder,)
    return kept


def vassalship(status: GameStatus, m: Map, torn_allegiance: bool) -> Vassalage:
    blocks = {b.name: b for b in power_blocks(status, m)}
    minors = [b.name for b in blocks.values() if _minor(b)]
    owner = {c: p for p, b in blocks.items() for c in owned_centers(b)}
    control = {p: b.control for p, b in blocks.items()}
    homes = {p: frozenset(b.home if b.home is not None else m.powers[p].homes) for p, b in blocks.items()}
    for minor, side in {p: _side(p, homes[p], owner, control) for p in minors}.items():
        if side is not None:
            control[minor] = () if _minor(blocks[side]) else (side,)
    moved: dict[str, str] = {}
    for minor in minors:
        for home in homes[minor]:
            if owner.get(home, minor) != minor:
                owner[home] = moved[home] = minor
        chief = control[minor][:1]
        if chief and chief[0] in blocks:
            for centre in sorted(homes[chief[0]]):
                if owner.get(centre) == minor:
                    owner[centre] = moved[centre] = chief[0]
    for name, block in blocks.items():
        if control[name] != block.control:
            status = status.with_power(replace(block, control=control[name]))
    centers = {p: frozenset(c for c, o in owner.items() if o == p) for p in blocks}
    status = with_board(status, m, centers=centers)
    torn = _torn(status, m, owner, control) if torn_allegiance else {}
    if torn:
        status = with_board(status, m, units={p: tuple(u for u in b.units if u not in torn.get(p, ()))
                                              for p, b in blocks.items()})
    allegiance = tuple((p, control[p][0] if control[p] else None) for p in minors)
    return Vassalage(status, moved, torn, allegiance)


def _minor(block: PowerStatus) -> bool:
    return block.player is not None and block.player.dummy


def _side(minor: str, homes: frozenset[str], owner: Mapping[str, str],
          control: Mapping[str, tuple[str, ...]]) -> str | None:
    """The one power whose side holds every owned home of the minor power, if another's."""
    runners = [(control.get(owner[h]) or (owner[h],))[0] for h in sorted(homes) if h in owner]
    if runners and runners[0] != minor and len(set(runners)) == 1:
        return runners[0]
    return None


def _torn(status: GameStatus, m: Map, owner: Mapping[str, str],
          control: Mapping[str, tuple[str, ...]]) -> dict[str, tuple[Unit, ...]]:
    torn: dict[str, tuple[Unit, ...]] = {}
    blocks = {b.name: b for b in power_blocks(status, m)}
    for name, block in blocks.items():
        if not _minor(block) or not control[name]:
            continue
        for unit in block.units:
            other = owner.get(unit.province)
            if other is None or other == name or (other,) == control[name][:1] \
                    or control.get(other) == control[name]:
                continue
            if not _minor(blocks[other]) or control.get(other):
                torn[name] = torn.get(name, ()) + (unit,)
    return torn
