"""Linux's inotify through the C library: the kernel tells which watched folders had a file changed,
so that a long-lived process need not look at every folder to find the few that changed.

`Inotify()` raises `Unavailable` where there is no inotify (not Linux, no C library); `add` raises
OSError when the kernel refuses a watch (ENOSPC: the user's watches are used up). `events()` returns
what happened since it was last called, without waiting.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import os
import struct
from typing import NamedTuple

MODIFY, ATTRIB, CLOSE_WRITE = 0x2, 0x4, 0x8
MOVED_FROM, MOVED_TO, CREATE, DELETE = 0x40, 0x80, 0x100, 0x200
DELETE_SELF, MOVE_SELF, UNMOUNT, OVERFLOW, IGNORED = 0x400, 0x800, 0x2000, 0x4000, 0x8000
ONLYDIR, DONT_FOLLOW = 0x01000000, 0x02000000

_HEADER = struct.Struct("iIII")  # struct inotify_event: wd, mask, cookie, len (then the name)


class Unavailable(OSError):
    pass


class Event(NamedTuple):
    watch: int  # the watch descriptor `add` returned (-1 with OVERFLOW)
    mask: int
    name: str  # the file's name in the watched folder ('' for the folder itself)


def _libc() -> ctypes.CDLL:
    try:
        lib = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        lib.inotify_init1.argtypes = [ctypes.c_int]
        lib.inotify_add_watch.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_uint32]
    except (OSError, AttributeError) as exc:
        raise Unavailable(f"no inotify here: {exc}") from exc
    return lib


class Inotify:
    def __init__(self) -> None:
        self.fd: int | None = None
        self._lib = _libc()
        fd = self._lib.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        if fd < 0:
            err = ctypes.get_errno()
            raise Unavailable(err, f"inotify_init1: {os.strerror(err)}")
        self.fd = fd

    def add(self, path: str, mask: int) -> int:
        assert self.fd is not None
        watch = self._lib.inotify_add_watch(self.fd, os.fsencode(path), mask)
        if watch < 0:
            err = ctypes.get_errno()
            raise OSError(err, os.strerror(err), path)
        return int(watch)

    def events(self) -> list[Event]:
        assert self.fd is not None
        found: list[Event] = []
        while True:
            try:
                data = os.read(self.fd, 1 << 16)
            except BlockingIOError:
                return found
            at = 0
            while at + _HEADER.size <= len(data):
                watch, mask, _, size = _HEADER.unpack_from(data, at)
                at += _HEADER.size
                name = os.fsdecode(data[at:at + size].rstrip(b"\0"))
                at += size
                found.append(Event(watch, mask, name))

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def __del__(self) -> None:  # a user has few inotify instances (128 by default): none is left open
        self.close()
