"""Errors that carry where the bad input is: file, line, what is wrong."""
from __future__ import annotations

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
