"""Whole-map checks run after every directive is applied; each problem names the line to fix."""
from __future__ import annotations

from judge.errors import Problem
from judge.maps.builder import MapBuilder
from judge.maps.model import Map, SourceLine, Terrain
from judge.types import UnitType, province_of

RESERVED_PHASES = {"M": "MOVEMENT", "R": "RETREATS", "A": "ADJUSTMENTS"}


def validate(builder: MapBuilder, result: Map) -> list[Problem]:
    problems: list[Problem] = []

    def report(where: SourceLine, message: str) -> None:
        problems.append(Problem(where.file, where.line, message))

    _check_places(builder, report)
    _check_adjacencies(builder, report)
    _check_powers(builder, result, report)
    _check_start(builder, result, report)
    _check_flow(builder, result, problems)
    return problems


def _check_places(builder: MapBuilder, report) -> None:
    for abbrev, draft in builder.terrain.items():
        if abbrev not in builder.places:
            report(draft.where, f"unknown abbreviation {abbrev}: no place line names it")
        if "/" in abbrev and province_of(abbrev) not in builder.terrain:
            report(draft.where, f"coast {abbrev} has no main space {province_of(abbrev)}")
    for abbrev, place in builder.places.items():
        if abbrev not in builder.terrain:
            report(place.where, f"place {abbrev} ({place.name}) has no terrain line")


def _check_adjacencies(builder: MapBuilder, report) -> None:
    pairs = set()
    for src, draft in builder.terrain.items():
        for abut in draft.abuts:
            pairs.add((province_of(src), province_of(abut.dest)))
    powers = {p.abbrev for p in builder.powers.values()}
    shut = {a for a, d in builder.terrain.items() if d.terrain is Terrain.SHUT}
    with_coasts = {province_of(a) for a in builder.terrain if "/" in a}
    for src, draft in builder.terrain.items():
        for abut in draft.abuts:
            where = draft.origin(abut.dest)
            if abut.dest not in builder.terrain:
                report(where, f"{src} ABUTS {abut.dest}: no such place")
                continue
            if "/" not in abut.dest and abut.dest in with_coasts \
                    and draft.fleet_ok and builder.terrain[src].terrain.value == "WATER":
                report(where, f"{src} ABUTS {abut.dest}: name the coast of a multi-coast province")
            if abut.powers != frozenset() and (province_of(abut.dest), province_of(src)) not in pairs \
                    and not {src, abut.dest} & shut:  # nothing crosses into or out of a SHUT space
                report(where, f"one-way adjacency {src} -> {abut.dest}: {abut.dest} does not list "
                                    f"{src} (declare a one-way adjacency with ':{src}' there)")
            for letter in sorted((abut.powers or set()) - powers):
                report(where, f"{src} ABUTS {abut.dest}: no power has the abbreviation {letter}")
            for center in sorted(abut.centers - set(builder.terrain)):
                report(where, f"{src} ABUTS {abut.dest}: restriction names unknown centre {center}")


def alias_warnings(builder: MapBuilder) -> list[Problem]:
    """Aliases given to two places without '?'. DPjudge's own maps have a few, so they are accepted:
    an abbreviation keeps meaning its own place, and any other such alias is treated as ambiguous."""
    owners: dict[str, list[tuple[str, bool]]] = {}
    for abbrev, place in builder.places.items():
        for alias, ambiguous in place.aliases:
            owners.setdefault(alias, []).append((abbrev, ambiguous))
    warnings = []
    for alias, claims in owners.items():
        places = {a for a, _ in claims}
        if len(places) > 1 and not any(amb for _, amb in claims):
            where = builder.places[claims[-1][0]].where
            meaning = (f"it stays the abbreviation of {alias}" if alias in builder.places
                       else "orders using it are ambiguous")
            warnings.append(Problem(where.file, where.line,
                                    f"alias {alias!r} names both {' and '.join(sorted(places))}: {meaning} "
                                    f"(mark an ambiguous alias with '?')"))
    return warnings


def _check_powers(builder: MapBuilder, result: Map, report) -> None:
    for name, power in builder.powers.items():
        for items in power.center_lists():
            for center in items:
                _check_center(builder, power.where, name, center, report)
        for center, homes in power.alt_homes.items():
            for c in (center, *homes):
                _check_center(builder, power.where, name, c, report)
        for unit in power.units:
            location = result.locations.get(unit.location)
            if location is None:
                report(power.where, f"{name} unit {unit}: no such place")
            elif not result.can_stand(unit):
                kind = "an army" if unit.type is UnitType.ARMY else "a fleet"
                report(power.where, f"{name} unit {unit}: {kind} cannot stand on {location.name} "
                                    f"({location.terrain.value.lower()})")
        for other in power.control:
            if other not in builder.powers:
                report(power.where, f"{name} CONTROL names unknown power {other}")
        if not (power.homes or power.centers or power.units or power.alt_homes or power.factories
                or power.partisans or power.claims or power.dummy or power.build_and_own
                or power.build_unowned):
            report(power.where, f"{name} is a power with no centres, homes or units: "
                                f"is it a misspelt directive?")
    for center in builder.unowned:
        if center not in builder.terrain:
            report(builder.where.get(center, SourceLine("UNOWNED", 0, "")),
                   f"unowned centre {center} is not a place")


def _check_start(builder: MapBuilder, result: Map, report) -> None:
    """Each centre has one owner at the start: the judge could not read back a status file giving
    it two (a unit line moves a unit already there, so units never share a province)."""
    owner: dict[str, str] = {}
    for name, power in result.powers.items():
        for center in power.centers:
            first = owner.setdefault(center, name)
            if first != name:
                report(builder.powers[name].where, f"{name} owns {center}, which {first} owns too")


def _check_center(builder: MapBuilder, where: SourceLine, power: str, center: str, report) -> None:
    if center not in builder.terrain:
        report(where, f"{power}: centre {center} is not a place")


def _check_flow(builder: MapBuilder, result: Map, problems: list[Problem]) -> None:
    where = builder.where.get("FLOW", SourceLine("FLOW", 0, ""))
    letters: dict[str, str] = {}
    for step in result.seasons:
        for phase in step.phases:
            letter = phase[0]
            if letters.get(letter, phase) != phase:
                problems.append(Problem(where.file, where.line, f"phase types {letters[letter]} and {phase} share "
                                                  f"the initial letter {letter}"))
            if RESERVED_PHASES.get(letter, phase) != phase:
                problems.append(Problem(where.file, where.line, f"phase type {phase} uses the initial letter {letter} "
                                                  f"reserved for {RESERVED_PHASES[letter]}"))
            letters.setdefault(letter, phase)
    begin = result.begin
    if not any(s.season == begin.season and begin.type in s.phases for s in result.seasons):
        at = builder.where.get("BEGIN", where)
        problems.append(Problem(at.file, at.line, f"BEGIN {begin} is not a phase of the FLOW"))
