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
exactly the same phases, taking turns ten phases at a time (each going first every other batch, each
running its measures in the same order). Three measures, each in phases per second, the median over
the repetitions, of CPU time (`process_time`: what the work costs, whatever else the machine is
doing) and of wall time:

- core: the judge's `judge.adjudicator.resolve()` on typed orders (it checks each order, then
  adjudicates), against `Game.process()` on a game whose units and orders were set beforehand (its
  orders were checked then, untimed): the issue's measure;
- checked: the same `resolve()` against `set_orders(..., expand=False)` + `process()`: `diplomacy`
  too checks every order (given in its canonical form, so not rewritten) and adjudicates;
- pipe: what `judge adjudicate` does with a request short of starting and printing
  (`adjudicate_text`): the JSON text read, the orders' text read and checked, the phase resolved and
  the answer written as JSON text, against `set_units` + `set_orders` + `process` on a new game.

Neither engine is timed loading its map: the judge's is loaded once and handed to the pipeline, and
each `diplomacy` `Game` is made before the clock starts (it caches its maps itself). The share of
phases after which all three `diplomacy` games and the judge have the same units in the same places
is shown as a check that the comparison is fair.
"""
from __future__ import annotations

import argparse
import gc
import json
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
    unexpanded = _unit_game(map_name, case)
    _their_orders(unexpanded, case.texts(), expand=False)
    if unexpanded.get_orders() != accepted:
        raise RuntimeError("`diplomacy` reads the orders differently unexpanded: the checked measure "
                           "would not time the same phases")
    dropped = 0
    for power, orders in case.orders.items():
        kept = [o for o in orders if order_text(o) in accepted.get(power, ())]
        dropped += len(orders) - len(kept)
        case.orders[power] = kept
    return dropped


def their_units(game) -> dict[str, set[str]]:
    return {p: {u for u in us if not u.startswith("*")} for p, us in game.get_units().items()}


# --- timing --------------------------------------------------------------------------------------------

MEASURES = {  # name -> (what the judge does, what `diplomacy` does), both per phase
    "core": ("resolve()", "process()"),
    "checked": ("resolve()", "set_orders + process()"),
    "pipe": ("judge adjudicate", "set_units + set_orders + process()"),
}
ENGINE_TIMES = ("ours", "theirs", "theirs_checked", "ours_pipe", "theirs_pipe")


@dataclass
class Spent:
    """Seconds spent by each engine's part of each measure: CPU time and wall time."""

    cpu: dict[str, float] = field(default_factory=lambda: dict.fromkeys(ENGINE_TIMES, 0.0))
    wall: dict[str, float] = field(default_factory=lambda: dict.fromkeys(ENGINE_TIMES, 0.0))

    def clock(self, name: str, work, *args, **kwargs) -> Any:
        cpu, wall = time.process_time(), time.perf_counter()
        answer = work(*args, **kwargs)
        self.cpu[name] += time.process_time() - cpu
        self.wall[name] += time.perf_counter() - wall
        return answer


def _their_orders(game, texts: dict[str, list[str]], expand: bool = True) -> None:
    for power, orders in texts.items():
        game.set_orders(power, orders, expand=expand)


def _their_checked(game, texts: dict[str, list[str]]) -> None:
    """What a `diplomacy` user pays a phase for orders already in its canonical form: set them (each
    checked, not rewritten) and process."""
    _their_orders(game, texts, expand=False)
    game.process()


def _their_pipeline(game, units: dict[str, list[str]], texts: dict[str, list[str]]) -> None:
    for power, mine in units.items():
        game.set_units(power, mine, reset=True)
    _their_orders(game, texts)
    game.process()


def _pipeline(m: Map):
    """JSON text in, JSON text out, as `judge adjudicate` does between reading and printing."""
    from judge.adjudicator.request import adjudicate_text

    def pipeline(text: str) -> str:
        return adjudicate_text(text, lambda name: m)
    return pipeline


def _unit_game(map_name: str, case: Case):
    """A `diplomacy` game with the case's units and no orders (made before the clock starts)."""
    from diplomacy import Game  # type: ignore[import-untyped]
    game = Game(map_name=map_name)
    game.clear_units()
    for power, units in case.units.items():
        game.set_units(power, [str(u) for u in units], reset=True)
    return game


@dataclass
class Phases:
    """A batch of cases made ready for both engines (the `diplomacy` games made beforehand)."""

    positions: list[Position]
    orders: list[dict[str, list[Order]]]
    requests: list[str]
    units: list[dict[str, list[str]]]
    texts: list[dict[str, list[str]]]
    games: list  # for the core measure: units and orders set
    checked: list  # for the checked measure: units set
    fresh: list  # for the pipe measure: no units

    @classmethod
    def of(cls, m: Map, cases: list[Case]) -> Phases:
        from diplomacy import Game  # type: ignore[import-untyped]
        units = [{p: [str(u) for u in us] for p, us in c.units.items()} for c in cases]
        texts = [c.texts() for c in cases]
        fresh = [Game(map_name=m.name) for _ in cases]
        for game in fresh:
            game.clear_units()
        return cls([c.position() for c in cases], [c.orders for c in cases],
                   [json.dumps({"map": m.name, "phase": str(PHASE), "orders": t, "units": u})
                    for t, u in zip(texts, units)],
                   units, texts, [diplomacy_game(m.name, c) for c in cases],
                   [_unit_game(m.name, c) for c in cases], fresh)


def _judge_turn(spent: Spent, m: Map, pipeline, phases: Phases, new_lines: bool = False) -> list:
    resolutions = [spent.clock("ours", resolve, m, position, orders, m.rules)
                   for position, orders in zip(phases.positions, phases.orders)]
    for request in phases.requests:
        if new_lines:
            forget_lines(m)
        spent.clock("ours_pipe", pipeline, request)
    return resolutions


def forget_lines(m: Map) -> None:
    """Empty what the judge keeps of the order lines it has read on the map (their lexemes and
    plans), so that every line of the next request is read as if never met before."""
    from judge.orders.lexer import place_index
    from judge.orders.parser import movement_plans
    movement_plans(m).clear()
    place_index(m).lines.clear()


def _their_turn(spent: Spent, phases: Phases) -> None:
    for game in phases.games:
        spent.clock("theirs", game.process)
    for game, texts in zip(phases.checked, phases.texts):
        spent.clock("theirs_checked", _their_checked, game, texts)
    for game, units, texts in zip(phases.fresh, phases.units, phases.texts):
        spent.clock("theirs_pipe", _their_pipeline, game, units, texts)


BATCH = 10  # phases each engine adjudicates in a row, in each measure


def run_once(m: Map, cases: list[Case], new_lines: bool = False) -> tuple[Spent, float]:
    """One repetition: seconds spent by each engine in each measure, and the share of phases after
    which the engines agree. The engines take turns batch by batch (BATCH phases), each going first
    every other batch, so a busy machine slows both alike; within its turn each engine runs the
    measures in the same order (core, checked, pipe), a batch each, so that neither is timed more
    often than the other on the caches the other engine has just emptied (on a small machine that
    costs the judge a few hundred microseconds a phase). Set up before the clocks start is only what
    a user would not pay per phase: a `Game` made on the map (as the judge's map is loaded
    beforehand), for the core measure the orders set beforehand (the checked measure times setting
    them), and the garbage of that set-up collected."""
    pipeline = _pipeline(m)
    spent = Spent()
    same = 0
    for number, start in enumerate(range(0, len(cases), BATCH)):
        phases = Phases.of(m, cases[start:start + BATCH])
        gc.collect()
        if number % 2:
            _their_turn(spent, phases)
            resolutions = _judge_turn(spent, m, pipeline, phases, new_lines)
        else:
            resolutions = _judge_turn(spent, m, pipeline, phases, new_lines)
            _their_turn(spent, phases)
        for index, resolution in enumerate(resolutions):
            games = (phases.games[index], phases.checked[index], phases.fresh[index])
            mine = {p: {str(u) for u in us} for p, us in resolution.units.items() if us}
            same += all(mine == {p: us for p, us in their_units(g).items() if us} for g in games)
    return spent, same / len(cases)


def bench_map(map_name: str, args) -> dict:
    m = load_map(map_name)
    rng = random.Random(f"{args.seed} {map_name}")
    cases = [random_case(m, rng, args.density) for _ in range(args.positions)]
    dropped = sum(keep_accepted(map_name, c) for c in cases)
    rates: dict[tuple[str, str], list[float]] = {}
    agree = []
    for _ in range(args.repeat):
        gc.collect()
        spent, share = run_once(m, cases, args.new_lines)
        agree.append(share)
        for clock in ("cpu", "wall"):
            for name, seconds in getattr(spent, clock).items():
                if seconds:
                    rates.setdefault((clock, name), []).append(len(cases) / seconds)
    units = statistics.mean(sum(len(us) for us in c.units.values()) for c in cases)
    return {"map": map_name, "units": units, "dropped": dropped, "agree": min(agree),
            "rates": {key: statistics.median(v) for key, v in rates.items()}}


def report(r: dict) -> None:
    print(f"\n{r['map']}: {r['units']:.1f} units a phase, {r['dropped']} orders dropped, "
          f"same units after {r['agree']:.0%} of phases")
    print(f"{'measure':8} {'judge':22} {'diplomacy':36} {'CPU: judge':>10} {'dipl.':>7} {'ratio':>6}"
          f"   {'wall: judge':>11} {'dipl.':>7} {'ratio':>6}")
    rates = r["rates"]
    for measure, (ours, theirs) in MEASURES.items():
        mine = "ours_pipe" if measure == "pipe" else "ours"
        theirs_key = {"core": "theirs", "checked": "theirs_checked", "pipe": "theirs_pipe"}[measure]
        if ("cpu", mine) not in rates:
            continue
        cells = []
        for clock in ("cpu", "wall"):
            a, b = rates[(clock, mine)], rates[(clock, theirs_key)]
            cells.append(f"{a:10.0f} {b:7.0f} {a / b:6.2f}")
        print(f"{measure:8} {ours:22} {theirs:36} {cells[0]}   {' ' + cells[1]}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--maps", default="standard,modern", help="comma-separated map names")
    parser.add_argument("--positions", type=int, default=200, help="random positions per map")
    parser.add_argument("--repeat", type=int, default=5, help="repetitions (the median is shown)")
    parser.add_argument("--density", type=float, default=0.45, help="share of provinces with a unit")
    parser.add_argument("--seed", default="1")
    parser.add_argument("--new-lines", action="store_true",
                        help="pipe: read every order line as never met before (the judge keeps the "
                             "lines it has read on a map, and random positions repeat many)")
    args = parser.parse_args(argv)
    try:
        import diplomacy  # type: ignore[import-untyped]  # noqa: F401
    except ImportError:
        print("the `diplomacy` package is missing: pip install -e '.[bench]'", file=sys.stderr)
        return 2
    print(f"{args.positions} positions a map, median of {args.repeat} runs, phases per second "
          f"(ratio: judge / diplomacy)")
    for name in args.maps.split(","):
        report(bench_map(name.strip(), args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
