"""A picture's PNG or PDF made in a child process, within the judgekeeper's limits.

resvg and Pillow hold the interpreter's lock while they render, and a hostile map can ask them for
gigabytes and minutes: run in the judge's own process they would stall the SMTP gateway's event
loop and every other mail. The child (`picture_child.py`, kept by a `PictureWorker` for picture
after picture) reads each SVG on its standard input and writes the picture on its standard output,
its address space and each picture's CPU time capped by `setrlimit`; the parent kills it when a
picture takes longer than `picture_seconds`, and starts another for the next. A picture of more
pixels or bytes than the limits allow is refused before or after it is drawn. Whatever goes wrong
is a `PictureRefused`: the picture's own fault, never the judge's, and the mail goes without it.
"""
from __future__ import annotations

import os
import re
import select
import subprocess
import sys
import threading
import time
import weakref
from contextlib import closing
from dataclasses import dataclass
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


def encode_bounded(svg: str, kind: str, limits: Limits, worker: PictureWorker | None = None) -> bytes:
    """The picture in `kind` (svg, png or pdf), drawn within `limits` by `worker` (a child process
    kept for many pictures; without one, a child started for this picture alone)."""
    if kind == "svg":
        data = svg.encode("utf-8")
    else:
        pixels = pixels_of(svg, kind)
        if pixels > limits.picture_pixels:
            raise PictureRefused(f"{pixels:.0f} pixels, more than the {limits.picture_pixels} "
                                 "a picture may have")
        if worker is None:
            with closing(PictureWorker()) as alone:
                data = alone.draw(svg, kind, limits)
        else:
            data = worker.draw(svg, kind, limits)
    if len(data) > limits.picture_bytes:
        raise PictureRefused(f"{len(data)} bytes, more than the {limits.picture_bytes} a "
                             "picture may have")
    return data


class PictureWorker:
    """The child process that draws pictures one after another (`picture_child.py`), started at
    the first and kept: a picture costs its drawing, not the start of a process. A child over a
    limit (time, memory) is killed or ends, and the next picture starts another; so does one
    started with other limits. One picture at a time (a lock): each thread that draws may keep
    its own. `close` ends the child, as the worker's collection does."""

    def __init__(self) -> None:
        self.running: list[Child] = []  # the child, when one runs (apart, for the finalizer)
        self.lock = threading.Lock()
        weakref.finalize(self, _stop_all, self.running)

    def draw(self, svg: str, kind: str, limits: Limits) -> bytes:
        with self.lock:
            child = self._child(limits)
            try:
                _send(child.process, kind, svg.encode("utf-8"))
                status, data = _receive(child.process, time.monotonic() + limits.picture_seconds)
            except TimeoutError as exc:
                _stop_all(self.running)
                raise PictureRefused(f"not drawn within {limits.picture_seconds} s") from exc
            except (OSError, ValueError) as exc:  # it died (over its memory or CPU), or garbled
                _stop_all(self.running)  # its answer: another next time
                why = child.process.returncode
                raise PictureRefused(f"the drawing process failed: {exc} (exit status {why})") from exc
            if status != b"OK" and child.process.poll() is not None:
                _stop_all(self.running)
        if status != b"OK":
            raise PictureRefused(f"the drawing process failed: {data.decode(errors='replace')}")
        return data

    def close(self) -> None:
        with self.lock:
            _stop_all(self.running)

    def _child(self, limits: Limits) -> Child:
        wanted = (limits.picture_memory_mb, limits.picture_seconds)
        if self.running and (self.running[0].process.poll() is not None or
                             self.running[0].limits != wanted):
            _stop_all(self.running)
        if not self.running:
            argv = [sys.executable, str(CHILD), *map(str, wanted)]
            process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       stderr=subprocess.DEVNULL)
            self.running.append(Child(process, wanted))
        return self.running[0]


@dataclass(frozen=True)
class Child:
    process: subprocess.Popen[bytes]
    limits: tuple[int, int]  # the memory (MB) and seconds it was started within


def _stop_all(running: list[Child]) -> None:
    """Each child ended: its pipes closed (it ends at the end of its input), killed if it still
    runs, and waited for."""
    while running:
        process = running.pop().process
        for pipe in (process.stdin, process.stdout):
            if pipe is not None:
                pipe.close()
        if process.poll() is None:
            process.kill()
        process.wait()


def _send(process: subprocess.Popen[bytes], kind: str, svg: bytes) -> None:
    if process.stdin is None:
        raise OSError("the drawing process has no input")
    process.stdin.write(b"%s %d\n" % (kind.encode("ascii"), len(svg)))
    process.stdin.write(svg)
    process.stdin.flush()


def _receive(process: subprocess.Popen[bytes], deadline: float) -> tuple[bytes, bytes]:
    """The child's answer (status, data) read by `deadline` (TimeoutError past it, OSError when
    the child ended without one)."""
    if process.stdout is None:
        raise OSError("the drawing process has no output")
    pipe = process.stdout.fileno()
    got, status, size = bytearray(), b"", -1
    while size < 0 or len(got) < size:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([pipe], [], [], left)[0]:
            raise TimeoutError
        chunk = os.read(pipe, max(65536, size - len(got)))
        if not chunk:
            process.wait()
            raise OSError("the drawing process ended")
        got += chunk
        if size < 0 and b"\n" in got:
            head, _, rest = bytes(got).partition(b"\n")
            status, _, length = head.partition(b" ")
            size, got = int(length), bytearray(rest)
    return status, bytes(got)
