"""Freed memory given back to the system after a piece of the daemon's work.

The daemon's blocking work (each mail, the tick) runs on the threads of asyncio's executor, and
glibc's malloc gives each thread that allocates at the same time as another an arena of its own.
Memory freed in an arena stays resident until `malloc_trim` gives its free pages back: a judge
that has handled a few hundred mails on six threads kept tens of megabytes that no object used
(`docs/scaling.md`). `give_back` is called after an inbox pass and after a tick; it costs a walk
over the arenas' free lists, a millisecond or two. Where the C library has no `malloc_trim`
(not glibc), it does nothing.
"""
from __future__ import annotations

import ctypes
import functools
from collections.abc import Callable


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
