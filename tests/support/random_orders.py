"""Seeded random orders for a phase of any map, written as a player writes them: moves, supports of
holds and of moves, convoys and the armies' moves they carry, retreats and disbands, builds, waived
builds and removals (every removal ordered, so no judge removes a unit at random), and now and then a
mail with a line no judge can read. The recorder of DPjudge's games uses it; a replay reads the orders
as recorded."""
from __future__ import annotations

import random

from judge.game.orders import adjustment_counts, adjustment_options
from judge.game.rules import rules_in_force
from judge.maps.model import Location, Map, Terrain
from judge.status.model import GameStatus
from judge.types import ADJUSTMENTS, MOVEMENT, RETREATS, Phase, Unit

BAD_LINES = ("A XYZ - PAR", "F QQQ H", "A BOGUS SUPPORTS", "MOVE EVERYTHING NOW")


def _location(m: Map, unit: Unit) -> Location | None:
    return m.locations.get(unit.location)


def _moves(m: Map, unit: Unit) -> list[str]:
    """Where the unit can move in one step, as the map's adjacencies allow it."""
    here = _location(m, unit)
    if here is None:
        return []
    army = unit.type.value == "A"
    out = []
    for abut in here.abuts:
        if abut.powers is not None or abut.centers or abut.special:
            continue  # a restricted crossing: left out, the orders stay plainly legal
        there = m.locations.get(abut.dest)
        if there is None or not (abut.army if army else abut.fleet):
            continue
        if (army and there.army_ok) or (not army and there.fleet_can_stand):
            out.append(there.abbrev)
    return sorted(set(out))


def _reaches(m: Map, unit: Unit, province: str) -> bool:
    return any(p.split("/")[0] == province for p in _moves(m, unit))


def _is_sea(m: Map, unit: Unit) -> bool:
    here = _location(m, unit)
    return here is not None and unit.type.value == "F" and not here.army_ok


def movement(m: Map, status: GameStatus, rng: random.Random) -> dict[str, list[str]]:
    """Each power's movement orders, one per unit: first where every unit means to go, then some
    turned into supports and convoys of what the others mean to do."""
    everyone = [u for b in status.powers for u in b.units]
    routes = {u: _plan(m, u, everyone, rng) for u in everyone}
    plans = {u: r[-1] if r else None for u, r in routes.items()}
    given: dict[str, list[str]] = {}
    for block in status.powers:
        if block.units:
            given[block.name] = [_movement_order(m, u, plans, routes, rng) for u in block.units]
    return given


def _plan(m: Map, unit: Unit, everyone: list[Unit], rng: random.Random) -> tuple[str, ...] | None:
    """Where the unit means to go, by way of a sea for a convoy (None: it stays): more often than
    not an attack on a unit or a supply centre, so that units are dislodged and retreat."""
    moves = _moves(m, unit)
    roll = rng.random()
    if roll < 0.2 or not moves:
        return None
    if roll < 0.45:
        over = _convoyed_move(m, unit, everyone, rng)
        if over:
            return over
    taken = {u.province for u in everyone if u != unit}
    targets = [p for p in moves if p.split("/")[0] in taken or p.split("/")[0] in m.supply_centers]
    return (rng.choice(targets if targets and rng.random() < 0.7 else moves),)


def _movement_order(m: Map, unit: Unit, plans: dict[Unit, str | None],
                    routes: dict[Unit, tuple[str, ...] | None], rng: random.Random) -> str:
    order = _convoy(unit, routes, rng)
    if order and rng.random() < 0.8:
        return order
    order = _support(m, unit, plans, rng) if rng.random() < 0.4 else None
    if order:
        return order
    route = routes[unit]
    return f"{unit} - {' - '.join(route)}" if route else f"{unit} H"


def _support(m: Map, unit: Unit, plans: dict[Unit, str | None], rng: random.Random) -> str | None:
    """A support of what a neighbour means to do: its hold, or its move to a province this unit
    could move to (named without a coast)."""
    moving = [(u, d.split("/")[0]) for u, d in plans.items() if u != unit and d
              and d.split("/")[0] != unit.province and _reaches(m, unit, d.split("/")[0])]
    holding = [u for u, d in plans.items() if u != unit and d is None and _reaches(m, unit, u.province)]
    if moving and (not holding or rng.random() < 0.7):
        other, to = rng.choice(moving)
        return f"{unit} S {other} - {to}"
    if holding:
        return f"{unit} S {rng.choice(holding)}"
    return None


def _coastal_neighbours(m: Map, fleet: Unit) -> list[str]:
    """The provinces next to a sea an army can stand on."""
    here = _location(m, fleet)
    out = set()
    for abut in here.abuts if here else ():
        there = m.locations.get(abut.dest.split("/")[0])
        if there is not None and there.army_ok and there.terrain != Terrain.LAND:
            out.add(there.province)
    return sorted(out)


def _convoy(unit: Unit, routes: dict[Unit, tuple[str, ...] | None], rng: random.Random) -> str | None:
    """A fleet convoys an army whose route crosses its sea."""
    crossing = [(a, r[-1]) for a, r in routes.items() if r and len(r) == 2 and r[0] == unit.location]
    if not crossing:
        return None
    army, dest = rng.choice(crossing)
    return f"{unit} C {army} - {dest}"


def _convoyed_move(m: Map, unit: Unit, everyone: list[Unit], rng: random.Random
                   ) -> tuple[str, str] | None:
    """A sea where a fleet stands and a shore of it the army could reach only across it: the
    route written out, as DPjudge wants it (it refuses `A NAP - TUN`, fleet or no fleet)."""
    if unit.type.value != "A":
        return None
    seas = [f for f in everyone if _is_sea(m, f) and unit.province in _coastal_neighbours(m, f)]
    if not seas:
        return None
    sea = rng.choice(seas)
    ends = [p for p in _coastal_neighbours(m, sea) if p != unit.province and not _reaches(m, unit, p)]
    return (sea.location, rng.choice(ends)) if ends else None


def retreats(status: GameStatus, rng: random.Random) -> dict[str, list[str]]:
    """Each dislodged unit retreats to one of its places, or disbands."""
    given: dict[str, list[str]] = {}
    for block in status.powers:
        lines = []
        for d in block.dislodged:
            if d.retreats and rng.random() < 0.8:
                lines.append(f"{d.unit} - {rng.choice(sorted(d.retreats))}")
            else:
                lines.append(f"{d.unit} DISBAND")
        if lines:
            given[block.name] = lines
    return given


def adjustments(m: Map, status: GameStatus, rng: random.Random) -> dict[str, list[str]]:
    """Builds on open sites (some waived) and every removal a power owes, as the judge counts them."""
    phase = status.phase
    assert isinstance(phase, Phase)
    rules = rules_in_force(status, m)
    options = adjustment_options(status, m, phase, rules)
    given: dict[str, list[str]] = {}
    for power, count in adjustment_counts(status, m, phase, rules).items():
        block = status.power(power)
        assert block is not None
        if count < 0:
            given[power] = [f"REMOVE {u}" for u in rng.sample(list(block.units), -count)]
        else:
            # waives for every build the centres allow, more than the sites left take
            lines = _builds(m, sorted(options[power].sites()), count, rng)
            given[power] = lines + ["BUILD WAIVED"] * (options[power].count - count)
    return given


def _builds(m: Map, sites: list[str], count: int, rng: random.Random) -> list[str]:
    rng.shuffle(sites)
    lines = []
    for site in sites[:count]:
        kinds = [f"A {site}"] if m.locations[site].army_ok else []
        kinds += [f"F {loc.abbrev}" for loc in m.locations.values()
                  if loc.province == site and loc.fleet_can_stand and _has_sea_coast(m, loc)]
        if kinds and rng.random() < 0.85:
            lines.append(f"BUILD {rng.choice(sorted(kinds))}")
    return lines + ["BUILD WAIVED"] * (count - len(lines))


def _has_sea_coast(m: Map, loc: Location) -> bool:
    """A fleet is built on a coast of its own where the province has coasts."""
    return loc.coast is not None or not any(
        other.province == loc.province and other.coast for other in m.locations.values())


def phase_orders(m: Map, status: GameStatus, rng: random.Random) -> dict[str, list[str]]:
    phase = status.phase
    assert isinstance(phase, Phase)
    if phase.type == MOVEMENT:
        return movement(m, status, rng)
    if phase.type == RETREATS:
        return retreats(status, rng)
    if phase.type == ADJUSTMENTS:
        return adjustments(m, status, rng)
    return {}


def bad_line(rng: random.Random) -> str:
    return rng.choice(BAD_LINES)
