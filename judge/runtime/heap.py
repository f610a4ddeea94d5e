"""Freed memory given back to the system after a piece of the daemon's work.

The daemon's blocking work (each mail, the tick) runs on the threads of asyncio's executor, and
glibc's malloc gives each thread that allocates at the same time as another an arena of its own.
Memory freed in an arena stays resident until `malloc_trim` gives its free pages back: a judge
that has handled a few hundred mails on six threads kept tens of megabytes that no object used
(`docs/scaling.md`). `give_back` is called after a tick, and after an inbox pass at most once in
`EVERY` seconds (`Spacing`): it costs a walk over the arenas' free lists, about 8 ms of CPU on a
heap of 170 MB, as much as an orders mail, so a pass of one mail must not pay it each time. Where
the C library has no `malloc_trim` (not glibc), it does nothing.
"""
from __future__ import annotations

import ctypes
import functools
import math
from collections.abc import Callable

EVERY = 10.0  # seconds: after a pass, the heap is given back at most this often


@functools.cache
def _trim() -> Callable[[int], int] | None:
    try:
        c_library = ctypes.CDLL(None)  # the symbols the process already has: its C library's
    except OSError:
        return None
    return getattr(c_library, "malloc_trim", None)


def give_back() -> None:
    """Return the heap's free pages, in every arena, to the system."""
    trim = _trim()
    if trim is not None:
        trim(0)


class Spacing:
    """`give_back` after a piece of work, unless it was done less than `every` seconds before
    (`now`: a monotonic clock's seconds, the caller's)."""

    def __init__(self, every: float = EVERY, act: Callable[[], None] = give_back):
        self.every = every
        self.act = act
        self.last = -math.inf

    def after_work(self, now: float) -> None:
        if now - self.last >= self.every:
            self.last = now
            self.act()
