"""What the judge asks the operating system to make durable, seen where it asks: `os.fsync`."""
from __future__ import annotations

import os
import stat
from pathlib import Path


def folder_syncs(monkeypatch, within: Path) -> list[str]:
    """The names of the folders in `within` (itself included) the operating system is asked to
    fsync from now on, in order. The files' own fsyncs are left out: a new file's name is durable
    only once its folder is."""
    root = within.resolve()
    synced: list[str] = []
    real = os.fsync

    def fsync(fd: int) -> None:
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            folder = Path(os.readlink(f"/proc/self/fd/{fd}"))
            if folder == root or root in folder.parents:
                synced.append(folder.name)
        real(fd)
    monkeypatch.setattr(os, "fsync", fsync)
    return synced
