"""A map of a thousand places and more is laid out and drawn at a cost that grows about as its
number of places, not as its square, and the same way every time."""
from __future__ import annotations

import math
import os
import random
import subprocess
import sys
import time

from judge.drawing.cells import cells, nearest_gaps
from judge.drawing.geometry import schematic_layout
from tests.support.maps import map_from_text

DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def grid_map(count: int):
    """`count` land places in a square grid, each abutting its grid neighbours."""
    side = math.isqrt(count - 1) + 1
    names = [f"Q{DIGITS[i // 36]}{DIGITS[i % 36]}" for i in range(count)]
    lines = [f"Place {i} = {name.lower()}" for i, name in enumerate(names)]
    for i, name in enumerate(names):
        column = i % side
        near = [i - 1 if column else -1, i + 1 if column + 1 < side else -1, i - side, i + side]
        lines.append(f"LAND {name} ABUTS {' '.join(names[j] for j in near if 0 <= j < count)}")
    return map_from_text("\n".join([*lines, "NORTH (NORTHERN) Q00", "A Q00"]) + "\n")


def cpu_seconds(count: int) -> float:
    m = grid_map(count)
    started = time.process_time()
    geometry = schematic_layout(m)
    sites = tuple((a, x, y) for a, x, y in geometry.points if "/" not in a)
    cells(sites, geometry.width, geometry.height)
    return time.process_time() - started


def test_four_times_the_places_cost_about_four_times_the_work():
    cpu_seconds(320)  # warmed up
    small = min(cpu_seconds(320) for _ in range(2))
    large = min(cpu_seconds(1280) for _ in range(2))
    assert large < 9 * small, (small, large)  # the square would be sixteen times


def test_nearest_gaps_are_those_of_every_pair():
    rng = random.Random(7)
    for count in (2, 3, 40, 400):
        points = [(round(rng.uniform(0, 900), 1), round(rng.uniform(0, 300), 1))
                  for _ in range(count)] + [(5.0, 5.0), (5.0, 5.0)]
        brute = [min((math.hypot(x - ox, y - oy) for ox, oy in points if (ox, oy) != (x, y)),
                     default=0.0) for x, y in points]
        assert nearest_gaps(points) == brute
    assert nearest_gaps([(1.0, 1.0), (1.0, 1.0)]) == [0.0, 0.0]


def test_a_large_map_is_laid_out_the_same_in_every_process():
    code = ("import hashlib;"
            "from tests.drawing.test_large_maps import grid_map;"
            "from judge.drawing.geometry import schematic_layout;"
            "points = repr(schematic_layout(grid_map(400)).points).encode();"
            "print(hashlib.sha256(points).hexdigest())")
    layouts = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              check=True, env={**os.environ, "PYTHONHASHSEED": seed}).stdout
               for seed in ("1", "2")}
    assert len(layouts) == 1
