"""The board as the status file holds it, and as the adjudicator reads it.

`position_of` reads units, dislodged units, centres and homes from the power blocks; `with_board`
writes a board back. Centre capture at the year's end (`capture`) is here too: each supply centre on
which a unit stands passes to the unit's power, and the others keep their owner.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace

from judge.adjudicator.model import Position
from judge.maps.model import Map
from judge.status.model import Dislodged, GameStatus, PowerStatus
from judge.status.values import BUILD_ANYWHERE
from judge.types import Phase, Unit

Units = Mapping[str, tuple[Unit, ...]]
Centers = Mapping[str, frozenset[str]]
Retreats = Mapping[str, Mapping[Unit, tuple[str, ...]]]
BUILD_TOKENS = ("SC!", "SC?")


def power_blocks(status: GameStatus, m: Map) -> list[PowerStatus]:
    """The blocks of the map's powers, in file order."""
    return [b for b in status.powers if b.is_power and b.name in m.powers]


def owned_centers(block: PowerStatus) -> frozenset[str]:
    """The centres an OWNS line lists, without the `SC!`, `SC?` and `SC*` build tokens."""
    return frozenset(c for c in block.owns if c not in BUILD_ANYWHERE)


def build_tokens(status: GameStatus, m: Map) -> dict[str, tuple[int, int]] | None:
    """Power -> the (`SC!`, `SC?`) build tokens its OWNS line holds; None when no line holds one
    (the map's tokens then count in the game's first adjustment phase)."""
    blocks = power_blocks(status, m)
    if not any(c in BUILD_TOKENS for b in blocks for c in b.owns):
        return None
    return {b.name: (b.owns.count("SC!"), b.owns.count("SC?")) for b in blocks}


def position_of(status: GameStatus, m: Map, phase: Phase) -> Position:
    blocks = power_blocks(status, m)
    homes = {b.name: frozenset(b.home) for b in blocks if b.home is not None}
    return Position(
        phase=phase,
        units={b.name: tuple(b.units) for b in blocks},
        centers={b.name: owned_centers(b) for b in blocks if owned_centers(b)},
        dislodged={b.name: {d.unit: d.retreats for d in b.dislodged} for b in blocks if b.dislodged},
        homes=homes or None,
        dummies=frozenset(b.name for b in blocks if b.player is not None and b.player.dummy),
        tokens=build_tokens(status, m),
    )


def centers_of(status: GameStatus, m: Map) -> dict[str, frozenset[str]]:
    return {b.name: owned_centers(b) for b in power_blocks(status, m)}


def units_of(status: GameStatus, m: Map) -> dict[str, tuple[Unit, ...]]:
    return {b.name: tuple(b.units) for b in power_blocks(status, m)}


def with_board(status: GameStatus, m: Map, units: Units | None = None, dislodged: Retreats | None = None,
               centers: Centers | None = None, homes: Mapping[str, frozenset[str]] | None = None,
               keep_tokens: bool = True, tokens: Mapping[str, tuple[int, int]] | None = None
               ) -> GameStatus:
    """`status` with the given parts of the board replaced for every power of the map (a part left
    None is kept). HOME lines are written only where the homes differ from the map's. With new
    centres, the OWNS line keeps its build tokens, or (not `keep_tokens`) holds those of `tokens`."""
    for name, info in m.powers.items():
        block = status.power(name) or PowerStatus(name=name)
        changes: dict = {}
        if units is not None:
            changes["units"] = tuple(units.get(name, ()))  # in the order given: DPjudge's
        if dislodged is not None:
            changes["dislodged"] = tuple(Dislodged(u, tuple(sorted(r)))
                                         for u, r in sorted(dislodged.get(name, {}).items()))
        if centers is not None:
            kept = tuple(c for c in block.owns if c in BUILD_ANYWHERE) if keep_tokens else \
                _token_words((tokens or {}).get(name, (0, 0)))
            changes["owns"] = tuple(sorted(centers.get(name, ()))) + kept
        if homes is not None and name in homes:
            mine = tuple(sorted(homes[name]))
            changes["home"] = None if mine == tuple(sorted(info.homes)) else mine
        if changes or status.power(name) is None:
            status = status.with_power(replace(block, **changes))
    return status


def _token_words(tokens: tuple[int, int]) -> tuple[str, ...]:
    return ("SC!",) * tokens[0] + ("SC?",) * tokens[1]


def capture(m: Map, units: Units, centers: Centers, keeps: Callable[[str, str], bool] | None = None
            ) -> tuple[dict[str, frozenset[str]], dict[str, str]]:
    """Ownership once each unit takes the supply centre it stands on; and centre -> new owner for the
    centres that changed hands. `keeps(holder, taker)`: the holder keeps its centre (VASSAL_DUMMIES)."""
    owner = {c: p for p, cs in centers.items() for c in cs}
    changed: dict[str, str] = {}
    for power, mine in units.items():
        for unit in mine:
            holder = owner.get(unit.province)
            if keeps is not None and holder is not None and keeps(holder, power):
                continue
            if unit.province in m.supply_centers and holder != power:
                owner[unit.province] = power
                changed[unit.province] = power
    result: dict[str, set[str]] = {p: set() for p in centers}
    for center, power in owner.items():
        result.setdefault(power, set()).add(center)
    return {p: frozenset(cs) for p, cs in result.items()}, changed


def survivors(status: GameStatus, m: Map) -> list[str]:
    """Powers owning at least one supply centre, in file order."""
    return [b.name for b in power_blocks(status, m) if owned_centers(b)]


def alive(block: PowerStatus) -> bool:
    """Whether a power is still on the board: it has centres (or build tokens, as DPjudge counts
    them: MOBILIZE, GARRISON), units or dislodged units."""
    return bool(block.owns or block.units or block.dislodged)
