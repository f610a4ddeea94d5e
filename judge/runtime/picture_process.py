"""A picture's PNG or PDF made in a child process, within the judgekeeper's limits.

resvg and Pillow hold the interpreter's lock while they render, and a hostile map can ask them for
gigabytes and minutes: run in the judge's own process they would stall the SMTP gateway's event
loop and every other mail. The child (`picture_child.py`) reads the SVG on its standard input and
writes the picture on its standard output, its address space and CPU time capped by `setrlimit`
before it draws; the parent kills it when it takes longer than `picture_seconds`. A picture of more
pixels or bytes than the limits allow is refused before or after it is drawn. Whatever goes wrong
is a `PictureRefused`: the picture's own fault, never the judge's, and the mail goes without it.
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from judge.drawing.raster import PDF_ZOOM
from judge.limits import Limits

CHILD = Path(__file__).resolve().with_name("picture_child.py")
CANVAS = re.compile(r'<svg\b[^>]*?\bwidth="([0-9.]+)"[^>]*?\bheight="([0-9.]+)"')


class PictureRefused(Exception):
    """A picture that cannot be made within the limits (or at all)."""


def pixels_of(svg: str, kind: str) -> float:
    """How many pixels drawing `svg` as `kind` renders (the PDF's page at its zoom)."""
    found = CANVAS.search(svg[:4096])
    if not found:
        raise PictureRefused("the picture has no width and height")
    zoom = PDF_ZOOM if kind == "pdf" else 1
    return float(found.group(1)) * float(found.group(2)) * zoom * zoom


def encode_bounded(svg: str, kind: str, limits: Limits) -> bytes:
    """The picture in `kind` (svg, png or pdf), drawn in a child process within `limits`."""
    if kind == "svg":
        data = svg.encode("utf-8")
    else:
        pixels = pixels_of(svg, kind)
        if pixels > limits.picture_pixels:
            raise PictureRefused(f"{pixels:.0f} pixels, more than the {limits.picture_pixels} "
                                 "a picture may have")
        data = _drawn_by_child(svg, kind, limits)
    if len(data) > limits.picture_bytes:
        raise PictureRefused(f"{len(data)} bytes, more than the {limits.picture_bytes} a "
                             "picture may have")
    return data


def _drawn_by_child(svg: str, kind: str, limits: Limits) -> bytes:
    argv = [sys.executable, str(CHILD), kind, str(limits.picture_memory_mb),
            str(limits.picture_seconds)]
    try:
        done = subprocess.run(argv, input=svg.encode("utf-8"), capture_output=True,
                              timeout=limits.picture_seconds, check=False)
    except subprocess.TimeoutExpired as exc:  # run() has killed the child
        raise PictureRefused(f"not drawn within {limits.picture_seconds} s") from exc
    if done.returncode != 0:
        why = done.stderr.decode(errors="replace").strip().splitlines()[-1:] or \
            [f"exit status {done.returncode}"]
        raise PictureRefused(f"the drawing process failed: {why[0]}")
    return done.stdout
