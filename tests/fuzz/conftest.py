"""The fuzz run's tally: how many inputs each target was called with, and how many of them were
distinct, printed at the end of the run.

Hypothesis stops short of `max_examples` when it runs out of new inputs (a small search space), and
distinct choice sequences can still draw the same input: the tally says what a budget really reached.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

TALLIES = pytest.StashKey[dict[str, "Tally"]]()


@dataclass
class Tally:
    calls: int = 0
    seen: set[int] = field(default_factory=set)

    def __call__(self, *inputs: object) -> None:
        self.calls += 1
        self.seen.add(hash(repr(inputs)))


@pytest.fixture
def tally(request) -> Callable[..., None]:
    """Call it with a fuzz test's inputs, first thing in the test."""
    tallies = request.config.stash.setdefault(TALLIES, {})
    return tallies.setdefault(request.node.nodeid, Tally())


def pytest_terminal_summary(terminalreporter, config) -> None:
    tallies = config.stash.get(TALLIES, {})
    if not tallies:
        return
    terminalreporter.section("fuzz inputs per test")
    for nodeid, tally in tallies.items():
        terminalreporter.write_line(f"{tally.calls:>9,} calls {len(tally.seen):>9,} distinct  {nodeid}")
