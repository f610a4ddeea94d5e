"""A generic resolver of interdependent yes/no decisions: guess, then a backup rule for cycles.

This is Lucas Kruijswijk's algorithm from the DATC (section 5), as godip uses it. It knows nothing of
orders: decisions are small integers, `adjudicate(node)` decides one of them by calling `resolve` on
the decisions it depends on, and `backup(cycle)` is called with the decisions of a cycle that has two
consistent outcomes (circular movement) or none (a paradox); it settles some of them with `settle`.

How it works: a decision being decided is first guessed "no". If deciding it did not read a guess,
it is final. If it read only someone else's guess, it stays a guess for the head of that cycle to
redo. If it read its own guess, it is decided again with the guess "yes": the same answer both ways
makes it final, different answers mean a cycle, handed to the backup rule.
"""
from __future__ import annotations

from collections.abc import Callable

UNRESOLVED, GUESSING, RESOLVED = 0, 1, 2


class Resolver:
    """Decides decisions 0..size-1 on demand; `resolve(node)` returns the (possibly guessed) value."""

    __slots__ = ("adjudicate", "backup", "deps", "state", "value")

    def __init__(self, size: int, adjudicate: Callable[[int], bool],
                 backup: Callable[[list[int]], None]) -> None:
        self.state = [UNRESOLVED] * size
        self.value = [False] * size
        self.deps: list[int] = []  # guesses read, and decisions that read one, in the order found
        self.adjudicate = adjudicate
        self.backup = backup

    def resolved(self, node: int) -> bool:
        return self.state[node] == RESOLVED

    def settle(self, node: int, value: bool) -> None:
        """Make a decision final (for the backup rule)."""
        self.state[node] = RESOLVED
        self.value[node] = value

    def resolve(self, node: int) -> bool:
        state = self.state[node]
        if state == RESOLVED:
            return self.value[node]
        if state == GUESSING:  # every read of a guess counts, even of one already listed
            self.deps.append(node)
            return self.value[node]
        return self._decide(node)

    def _decide(self, node: int) -> bool:
        deps, state, value = self.deps, self.state, self.value
        mark = len(deps)
        state[node] = GUESSING
        value[node] = False
        first = self.adjudicate(node)
        if state[node] == RESOLVED:  # a nested backup rule settled it
            return value[node]
        if len(deps) == mark:  # no guess was read: final (`settle`, the common case written out)
            state[node] = RESOLVED
            value[node] = first
            return first
        if deps[mark] != node:  # read another decision's guess: stay a guess in that cycle
            deps.append(node)
            self.value[node] = first
            return first
        self._forget(mark)
        self.state[node], self.value[node] = GUESSING, True
        second = self.adjudicate(node)
        if self.state[node] == RESOLVED:
            return self.value[node]
        if first == second:  # one consistent outcome
            self._forget(mark)
            self.settle(node, first)
            return first
        cycle = list(dict.fromkeys(deps[mark:]))
        if node not in cycle:
            cycle.append(node)
        self.backup(cycle)
        settled = any(self.state[n] == RESOLVED for n in cycle)
        self._forget(mark)
        if not settled:  # a backup rule that settles nothing would loop: keep the first answer
            self.settle(node, first)
        return self.resolve(node)

    def _forget(self, mark: int) -> None:
        """Drop the dependency list back to `mark`, un-guessing every unsettled decision on it."""
        for other in self.deps[mark:]:
            if self.state[other] != RESOLVED:
                self.state[other] = UNRESOLVED
        del self.deps[mark:]
