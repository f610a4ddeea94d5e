"""The generic resolver, on toy decisions that know nothing of Diplomacy."""
from __future__ import annotations

from judge.adjudicator.resolver import Resolver


def make(rules: dict, backup=None):
    """A resolver over decisions 0..n-1, each decided by `rules[n](resolve)`."""
    calls: list[list[int]] = []

    def adjudicate(node: int) -> bool:
        return rules[node](resolver.resolve)

    def on_cycle(cycle: list[int]) -> None:
        calls.append(sorted(cycle))
        if backup is not None:
            backup(resolver, cycle)

    resolver = Resolver(len(rules), adjudicate, on_cycle)
    return resolver, calls


def test_independent_decisions_are_decided_once():
    seen = []

    def constant(value):
        def rule(resolve):
            seen.append(value)
            return value
        return rule

    resolver, calls = make({0: constant(True), 1: lambda resolve: not resolve(0)})
    assert resolver.resolve(1) is False
    assert resolver.resolve(0) is True
    assert seen == [True] and calls == []


def test_a_chain_is_followed():
    resolver, _ = make({0: lambda r: r(1), 1: lambda r: r(2), 2: lambda r: True})
    assert resolver.resolve(0) is True
    assert all(resolver.resolved(n) for n in range(3))


def test_a_cycle_with_one_consistent_outcome_needs_no_backup():
    # 0 = 1 and False; 1 = 0: only "both False" is consistent.
    resolver, calls = make({0: lambda r: r(1) and False, 1: lambda r: r(0)})
    assert resolver.resolve(1) is False and resolver.resolve(0) is False
    assert calls == []


def test_a_cycle_with_two_outcomes_goes_to_the_backup_rule():
    def all_true(resolver, cycle):
        for node in cycle:
            resolver.settle(node, True)

    resolver, calls = make({0: lambda r: r(1), 1: lambda r: r(2), 2: lambda r: r(0)}, all_true)
    assert resolver.resolve(0) is True
    assert calls == [[0, 1, 2]]
    assert resolver.resolve(2) is True


def test_a_paradox_goes_to_the_backup_rule():
    def settle_first(resolver, cycle):
        resolver.settle(min(cycle), False)

    resolver, calls = make({0: lambda r: not r(1), 1: lambda r: r(0)}, settle_first)
    assert resolver.resolve(1) is False
    assert calls == [[0, 1]]


def test_a_backup_rule_that_settles_nothing_cannot_loop():
    resolver, calls = make({0: lambda r: not r(0)})
    assert resolver.resolve(0) in (True, False)
    assert resolver.resolved(0) and len(calls) == 1


def test_a_guess_read_twice_still_counts_as_a_dependency():
    # 1 and 2 both read 0's guess; 2 must not be taken as final while 0 is still a guess.
    def all_true(resolver, cycle):
        for node in cycle:
            resolver.settle(node, True)

    rules = {0: lambda r: r(1) and r(2), 1: lambda r: r(0), 2: lambda r: r(0)}
    resolver, _ = make(rules, all_true)
    assert resolver.resolve(0) is True
    assert resolver.resolve(2) is True
