"""Who may build how many units where: the adjustment count and the build sites of each power.

The count (builds allowed when positive, removals due when negative) is the power's supply centres,
plus its build tokens (`SC!`, `SC?`: its OWNS line's when the position gives them, else the map's
in the game's first adjustment phase), plus one per partisan site
while it owns some but not all of its homes (unless NO_PARTISANS: DPjudge counts each such site as a
centre), plus, while it owns at least one of its homes, its RESERVES (unless NO_RESERVES) and one
MILITIA per unit of its own standing on one of its homes up to the MILITIA count (unless NO_MILITIA);
less its units.

Where it may build (always in an unoccupied province, each at most once a phase):
- owned home centres; BUILD_ANY (or REMOTE_BUILDS alone): any owned centre; HOME_BUILDS: any owned
  centre that is a home of any power; REMOTE_BUILDS: nowhere unless it owns one of its homes;
- owned non-home centres, one per claim left (`&SC`): the centre becomes a home;
- alternative homes (`@SC(HOME,...)`): an owned one, instead of an owned, unoccupied listed home
  (any home when none is listed) that is not built in: more sites, not more builds;
- factories (`+SITE`) unless NO_FACTORIES; partisan sites (`*SITE`) while it owns some but not all
  of its homes, unless NO_PARTISANS;
- with a token left, a home nobody else owns (`SC!`: the builder takes it) or any home (`SC?`).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from judge.maps.model import Map, PowerInfo
from judge.phases import next_phase
from judge.rule_names import Rule, Rules
from judge.types import ADJUSTMENTS, Phase, Unit

Units = Mapping[str, tuple[Unit, ...]]
Centers = Mapping[str, frozenset[str]]
Homes = Mapping[str, frozenset[str]]
Tokens = Mapping[str, tuple[int, int]]  # power -> (SC!, SC?) build tokens


def current_homes(m: Map, homes: Homes | None = None, centers: Centers | None = None,
                  phase: Phase | None = None) -> dict[str, frozenset[str]]:
    """Each power's homes: the given ones (or the map's), or in a NEWHOMES year's adjustment phase
    the centres it owns."""
    if phase is not None and centers is not None and phase.type == ADJUSTMENTS and phase.year in m.newhomes:
        return {p: frozenset(centers.get(p, ())) for p in m.powers}
    given = homes or {}
    return {p: frozenset(given.get(p, info.homes)) for p, info in m.powers.items()}


def is_first_adjustment(m: Map, phase: Phase | None) -> bool:
    """Whether `phase` is the first adjustment phase of a game begun at the map's BEGIN."""
    if phase is None or phase.type != ADJUSTMENTS:
        return False
    step = m.begin
    try:
        for _ in range(4 * len(m.flow) + 4):
            if step.type == ADJUSTMENTS:
                return step == phase
            step = next_phase(m, step)
    except ValueError:
        return False
    return False


@dataclass(frozen=True)
class PowerBuilds:
    """What one power may do in an adjustment phase (provinces throughout)."""

    power: str
    count: int  # > 0: builds allowed; < 0: removals due
    homes: frozenset[str]
    owned: frozenset[str]
    centre_sites: frozenset[str]  # owned centres it may build in as of right
    claim_sites: frozenset[str]  # owned non-home centres a claim opens
    claims: int
    alt_homes: Mapping[str, frozenset[str]]  # owned alternative home -> the open homes it may replace
    extra_sites: frozenset[str]  # factories and partisan sites
    token_sites: frozenset[str]  # homes open to a build token
    own_tokens: int  # SC!
    free_tokens: int  # SC?
    occupied: frozenset[str]

    def sites(self) -> frozenset[str]:
        """Every unoccupied province it might build in this phase."""
        sites = set(self.centre_sites) | self.extra_sites
        if self.claims:
            sites |= self.claim_sites
        if self.own_tokens or self.free_tokens:
            sites |= self.token_sites
        sites |= {alt for alt, slots in self.alt_homes.items() if slots}
        return frozenset(sites - self.occupied)


def hidden_build(m: Map, power: str, site: str, rules: Rules) -> bool:
    """Whether a build of the power in the province is hidden (under HIDE_BUILDS, or on one of its
    `~` sites): its results name no unit, and DPjudge keeps the order as `BUILD A PAR HIDDEN`."""
    info = m.powers.get(power)
    return Rule.HIDE_BUILDS in rules or (info is not None and site in info.hidden)


def occupied_provinces(units: Units) -> frozenset[str]:
    return frozenset(u.province for us in units.values() for u in us)


def owns_a_home(owned: Iterable[str], homes: frozenset[str]) -> bool:
    return any(c in homes for c in owned)


def partisans_rise(owned: frozenset[str], homes: frozenset[str], rules: Rules) -> bool:
    held = len(owned & homes)
    return Rule.NO_PARTISANS not in rules and 0 < held < len(homes)


def adjustment_count(info: PowerInfo, units: tuple[Unit, ...], owned: frozenset[str],
                     homes: frozenset[str], rules: Rules, tokens: int = 0) -> int:
    """Builds allowed (> 0) or removals due (< 0) for one power; see the module's doc."""
    count = len(owned) + tokens - len(units)
    if partisans_rise(owned, homes, rules):
        count += len(info.partisans)
    if owns_a_home(owned, homes):
        if Rule.NO_RESERVES not in rules:
            count += info.reserves
        if Rule.NO_MILITIA not in rules:
            count += min(info.militia, sum(1 for u in units if u.province in homes))
    return count


def adjustment_counts(m: Map, units: Units, centers: Centers, rules: Rules = frozenset(), *,
                      homes: Homes | None = None, phase: Phase | None = None,
                      tokens: Tokens | None = None) -> dict[str, int]:
    """Each power's adjustment count (builds allowed > 0, removals due < 0), by power name."""
    homes_now = current_homes(m, homes, centers, phase)
    first = is_first_adjustment(m, phase)
    return {p: adjustment_count(info, units.get(p, ()), frozenset(centers.get(p, ())), homes_now[p],
                                rules, sum(tokens_of(info, first, tokens)))
            for p, info in m.powers.items()}


def tokens_of(info: PowerInfo, first: bool, tokens: Tokens | None) -> tuple[int, int]:
    """The power's (SC!, SC?) build tokens: as given (its OWNS line's), else the map's in the game's
    first adjustment phase."""
    if tokens is not None:
        return tokens.get(info.name, (0, 0))
    return (info.build_and_own, info.build_unowned) if first else (0, 0)


def needs_adjustments(m: Map, units: Units, centers: Centers, rules: Rules = frozenset(), *,
                      homes: Homes | None = None, phase: Phase | None = None,
                      tokens: Tokens | None = None) -> bool:
    """Whether any power must remove a unit, or may build one and has somewhere to build it."""
    for options in build_options(m, units, centers, rules, homes=homes, phase=phase,
                                 tokens=tokens).values():
        if options.count < 0 or (options.count > 0 and options.sites()):
            return True
    return False


def build_options(m: Map, units: Units, centers: Centers, rules: Rules = frozenset(), *,
                  homes: Homes | None = None, phase: Phase | None = None,
                  tokens: Tokens | None = None) -> dict[str, PowerBuilds]:
    """Each power's `PowerBuilds` at the start of an adjustment phase."""
    homes_now = current_homes(m, homes, centers, phase)
    first = is_first_adjustment(m, phase)
    occupied = occupied_provinces(units)
    owners = {c: p for p, cs in centers.items() for c in cs}
    all_homes = frozenset(c for hs in homes_now.values() for c in hs)
    held = {p: tokens_of(info, first, tokens) for p, info in m.powers.items()}
    # DPjudge: while a power holds build tokens no other power builds on its homes
    reserved = frozenset(c for p, n in held.items() if any(n) for c in homes_now[p])
    return {p: _power_builds(m, info, units.get(p, ()), frozenset(centers.get(p, ())), homes_now[p],
                             all_homes, owners, occupied, rules, held[p],
                             reserved if not any(held[p]) else frozenset())
            for p, info in m.powers.items()}


def _power_builds(m: Map, info: PowerInfo, units: tuple[Unit, ...], owned: frozenset[str],
                  homes: frozenset[str], all_homes: frozenset[str], owners: Mapping[str, str],
                  occupied: frozenset[str], rules: Rules, tokens: tuple[int, int],
                  reserved: frozenset[str]) -> PowerBuilds:
    own_tokens, free_tokens = tokens
    count = adjustment_count(info, units, owned, homes, rules, own_tokens + free_tokens)
    barred = Rule.REMOTE_BUILDS in rules and not owns_a_home(owned, homes)
    owned_centres = owned & m.supply_centers
    centre_sites = frozenset() if barred else _centre_sites(owned_centres, homes, all_homes, rules) - reserved
    open_homes = (owned_centres & homes) - occupied
    extra = set() if Rule.NO_FACTORIES in rules else set(info.factories)
    if partisans_rise(owned, homes, rules):
        extra |= set(info.partisans)
    token_sites = frozenset(h for h in homes if (own_tokens and owners.get(h) in (None, info.name))
                            or free_tokens)
    return PowerBuilds(
        power=info.name, count=count, homes=homes, owned=owned, centre_sites=centre_sites,
        claim_sites=frozenset() if barred else owned_centres - homes,
        claims=_claims_left(info, homes), alt_homes={} if barred else _alt_homes(info, owned_centres,
                                                                                  open_homes, homes),
        extra_sites=frozenset() if barred else frozenset(extra), token_sites=token_sites,
        own_tokens=own_tokens, free_tokens=free_tokens, occupied=occupied)


def _centre_sites(owned: frozenset[str], homes: frozenset[str], all_homes: frozenset[str],
                  rules: Rules) -> frozenset[str]:
    if Rule.HOME_BUILDS in rules:
        return owned & all_homes
    if Rule.BUILD_ANY in rules or Rule.REMOTE_BUILDS in rules:
        return owned
    return owned & homes


def _claims_left(info: PowerInfo, homes: frozenset[str]) -> int:
    """Claims not yet used: each used claim made one centre a home beyond the map's."""
    return max(0, info.claims - len(homes - set(info.homes)))


def _alt_homes(info: PowerInfo, owned: frozenset[str], open_homes: frozenset[str],
               homes: frozenset[str]) -> dict[str, frozenset[str]]:
    alts = {}
    for alt in info.alt_homes:
        if alt.center in owned and alt.center not in homes:
            alts[alt.center] = open_homes & (frozenset(alt.instead_of) or homes)
    return alts
