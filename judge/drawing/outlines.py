"""Regions as SVG path data at the picture's resolution, and their borders drawn once.

A PNG is rendered at the canvas's own width, one pixel a canvas unit, and the region borders are
drawn crisp (whole pixels): a ring's points are rounded to whole units, so points finer than a
pixel are dropped and the path data is short. Two regions that meet have the very same points
along their border, so they round alike and still meet without a gap.

The regions are filled without a stroke; their borders are one path in which every edge is drawn
once (each region's own outline would draw a shared border twice, and twice the stroke is a good
part of the cost of rendering a board of many provinces).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from judge.drawing.cells import Polygon

Pixel = tuple[int, int]
Ring = tuple[Pixel, ...]


def on_canvas(ring: Polygon, left: float, top: float, scale: float) -> Ring:
    """`ring` scaled by `scale` and moved to (`left`, `top`), its points rounded to whole units and
    repeats dropped; empty when less than three points are left (a ring smaller than a pixel)."""
    kept: list[Pixel] = []
    for x, y in ring:
        point = (round(left + x * scale), round(top + y * scale))
        if not kept or kept[-1] != point:
            kept.append(point)
    while len(kept) > 1 and kept[-1] == kept[0]:
        kept.pop()
    return tuple(kept) if len(kept) >= 3 else ()


def ring_paths(rings: Iterable[Ring]) -> str:
    """Path data of closed rings (the empty ones left out): each starts at its first point, the
    rest given relative to the point before (the shortest form)."""
    return "".join(_run(ring) + "z" for ring in rings if ring)


def border_path(rings: Sequence[Ring]) -> str:
    """Path data of every edge of `rings` once, open runs of edges: each ring adds the runs of its
    outline that no ring before it drew."""
    drawn: set[tuple[Pixel, Pixel]] = set()
    runs: list[list[Pixel]] = []
    for ring in rings:
        runs += _new_runs(ring, drawn)
    return "".join(_run(run) for run in runs)


def _new_runs(ring: Ring, drawn: set[tuple[Pixel, Pixel]]) -> list[list[Pixel]]:
    """The runs of `ring`'s edges not in `drawn` (which takes them), a run through the ring's first
    point kept whole."""
    runs: list[list[Pixel]] = []
    run: list[Pixel] = []
    for start, end in zip(ring, ring[1:] + ring[:1]):
        edge = (start, end) if start < end else (end, start)
        if edge in drawn:
            run = []
            continue
        drawn.add(edge)
        if not run:
            run = [start]
            runs.append(run)
        run.append(end)
    if len(runs) > 1 and runs[-1][-1] == runs[0][0]:
        runs[0][:1] = runs.pop()
    return runs


def _run(points: Sequence[Pixel]) -> str:
    (x, y), steps = points[0], []
    for nx, ny in points[1:]:
        steps.append(f"{nx - x},{ny - y}")
        x, y = nx, ny
    return f"M{points[0][0]},{points[0][1]}l" + " ".join(steps)
