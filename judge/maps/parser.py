"""Map text -> `Map`: read the source, apply every directive, validate, freeze.

`parse_map` reports every problem at once as a `MapError`; `map_for_phase` gives the map in force in
a phase, with the IN and FROM blocks that apply to it.
"""
from __future__ import annotations

from types import MappingProxyType
from typing import Iterable, Sequence

from judge.errors import MapError, Problem
from judge.maps.bounds import MapBounds, MapTooLarge, check
from judge.maps.builder import MapBuilder
from judge.maps.model import (DEFAULT_FLOW, DynamicBlock, Location, Map, PowerInfo, SourceLine,
                              AltHome)
from judge.maps.source import PHASE_ABBREV, Loader, read_source
from judge.maps.validate import alias_warnings, validate
from judge.types import Phase


def parse_map(name: str, loader: Loader, extra: Sequence[str] = (),
              bounds: MapBounds | None = None) -> Map:
    """Parse the map file `name` (and what it USEs) through `loader`, then the `extra` map lines
    (a game's MORPH lines, reported as file `MORPH`); raise MapError if invalid or, with
    `bounds`, over one of them."""
    try:
        source = read_source(name, loader, extra, bounds=bounds)
        builder = run(source.base)
        if bounds is not None:
            check_size(builder, bounds, name)
    except MapTooLarge as error:
        raise MapError([Problem(error.file, error.line, str(error))]) from None
    problems = list(source.problems)
    problems += builder.problems
    display_name = _map_name(name)
    result = freeze(builder, display_name, source.base, source.dynamic, source.stanzas,
                    source.graphic, None)
    problems += validate(builder, result)
    for block in _distinct(source.dynamic):  # each must make a valid map in the phases it applies to
        block_builder = run(source.base + list(block.lines))
        block_problems = block_builder.problems + validate(block_builder, freeze(
            block_builder, display_name, (), (), (), None, None))
        problems += [p for p in block_problems if p not in problems]
    if problems:
        raise MapError(_unique(problems))
    return result


def check_size(builder: MapBuilder, bounds: MapBounds, name: str) -> None:
    for what, count, limit in (("places", len(builder.places), bounds.places),
                               ("powers", len(builder.powers), bounds.powers)):
        check(what, count, limit, name, 0)


def _distinct(blocks: Sequence[DynamicBlock]) -> list[DynamicBlock]:
    """The blocks whose lines differ (the first of each): the same lines make the same map, so a
    map repeating a block is checked once for it, not once a copy."""
    seen: dict[tuple[str, ...], DynamicBlock] = {}
    for block in blocks:
        seen.setdefault(tuple(line.text for line in block.lines), block)
    return list(seen.values())


def map_for_phase(base: Map, phase: Phase) -> Map:
    """The map in force in `phase`: FROM blocks reached so far, in phase order, then matching INs."""
    if not base.dynamic:
        return base
    froms = [b for b in base.dynamic if b.kind == "FROM" and _reached(base, b, phase)]
    froms.sort(key=lambda b: min(_phase_key(base, w) for w in b.when))
    ins = [b for b in base.dynamic if b.kind == "IN" and _matches(b, phase)]
    lines = list(base.base)
    for block in froms + ins:
        lines += block.lines
    builder = run(lines)
    if builder.problems:
        raise MapError(builder.problems)
    return freeze(builder, base.name, base.base, base.dynamic, base.stanzas, base.graphic, phase)


def run(lines: Iterable[SourceLine]) -> MapBuilder:
    builder = MapBuilder()
    for line in lines:
        builder.apply(line)
    return builder


def freeze(builder: MapBuilder, name: str, base, dynamic, stanzas, graphic, phase) -> Map:
    """The immutable Map for what the builder holds (problems are the validator's business)."""
    locations = {}
    for abbrev, draft in builder.terrain.items():
        place = builder.places.get(abbrev)
        locations[abbrev] = Location(abbrev, place.name if place else abbrev, draft.terrain,
                                     draft.fleet_ok, tuple(draft.abuts))
    aliases, ambiguous = _aliases(builder)
    powers = {n: _power_info(p) for n, p in sorted(builder.powers.items())}
    owned = {c for p in powers.values() for c in p.centers}
    centers = set(builder.unowned)
    for p in powers.values():
        centers.update(p.homes, p.centers, (a.center for a in p.alt_homes))
    total = len(centers)
    rules_on = {r for r, on in builder.rules if on}
    rules_off = {r for r, on in builder.rules if not on}
    return Map(
        name=name,
        locations=MappingProxyType(locations),
        aliases=MappingProxyType(aliases),
        ambiguous=frozenset(ambiguous),
        powers=MappingProxyType(powers),
        unowned=tuple(sorted(centers - owned)),
        victory=builder.victory or (total // 2 + 1,),
        flow=tuple(builder.flow) or DEFAULT_FLOW,
        begin=builder.begin,
        rules=frozenset(rules_on - rules_off),
        rules_off=frozenset(rules_off),
        stanzas=tuple(stanzas),
        graphic=graphic,
        textonly=builder.textonly,
        flags=builder.flags,
        newhomes=builder.newhomes,
        rotate=builder.rotate,
        base=tuple(base),
        dynamic=tuple(dynamic),
        phase=phase,
        notify=tuple(builder.notify),
        warnings=tuple(alias_warnings(builder)),
    )


def _aliases(builder: MapBuilder) -> tuple[dict[str, tuple[str, ...]], set[str]]:
    """Each name and alias -> the places it means, and the aliases marked `?`. As DPjudge reads them:
    an abbreviation means its own place, and a name some place gives without `?` means that place
    (Tyrolia's TYR, though the Tyrrhenian Sea lists `tyr?`); a name only `?` gives stays ambiguous."""
    claims: dict[str, dict[str, bool]] = {}  # alias -> place -> whether only marked `?` there
    for abbrev, place in builder.places.items():
        for alias, marked in place.aliases:
            owners = claims.setdefault(alias, {})
            owners[abbrev] = owners.get(abbrev, True) and marked
    aliases = {}
    for alias, owners in claims.items():
        plain = tuple(a for a, marked in owners.items() if not marked)
        aliases[alias] = plain or tuple(owners)
    for abbrev in builder.places:
        aliases[abbrev] = (abbrev,)
    ambiguous = {alias for place in builder.places.values() for alias, marked in place.aliases if marked}
    return aliases, ambiguous


def _power_info(p) -> PowerInfo:
    return PowerInfo(
        name=p.name, display=p.display, adjective=p.adjective, abbrev=p.abbrev,
        homes=tuple(sorted(p.homes)),
        # without OWNS a power owns its homes, alternative homes included (as DPjudge has it)
        centers=tuple(sorted({*p.homes, *p.alt_homes} if p.centers is None else p.centers)),
        units=tuple(p.units),  # in the map's order, the order of the status file and the start mail
        claims=p.claims, factories=tuple(sorted(p.factories)),
        partisans=tuple(sorted(p.partisans)),
        alt_homes=tuple(AltHome(c, h) for c, h in sorted(p.alt_homes.items())),
        hidden=tuple(sorted(p.hidden)), build_and_own=p.build_and_own,
        build_unowned=p.build_unowned, reserves=p.reserves, militia=p.militia,
        league=p.league, dummy=p.dummy, control=tuple(p.control), flag=p.flag)


def _map_name(name: str) -> str:
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    return base[:-4] if base.lower().endswith(".map") else base


def _phase_key(m: Map, abbrev: str) -> tuple[int, int]:
    """Chronological sort key of a phase abbreviation such as S1904M within the map's flow."""
    year = int(abbrev[1:-1])
    seasons = [s.season[0] for s in m.seasons]
    index = seasons.index(abbrev[0]) if abbrev[0] in seasons else len(seasons)
    return year, index


def _reached(m: Map, block: DynamicBlock, phase: Phase) -> bool:
    now = _phase_key(m, phase.abbrev)
    return any(_phase_key(m, w) <= now for w in block.when)


def _matches(block: DynamicBlock, phase: Phase) -> bool:
    if all(PHASE_ABBREV.fullmatch(w) for w in block.when):
        return phase.abbrev in block.when
    return str(phase).split()[:len(block.when)] == list(block.when)


def _unique(problems: list[Problem]) -> list[Problem]:
    seen: dict[Problem, None] = {}
    for p in problems:
        seen.setdefault(p)
    return list(seen)
