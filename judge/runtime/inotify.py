"""Linux's inotify, read through inotify_simple: the kernel tells which watched folders had a file
changed, so that a long-lived process need not look at every folder to find the few that changed.

`Inotify()` raises `Unavailable` where there is no inotify (not Linux, no C library); `add` raises
OSError when the kernel refuses a watch (ENOSPC: the user's watches are used up). `events()` returns
what happened since it was last called, without waiting.
"""
from __future__ import annotations

from typing import Any, NamedTuple

from inotify_simple import INotify, flags

MODIFY, ATTRIB, CLOSE_WRITE = flags.MODIFY, flags.ATTRIB, flags.CLOSE_WRITE
MOVED_FROM, MOVED_TO, CREATE, DELETE = flags.MOVED_FROM, flags.MOVED_TO, flags.CREATE, flags.DELETE
DELETE_SELF, MOVE_SELF, UNMOUNT = flags.DELETE_SELF, flags.MOVE_SELF, flags.UNMOUNT
OVERFLOW, IGNORED, ONLYDIR, DONT_FOLLOW = flags.Q_OVERFLOW, flags.IGNORED, flags.ONLYDIR, flags.DONT_FOLLOW


class Unavailable(OSError):
    pass


class Event(NamedTuple):
    watch: int  # the watch descriptor `add` returned (-1 with OVERFLOW)
    mask: int
    name: str  # the file's name in the watched folder ('' for the folder itself)


class Inotify:
    def __init__(self) -> None:
        try:  # inotify_simple looks for its C library when the first one is made
            self._notify: Any = INotify(nonblocking=True)
        except (OSError, AttributeError) as exc:
            raise Unavailable(f"no inotify here: {exc}") from exc

    def add(self, path: str, mask: int) -> int:
        return int(self._notify.add_watch(path, mask))

    def events(self) -> list[Event]:
        return [Event(e.wd, e.mask, e.name) for e in self._notify.read(timeout=0)]

    def close(self) -> None:
        if not self._notify.closed:
            self._notify.close()

    def __del__(self) -> None:  # a user has few inotify instances (128 by default): none is left open
        if hasattr(self, "_notify"):
            self.close()
