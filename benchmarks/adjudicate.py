#!/usr/bin/env python3
"""How fast movement phases are adjudicated: the judge against the `diplomacy` package (PyPI).

Run by hand, from the repository (the `bench` extra installs `diplomacy`)::

    pip install -e '.[bench]'
    python benchmarks/adjudicate.py                        # standard and modern, 200 positions, 5 runs
    python benchmarks/adjudicate.py --maps standard --positions 500 --repeat 7 --seed 3

Each map gets seeded random positions: units on random provinces (a random type the place allows, a
random power), and for each unit a random legal order: hold, move to a neighbour, support of a
neighbouring unit's hold or move, or (a fleet at sea) convoy of an army across its sea, the army then
ordered there. Orders the `diplomacy` package refuses are dropped for both engines, so both adjudicate
exactly the same phases, taking turns phase by phase. Two measures, each the median over the
repetitions, in phases per second:

- core: the judge's `judge.adjudicator.resolve()` on typed orders, against `Game.process()` on a game
  whose units and orders were set beforehand;
- pipeline: `judge.adjudicator.request.adjudicate_request()` on the JSON request (order text read,
  checked, resolved and written back), against `set_units` + `set_orders` + `process` on a new game.

`agree` is the share of phases after which both engines put the same units in the same places.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from judge.adjudicator import resolve
from judge.adjudicator.model import Position
from judge.maps.loader import load_map
from judge.maps.model import Map, Terrain
from judge.orders.model import Convoy, Hold, Move, Order, Support
from judge.types import Phase, Unit, UnitType, province_of

A, F = UnitType.ARMY, UnitType.FLEET
PHASE = Phase("SPRING", 1901, "MOVEMENT")


@dataclass
class Case:
    """One random position with its orders, typed for the judge and as text for both."""

    units: dict[str, list[Unit]]
    orders: dict[str, list[Order]] = field(default_factory=dict)

    def texts(self) -> dict[str, list[str]]:
        return {p: [order_text(o) for o in os] for p, os in self.orders.items()}

    def position(self) -> Position:
        return Position(PHASE, {p: tuple(us) for p, us in self.units.items()}, {})


# --- random positions and orders ---------------------------------------------------------------------

def random_case(m: Map, rng: random.Random, density: float) -> Case:
    places = [p for p in m.provinces if _unit_choices(m, p)]
    powers = sorted(m.powers)
    case = Case({p: [] for p in powers})
    for province in rng.sample(places, int(len(places) * density)):
        case.units[rng.choice(powers)].append(rng.choice(_unit_choices(m, province)))
    _give_orders(m, rng, case)
    return case


def _unit_choices(m: Map, province: str) -> list[Unit]:
    units = [Unit(A, province)] if m.locations[province].army_ok else []
    return units + [Unit(F, loc) for loc in (province, *m.coasts_of(province)) if m.can_stand(Unit(F, loc))]


def _give_orders(m: Map, rng: random.Random, case: Case) -> None:
    owner = {u: p for p, us in case.units.items() for u in us}
    given: dict[Unit, Order] = {}
    for unit in sorted(owner):
        if unit in given:
            continue
        roll = rng.random()
        if roll < 0.15 and m.locations[unit.location].terrain is Terrain.WATER:
            _convoy(m, rng, unit, owner, given)
        elif roll < 0.6:
            dests = _moves(m, unit)
            if dests:
                given[unit] = Move(owner[unit], unit, rng.choice(dests))
    for unit in sorted(owner):
        if unit not in given:
            support = _support(m, rng, unit, owner, given) if rng.random() < 0.7 else None
            given[unit] = support or Hold(owner[unit], unit)
    case.orders = {p: [given[u] for u in us] for p, us in case.units.items()}


def _moves(m: Map, unit: Unit) -> list[str]:
    abuts = ((d, m.abut(unit.type, unit.location, d)) for d in m.moves(unit.type, unit.location))
    return [d for d, abut in abuts if abut is not None and not abut.restricted]


def _reaches(m: Map, unit: Unit, province: str) -> bool:
    return any(province_of(d) == province for d in _moves(m, unit))


def _convoy(m: Map, rng, fleet: Unit, owner: dict, given: dict) -> None:
    shores = {province_of(d) for d in _moves(m, fleet)}
    armies = [u for u in owner if u.type is A and u.province in shores and u not in given]
    if not armies:
        return
    army = rng.choice(sorted(armies))
    dests = [p for p in sorted(shores) if p != army.province and m.locations[p].army_ok
             and not _reaches(m, army, p)]
    if dests:
        dest = rng.choice(dests)
        given[fleet] = Convoy(owner[fleet], fleet, army.province, dest)
        given[army] = Move(owner[army], army, dest)


def _support(m: Map, rng, unit: Unit, owner: dict, given: dict) -> Order | None:
    choices: list[tuple[Unit, str | None]] = []
    for other, order in given.items():
        if other == unit or order is None:
            continue
        if isinstance(order, Move) and _reaches(m, unit, province_of(order.dest)):
            choices.append((other, province_of(order.dest)))
        elif not isinstance(order, Move) and _reaches(m, unit, other.province):
            choices.append((other, None))
    if not choices:
        return None
    target, dest = rng.choice(sorted(choices, key=str))
    return Support(owner[unit], unit, target, dest)


def order_text(order: Order) -> str:
    if isinstance(order, Move):
        return f"{order.unit} - {order.dest}"
    if isinstance(order, Support):
        return f"{order.unit} S {order.target}" + (f" - {order.dest}" if order.dest else "")
    if isinstance(order, Convoy):
        return f"{order.unit} C A {order.army} - {order.dest}"
    if isinstance(order, Hold):
        return f"{order.unit} H"
    raise TypeError(f"no movement order: {order}")


# --- the `diplomacy` package ---------------------------------------------------------------------------

def diplomacy_game(map_name: str, case: Case):
    from diplomacy import Game  # type: ignore[import-untyped]
    game = Game(map_name=map_name)
    game.clear_units()
    for power, units in case.units.items():
        game.set_units(power, [str(u) for u in units], reset=True)
    for power, texts in case.texts().items():
        game.set_orders(power, texts)
    return game


def keep_accepted(map_name: str, case: Case) -> int:
    """Drop the orders `diplomacy` refuses (the unit then holds in both engines); how many."""
    accepted = diplomacy_game(map_name, case).get_orders()
    dropped = 0
    for power, orders in case.orders.items():
        kept = [o for o in orders if order_text(o) in accepted.get(power, ())]
        dropped += len(orders) - len(kept)
        case.orders[power] = kept
    return dropped


def their_units(game) -> dict[str, set[str]]:
    return {p: {u for u in us if not u.startswith("*")} for p, us in game.get_units().items()}


# --- timing --------------------------------------------------------------------------------------------

def _clock(work, *args, **kwargs) -> tuple[float, Any]:
    start = time.perf_counter()
    answer = work(*args, **kwargs)
    return time.perf_counter() - start, answer


def _their_pipeline(game, case: Case) -> None:
    for power, units in case.units.items():
        game.set_units(power, [str(u) for u in units], reset=True)
    for power, texts in case.texts().items():
        game.set_orders(power, texts)
    game.process()


def _pipeline():
    try:
        from judge.adjudicator.request import adjudicate_request
    except ImportError:
        return None
    return adjudicate_request


def run_once(m: Map, cases: list[Case]) -> tuple[dict[str, float], float]:
    """One repetition, the engines taking turns phase by phase (so both see the same machine load):
    seconds spent by each measure, and the share of phases on which they agree."""
    from diplomacy import Game  # type: ignore[import-untyped]
    pipeline = _pipeline()
    seconds = dict.fromkeys(("ours", "theirs", "ours_pipe", "theirs_pipe"), 0.0)
    same = 0
    for case in cases:
        game, fresh = diplomacy_game(m.name, case), Game(map_name=m.name)
        fresh.clear_units()
        spent, resolution = _clock(resolve, m, case.position(), case.orders, m.rules)
        seconds["ours"] += spent
        seconds["theirs"] += _clock(game.process)[0]
        if pipeline is not None:
            request = {"map": m.name, "phase": str(PHASE), "orders": case.texts(),
                       "units": {p: [str(u) for u in us] for p, us in case.units.items()}}
            seconds["ours_pipe"] += _clock(pipeline, request, load_map=lambda name, m=m: m)[0]
        seconds["theirs_pipe"] += _clock(_their_pipeline, fresh, case)[0]
        mine = {p: {str(u) for u in us} for p, us in resolution.units.items() if us}
        same += mine == {p: us for p, us in their_units(game).items() if us}
    if pipeline is None:
        del seconds["ours_pipe"]
    return seconds, same / len(cases)


def bench_map(map_name: str, args) -> dict:
    m = load_map(map_name)
    rng = random.Random(f"{args.seed} {map_name}")
    cases = [random_case(m, rng, args.density) for _ in range(args.positions)]
    dropped = sum(keep_accepted(map_name, c) for c in cases)
    rates: dict[str, list[float]] = {}
    for _ in range(args.repeat):
        seconds, agree = run_once(m, cases)
        for measure, spent in seconds.items():
            rates.setdefault(measure, []).append(len(cases) / spent)
    units = statistics.mean(sum(len(us) for us in c.units.values()) for c in cases)
    return {"map": map_name, "units": units, "dropped": dropped, "agree": agree, "ours_pipe": None,
            **{k: statistics.median(v) for k, v in rates.items()}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--maps", default="standard,modern", help="comma-separated map names")
    parser.add_argument("--positions", type=int, default=200, help="random positions per map")
    parser.add_argument("--repeat", type=int, default=5, help="repetitions (the median is shown)")
    parser.add_argument("--density", type=float, default=0.45, help="share of provinces with a unit")
    parser.add_argument("--seed", default="1")
    args = parser.parse_args(argv)
    try:
        import diplomacy  # type: ignore[import-untyped]  # noqa: F401
    except ImportError:
        print("the `diplomacy` package is missing: pip install -e '.[bench]'", file=sys.stderr)
        return 2
    print(f"{args.positions} positions a map, median of {args.repeat} runs, phases per second")
    print(f"{'map':10} {'units':>5} {'judge':>9} {'diplomacy':>9} {'ratio':>6}   "
          f"{'judge pipe':>10} {'dipl. pipe':>10} {'ratio':>6}   {'agree':>5} {'dropped':>7}")
    for name in args.maps.split(","):
        r = bench_map(name.strip(), args)
        pipe = f"{r['ours_pipe']:10.0f}" if r["ours_pipe"] else f"{'-':>10}"
        pipe_ratio = f"{r['ours_pipe'] / r['theirs_pipe']:6.2f}" if r["ours_pipe"] else f"{'-':>6}"
        print(f"{r['map']:10} {r['units']:5.1f} {r['ours']:9.0f} {r['theirs']:9.0f} "
              f"{r['ours'] / r['theirs']:6.2f}   {pipe} {r['theirs_pipe']:10.0f} {pipe_ratio}   "
              f"{r['agree']:5.0%} {r['dropped']:7d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
