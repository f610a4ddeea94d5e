#!/usr/bin/env python3
"""How fast a board is drawn, and how large its PNG is.

Run by hand, from the repository::

    python benchmarks/draw.py                          # standard and youngstown, 15 runs each
    python benchmarks/draw.py --maps standard --units 34 --repeat 31 --seed 2

For each map, a seeded position: `--units` units (34 by default, every centre of the standard map
held) on distinct provinces a unit of their type may stand on, each given a random legal order (a
hold, a move to a neighbour, or the support of a neighbour's hold or move), adjudicated once; the
benchmark then times, as the results mail does, the picture of that processed phase (every unit,
centre and order drawn): `svg` is the SVG text made from the resolution (`board_of_results` and
`draw_svg`), `png` that SVG rendered to PNG with the shipped font (`to_png`, its default width, 1,200
pixels on the standard map), and `png, judge's child` that PNG as the judge makes it for a mail: in
the child process kept for picture after picture (`PictureWorker`), the CPU of both processes
counted. The medians of CPU time and of wall time are shown, and the slowest
run's wall time, in milliseconds, after one untimed run that
works out the map's cells (kept for the map's later pictures,
as a long-running judge keeps them), and the PNG's size.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from judge.adjudicator import Position, resolve
from judge.drawing import board_of_results, draw_svg
from judge.drawing.geometry import fitted
from judge.drawing.loader import read_geometry
from judge.drawing.raster import to_png
from judge.limits import Limits
from judge.mailout.render import environment
from judge.maps import load_map, map_for_phase
from judge.orders.model import Hold, Move, Support
from judge.runtime.picture_process import PictureWorker, encode_bounded
from judge.types import Unit, UnitType


def position(m, count: int, rng: random.Random) -> tuple[Position, dict]:
    powers = list(m.powers)
    places = list(m.provinces)
    rng.shuffle(places)
    units: dict[str, list[Unit]] = {p: [] for p in powers}
    taken = 0
    for place in places:
        if taken == count:
            break
        kinds = [k for k in (UnitType.ARMY, UnitType.FLEET)
                 if m.can_stand(Unit(k, place))]
        coasts = [c for c in m.coasts_of(place) if m.can_stand(Unit(UnitType.FLEET, c))]
        if not kinds and not coasts:
            continue
        unit = Unit(kinds[0], place) if kinds and (not coasts or rng.random() < 0.6) else \
            Unit(UnitType.FLEET, rng.choice(coasts))
        units[powers[taken % len(powers)]].append(unit)
        taken += 1
    owner = {u.province: p for p, us in units.items() for u in us}
    centres = {p: frozenset(c for c in m.supply_centers if owner.get(c) == p) for p in powers}
    board = Position(m.begin, {p: tuple(us) for p, us in units.items()}, centres)
    return board, orders(m, board, rng)


def orders(m, board: Position, rng: random.Random) -> dict:
    at = {u.province: (p, u) for p, us in board.units.items() for u in us}
    given: dict = {p: [] for p in board.units}
    for power, units in board.units.items():
        for unit in units:
            moves = list(m.moves(unit.type, unit.location))
            roll = rng.random()
            near = [at[d.split("/")[0]] for d in moves if d.split("/")[0] in at]
            if roll < 0.5 and moves:
                given[power].append(Move(power, unit, rng.choice(moves)))
            elif roll < 0.8 and near:
                _, other = rng.choice(near)
                given[power].append(Support(power, unit, other, None))
            else:
                given[power].append(Hold(power, unit))
    return given


def timed(make, repeat: int) -> tuple[list[float], list[float], object]:
    """Milliseconds of CPU time (what the work costs, whatever else the machine is doing) and of wall
    time for each run, and what the last run made."""
    cpu, wall, made = [], [], None
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        made = make()
        cpu.append((time.process_time() - start_cpu) * 1000)
        wall.append((time.perf_counter() - start) * 1000)
    return cpu, wall, made


def timed_in_child(svg: str, repeat: int) -> tuple[list[float], list[float], object]:
    """`timed` for the PNG made in the judge's kept child, whose CPU is read from /proc."""
    worker, limits = PictureWorker(), Limits()
    made = encode_bounded(svg, "png", limits, worker)  # the child started, untimed
    pid = worker.running[0].process.pid
    cpu, wall = [], []
    for _ in range(repeat):
        start, start_cpu, child = time.perf_counter(), time.process_time(), _cpu_of(pid)
        made = encode_bounded(svg, "png", limits, worker)
        cpu.append((time.process_time() - start_cpu + _cpu_of(pid) - child) * 1000)
        wall.append((time.perf_counter() - start) * 1000)
    worker.close()
    return cpu, wall, made


def _cpu_of(pid: int) -> float:
    """Seconds of CPU a running process has used (Linux's /proc, in clock ticks)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def shown(cpu: list[float], wall: list[float]) -> str:
    return f"cpu {statistics.median(cpu):6.1f} ms, wall {statistics.median(wall):6.1f} ms (max {max(wall):6.1f})"


def bench(name: str, count: int, repeat: int, seed: int) -> None:
    base = load_map(name)
    m = map_for_phase(base, base.begin)
    board, given = position(m, count, random.Random(seed))
    resolution = resolve(m, board, given)
    geometry = fitted(m, read_geometry(m)[0])
    env = environment()
    drawing = board_of_results(name, resolution)
    draw_svg(env, m, geometry, drawing)  # the map's cells, worked out once
    *svg_ms, svg = timed(lambda: draw_svg(env, m, geometry, board_of_results(name, resolution)), repeat)
    *png_ms, png = timed(lambda: to_png(svg), repeat)
    *child_ms, _ = timed_in_child(svg, repeat)
    drawn = sum(len(us) for us in board.units.values())
    print(f"{name} ({drawn} units, {len(resolution.results)} orders; medians of {repeat} runs)\n"
          f"  svg: {shown(*svg_ms)}\n  png: {shown(*png_ms)}, {len(png) / 1000:.0f} KB\n"
          f"  png, judge's child: {shown(*child_ms)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--maps", nargs="+", default=["standard", "youngstown"])
    parser.add_argument("--units", type=int, default=34)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for name in args.maps:
        bench(name, args.units, args.repeat, args.seed)


if __name__ == "__main__":
    main()
