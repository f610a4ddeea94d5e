"""Where a power may build (spec/rules.md: BUILD_ANY, HOME_BUILDS, REMOTE_BUILDS, NO_FACTORIES,
NO_PARTISANS; the map's factories `+`, partisan sites `*`, alternative homes `@`, claims `&SC` and
OWNS `SC!`/`SC?`). How many units it may build is the adjudicator's count, not a question of a site."""
from __future__ import annotations

from typing import TYPE_CHECKING

from judge.maps.model import Map
from judge.orders.names import place_name
from judge.rule_names import Rule, Rules

if TYPE_CHECKING:
    from judge.adjudicator.model import Position


def homes_of(m: Map, position: Position, power: str) -> frozenset[str]:
    """The power's home centres now: the position's, when it carries its own, else the map's."""
    if position.homes is not None and power in position.homes:
        return frozenset(position.homes[power])
    return frozenset(m.powers[power].homes)


def build_sites(m: Map, position: Position, power: str, rules: Rules) -> frozenset[str]:
    """The provinces the power could build in, occupied or not."""
    info = m.powers[power]
    owned = frozenset(position.centers.get(power, ()))
    homes = homes_of(m, position, power)
    if Rule.REMOTE_BUILDS in rules and not owned & homes:
        return frozenset()
    if Rule.BUILD_ANY in rules or (Rule.REMOTE_BUILDS in rules and Rule.HOME_BUILDS not in rules):
        sites = set(owned)
    elif Rule.HOME_BUILDS in rules:
        sites = {c for p in m.powers for c in homes_of(m, position, p) if c in owned}
    else:
        sites = set(owned & homes)
    sites |= {alt.center for alt in info.alt_homes if alt.center in owned}
    if info.claims:
        sites |= owned
    tokens = position.tokens.get(power, (0, 0)) if position.tokens is not None else \
        (info.build_and_own, info.build_unowned)
    if tokens[1]:  # SC?: any home
        sites |= homes
    elif tokens[0]:  # SC!: a home no other power owns
        taken = frozenset().union(*(c for p, c in position.centers.items() if p != power))
        sites |= homes - taken
    if Rule.NO_FACTORIES not in rules:
        sites |= set(info.factories)
    if Rule.NO_PARTISANS not in rules and 0 < len(owned & homes) < len(homes):
        sites |= set(info.partisans)
    return frozenset(sites)


def site_problem(m: Map, position: Position, power: str, province: str, rules: Rules) -> str | None:
    """Why the power may not build in the province (occupation aside), if it may not."""
    if province in build_sites(m, position, power, rules):
        return None
    name = place_name(m, province)
    owned = position.centers.get(power, frozenset())
    homes = homes_of(m, position, power)
    if Rule.REMOTE_BUILDS in rules and not owned & homes:
        return "you own none of your home centers, so you may not build (REMOTE_BUILDS)"
    if province not in m.supply_centers:
        return f"{name} is not a supply center"
    if province not in owned:
        return f"you do not own {name}"
    if Rule.HOME_BUILDS in rules:
        return f"{name} is nobody's home center"
    return f"{name} is not one of your home centers"
