"""Adjustment phases (DATC 6.I, 6.J): `resolve_adjustments(map, position, orders, rules)`.

Each power's orders are carried out one by one from the top (DATC 4.D.4 b, 4.D.6 b): an order that
cannot be carried out, and one past the number allowed, is `void`, with a note saying why.
Builds go where `builds.py` says; WAIVE gives up one build; REMOVE takes a unit off; KEEP asks that a
unit not be taken by civil disorder. A power that must remove more units than it orders loses the
rest by the DATC's civil disorder rule (`removals.py`). A power that gives no order at all is in civil
disorder: it waives its builds, or under CD_BUILDS builds at random (a generator seeded with the phase
and the power: the same position always gets the same answer). The judge's own orders are listed
among the results with the note "civil disorder".

A build in a `~` site, or any build under HIDE_BUILDS, carries the note "hidden". A build on a claimed
centre makes it a home (`Resolution.homes`); a build with an `SC!` token makes its site owned. When
the position gives the powers' tokens (their OWNS lines), the `SC!` tokens not built on are left
(`Resolution.tokens`) for a later adjustment phase, as DPjudge keeps them; the `SC?` ones go. In a
NEWHOMES year every power's homes become the centres it owns before anything is built.
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from judge.adjudicator.builds import PowerBuilds, build_options, current_homes, hidden_build
from judge.adjudicator.model import (
    CIVIL_DISORDER,
    HIDDEN,
    OrderResult,
    Position,
    Resolution,
    Result,
)
from judge.adjudicator.removals import removal_order
from judge.maps.model import Map
from judge.orders.model import Build, Disband, Keep, Order, Waive
from judge.rule_names import Rule, Rules
from judge.types import Unit, UnitType


def resolve_adjustments(m: Map, position: Position, orders: Mapping[str, Sequence[Order]],
                        rules: Rules = frozenset()) -> Resolution:
    """Adjudicate an adjustment phase: orders by power, carried out in the order given."""
    homes = current_homes(m, position.homes, position.centers, position.phase)
    options = build_options(m, position.units, position.centers, rules, homes=homes, phase=position.phase,
                            tokens=position.tokens)
    units = {p: list(us) for p, us in position.units.items()}
    centers = {p: set(cs) for p, cs in position.centers.items()}
    results: list[OrderResult] = []
    tokens_left: dict[str, tuple[int, int]] = {}
    for power in sorted(set(options) | set(orders)):
        given = list(orders.get(power, ()))
        if power not in options:
            results += [OrderResult(o, (Result.VOID,), f"{power} is not a power of this map") for o in given]
            continue
        outcome = _PowerOutcome(m, options[power], units.setdefault(power, []), given, rules, position)
        results += outcome.results
        centers.setdefault(power, set()).update(outcome.gained)
        homes[power] = homes[power] | outcome.claimed
        if outcome.own_tokens_left:
            tokens_left[power] = (outcome.own_tokens_left, 0)
    return Resolution(phase=position.phase, results=tuple(results),
                      units={p: tuple(us) for p, us in sorted(units.items())},  # builds last
                      dislodged={}, centers={p: frozenset(cs) for p, cs in sorted(centers.items())},
                      homes=_homes_if_changed(m, position, homes),
                      tokens=tokens_left if position.tokens is not None else None)


def _homes_if_changed(m: Map, position: Position, homes: dict[str, frozenset[str]]):
    if position.homes is None and all(homes[p] == frozenset(i.homes) for p, i in m.powers.items()):
        return None
    return homes


class _PowerOutcome:
    """One power's adjustment orders carried out against its `PowerBuilds`; `units` is changed."""

    def __init__(self, m: Map, options: PowerBuilds, units: list[Unit], given: list[Order],
                 rules: Rules, position: Position) -> None:
        self.m, self.options, self.units = m, options, units
        self.results: list[OrderResult] = []
        self.gained: set[str] = set()
        self.claimed: set[str] = set()
        self.own_tokens_left = options.own_tokens  # an `SC!` not built on stays for a later phase
        if options.count > 0:
            builds = _Builds(m, options, rules)
            if given:
                self.results = [self.build_step(builds, o) for o in given]
            else:
                self.results = self.civil_builds(builds, rules, position)
            self.gained, self.claimed = builds.gained, builds.claimed
            self.own_tokens_left = builds.own_tokens
        elif options.count < 0:
            self.results = self.removals(given, -options.count)
        else:
            self.results = [_not_due(o, "it has neither builds nor removals") for o in given]

    # --- builds ---

    def build_step(self, builds: _Builds, order: Order) -> OrderResult:
        if isinstance(order, Build):
            result = builds.build(order)
            if not result.results:
                self.units.append(order.unit)
            return result
        if isinstance(order, Waive):
            return builds.waive(order)
        return _not_due(order, "it has builds, not removals")

    def civil_builds(self, builds: _Builds, rules: Rules, position: Position) -> list[OrderResult]:
        power = self.options.power
        need = min(builds.left, len(self.options.sites()))
        made: list[OrderResult] = []
        if {Rule.CD_BUILDS, Rule.SMART_CD} & rules:
            rng = random.Random(f"{position.phase.abbrev} {power}")
            choices = _build_choices(self.m, self.options.sites())
            while len(made) < need and choices:
                unit = rng.choice(choices)
                choices = [c for c in choices if c.province != unit.province]
                result = self.build_step(builds, Build(power, unit))
                if not result.results:
                    made.append(OrderResult(result.order, (), _join(CIVIL_DISORDER, result.note)))
        for _ in range(need - len(made)):
            builds.waive(Waive(power))
            made.append(OrderResult(Waive(power), (), CIVIL_DISORDER))
        return made

    # --- removals ---

    def removals(self, given: list[Order], due: int) -> list[OrderResult]:
        results, removed, kept = [], 0, []
        for order in given:
            if isinstance(order, (Disband, Keep)):
                unit = _find_unit(self.units, order.unit)
                if unit is None:
                    results.append(_void(order, f"{self.options.power} has no {order.unit}"))
                elif isinstance(order, Keep):
                    kept.append(unit)
                    results.append(OrderResult(order))
                elif removed >= due:
                    results.append(OrderResult(order, (Result.VOID,), f"only {due} to remove"))
                else:
                    self.units.remove(unit)
                    removed += 1
                    results.append(OrderResult(order))
            else:
                results.append(_not_due(order, "it must remove units, not build"))
        return results + self.civil_removals(due - removed, kept, results)

    def civil_removals(self, missing: int, kept: list[Unit], results: list[OrderResult]) -> list[OrderResult]:
        if missing <= 0:
            return []
        goners = removal_order(self.m, self.units, self.options.owned, kept)[:missing]
        for unit in goners:
            self.units.remove(unit)
        for index, result in enumerate(results):
            if isinstance(result.order, Keep) and _find_unit(goners, result.order.unit):
                results[index] = OrderResult(result.order, (Result.VOID,), "too few other units to remove")
        return [OrderResult(Disband(self.options.power, u), (), CIVIL_DISORDER) for u in goners]


class _Builds:
    """The builds one power has made so far this phase, and what that leaves."""

    def __init__(self, m: Map, options: PowerBuilds, rules: Rules) -> None:
        self.m, self.options, self.rules = m, options, rules
        self.left = options.count
        self.claims = options.claims
        self.own_tokens, self.free_tokens = options.own_tokens, options.free_tokens
        self.built: set[str] = set()
        self.direct: set[str] = set()  # homes built in, whose places no alternative home may take
        self.alternates: list[frozenset[str]] = []  # for each build on an alternative home: its homes
        self.gained: set[str] = set()
        self.claimed: set[str] = set()

    def waive(self, order: Waive) -> OrderResult:
        if self.left <= 0:
            return OrderResult(order, (Result.VOID,), "no build left to waive")
        self.left -= 1
        return OrderResult(order)

    def build(self, order: Build) -> OrderResult:
        problem = self.problem(order.unit)
        if problem:
            return _void(order, problem)
        kind, why = self.kind(order.unit.province)
        if kind is None:
            return _void(order, why)
        if self.left <= 0:
            return OrderResult(order, (Result.VOID,), "no build left")
        self.commit(order.unit.province, kind)
        hidden = hidden_build(self.m, self.options.power, order.unit.province, self.rules)
        return OrderResult(order, (), HIDDEN if hidden else "")

    def problem(self, unit: Unit) -> str:
        site = unit.province
        if unit.location not in self.m.locations:
            return f"there is no place {unit.location}"
        if not self.m.can_stand(unit):
            if unit.type is UnitType.FLEET and self.m.coasts_of(site) and "/" not in unit.location:
                return f"a fleet built in {site} needs a coast"
            kind = "a fleet" if unit.type is UnitType.FLEET else "an army"
            return f"{kind} cannot stand in {unit.location}"
        if site in self.built:
            return f"a unit has already been built in {site}"
        if site in self.options.occupied:
            return f"{site} is occupied"
        return ""

    def kind(self, site: str) -> tuple[str | None, str]:
        """How a build in `site` would be allowed ("centre", "claim", "extra", "alternate",
        "own token", "free token"), or None and why not."""
        o = self.options
        if site in o.claim_sites and self.claims and site not in o.homes:
            return "claim", ""
        if site in o.centre_sites:
            if site in o.homes and not _can_match(self.alternates, self.direct | {site}):
                return None, f"the build in {site} was taken by an alternative home"
            return "centre", ""
        if site in o.extra_sites:
            return "extra", ""
        if site in o.alt_homes:
            if _can_match(self.alternates + [o.alt_homes[site]], self.direct):
                return "alternate", ""
            return None, f"{site} may only be built in instead of an open home not built in"
        token = self.token_for(site)
        if token:
            return token, ""
        return None, f"{site} is not a place where {o.power} may build"

    def token_for(self, site: str) -> str | None:
        o = self.options
        if site not in o.token_sites:
            return None
        if self.own_tokens and site not in o.owned and o.own_tokens:
            return "own token"
        return "free token" if self.free_tokens and site not in o.owned else None

    def commit(self, site: str, kind: str) -> None:
        self.left -= 1
        self.built.add(site)
        if kind == "claim":
            self.claims -= 1
            self.claimed.add(site)
        elif kind == "centre" and site in self.options.homes:
            self.direct.add(site)
        elif kind == "alternate":
            self.alternates.append(self.options.alt_homes[site])
        elif kind == "own token":
            self.own_tokens -= 1
            self.gained.add(site)
        elif kind == "free token":
            self.free_tokens -= 1


def _can_match(groups: list[frozenset[str]], taken: set[str]) -> bool:
    """Whether each group can be given its own home, none of them in `taken` (bipartite matching)."""
    match: dict[str, int] = {}

    def place(index: int, seen: set[str]) -> bool:
        for slot in sorted(groups[index] - taken):
            if slot not in seen:
                seen.add(slot)
                if slot not in match or place(match[slot], seen):
                    match[slot] = index
                    return True
        return False

    return all(place(index, set()) for index in range(len(groups)))


def _build_choices(m: Map, sites: frozenset[str]) -> list[Unit]:
    """Every unit that could stand in one of the sites, in a fixed order."""
    choices = []
    for site in sorted(sites):
        for location in (site, *m.coasts_of(site)):
            choices += [u for u in (Unit(UnitType.ARMY, location), Unit(UnitType.FLEET, location))
                        if m.can_stand(u)]
    return choices


def _find_unit(units: list[Unit], wanted: Unit) -> Unit | None:
    """The unit an order names: same type and province (the coast may be left out)."""
    for unit in units:
        if unit.type is wanted.type and unit.province == wanted.province:
            return unit
    return None


def _void(order: Order, note: str) -> OrderResult:
    return OrderResult(order, (Result.VOID,), note)


def _not_due(order: Order, why: str) -> OrderResult:
    if isinstance(order, (Build, Waive, Disband, Keep)):
        return OrderResult(order, (Result.VOID,), why)
    return _void(order, "only builds, waives, removals and keeps are ordered in an adjustment phase")


def _join(*notes: str) -> str:
    return "; ".join(n for n in notes if n)
