"""Errors that carry where the bad input is: file, line, what is wrong; and which failures are the
machine's rather than the input's (`resource_failure`)."""
from __future__ import annotations

import errno
from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input file, at a place a person can find."""

    file: str
    line: int
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.message}"


class JudgeError(Exception):
    """Base of the judge's own errors."""


class ProblemsError(JudgeError):
    """One or more problems found in an input, all reported at once."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class MapError(ProblemsError):
    """A map file (or one it USEs) is invalid."""


class StatusError(ProblemsError):
    """A status file is invalid."""


class StateError(ProblemsError):
    """A game's state file (`games/<name>/state`: its state and listing) is invalid."""


class OrderError(JudgeError):
    """An order cannot be accepted; the message says why."""


# The machine lacks something for now (space, memory, descriptors, a lock) or its file system went
# read-only: the same work done later succeeds once that is mended, whatever the input was.
# A failure of one file (EIO, EACCES, ELOOP...) is left out: waiting for it would hold up
# every mail behind the one that meets it.
RESOURCE_ERRNOS = frozenset({
    errno.ENOSPC, errno.EDQUOT, errno.ENOMEM, errno.EMFILE, errno.ENFILE, errno.EAGAIN,
    errno.EINTR, errno.EBUSY, errno.ETIMEDOUT, errno.ENOLCK, errno.EDEADLK, errno.ENOBUFS,
    errno.EROFS,
})


def resource_failure(exc: BaseException) -> bool:
    """Whether `exc` (or an error it was raised from or while handling) is the machine's, not the
    input's: such work is tried again later, never given up on. Anything else is taken as a
    failure the input itself brings about."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, (MemoryError, TimeoutError)):
            return True
        if isinstance(current, OSError) and current.errno in RESOURCE_ERRNOS:
            return True
        current = current.__cause__ or current.__context__
    return False
