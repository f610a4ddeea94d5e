"""What the mail templates read: plain values made from a Resolution, a map and the game's facts.

Pure functions, no prose. A view names things (full place names, power names and adjectives from the
map, the order's kind, result codes) and the templates choose every word: `Army`, `->`, `SUPPORT`,
`Builds an army in`, `the` before a sea. Times are aware datetimes in the game's zone; the templates
format them.
"""
from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from judge.adjudicator.builds import adjustment_counts, build_options
from judge.adjudicator.model import OrderResult, Position, Resolution, Result
from judge.adjudicator.retreats import no_retreats
from judge.maps.model import Map, Terrain
from judge.orders.model import (
    Build,
    Convoy,
    Disband,
    Hold,
    Keep,
    Move,
    Order,
    Proxy,
    Retreat,
    Support,
    Waive,
)
from judge.rule_names import Rule, Rules
from judge.timing.zones import game_zone
from judge.types import ADJUSTMENTS, MOVEMENT, Phase, Unit, UnitType, province_of

CIVIL_DISORDER = "civil disorder"  # the adjudicator's note on the orders it gave itself
HIDDEN = "hidden"  # its note on a build the other powers must not see


# --- the nouns -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Place:
    """A location's full name; `water`: a sea, which the templates write with `the`."""

    abbrev: str
    name: str
    water: bool


@dataclass(frozen=True)
class PowerView:
    name: str  # as the map and status file write it: FRANCE
    display: str  # France
    adjective: str  # French
    abbrev: str = ""  # F: the letter of `SIGNON Fgame`


@dataclass(frozen=True)
class UnitView:
    kind: str  # "army" or "fleet"
    place: Place
    owner: PowerView | None = None


@dataclass(frozen=True)
class PhaseView:
    """`season`, `type` in title case (Spring, Movement); `kind` is movement, retreats,
    adjustments or another FLOW word in lower case; `mapper` is the code of `::` lines (F1901B
    for a winter adjustment phase, as David Norman's Mapper expects)."""

    season: str
    year: int
    type: str
    kind: str
    abbrev: str
    mapper: str


@dataclass(frozen=True)
class GameView:
    """The facts every mail about a game repeats: the judge's id, the game, its variant and zone."""

    judge: str
    name: str
    variant: str
    zone: str
    url: str = ""  # the judge's `[judge] url`: the games' web pages (empty: none)
    game_class: str = ""  # DPjudge's variant of a game other than standard (`xtalball`)


# --- orders and their results ----------------------------------------------------------------------

@dataclass(frozen=True)
class OrderLine:
    """One order as the results print it.

    `kind`: hold, move, support, convoy, retreat, disband, build, remove, waive or keep; in a BLIND
    game also found, arrives, departs or lost (a foreign unit seen at one end of its move only);
    under NO_CHECK `given`, an order not carried out, written as `text` holds it. `target` is
    the unit a support or convoy names (`foreign` when another power owns it); `via` a convoy route
    written out; `dest` where a move, retreat, support or convoy goes. `results` are result codes
    (bounce, cut, dislodged, void, no convoy, invalid, reorder, destroyed)."""

    power: PowerView
    kind: str
    unit: UnitView | None = None
    target: UnitView | None = None
    foreign: bool = False
    via: tuple[Place, ...] = ()
    dest: Place | None = None
    results: tuple[str, ...] = ()
    civil_disorder: bool = False
    hidden: bool = False
    proxy_to: PowerView | None = None  # a PROXY order's power
    text: str = ""  # a `given` order as it was given


@dataclass(frozen=True)
class PowerOrders:
    power: PowerView
    lines: tuple[OrderLine, ...]
    pending: int = 0  # adjustment phases: builds not made (waived ones count, as in DPjudge)


@dataclass(frozen=True)
class Dislodgement:
    """A dislodged unit and where it may retreat (none: it was destroyed); `outright`: destroyed
    without a retreat being looked for (NO_RETREAT); `sighted`: a BLIND game's reader who sees the
    unit but not its retreats."""

    unit: UnitView
    retreats: tuple[Place, ...]
    outright: bool = False
    sighted: bool = False


@dataclass(frozen=True)
class Holding:
    """One line of the ownership list (`power` None: the unowned centres) or of a unit list."""

    power: PowerView | None
    places: tuple[Place, ...]
    units: tuple[UnitView, ...] = ()


@dataclass(frozen=True)
class Adjustment:
    """One row of the adjustment table: centres, units, builds (> 0) or removals (< 0)."""

    power: PowerView
    centers: int
    units: int
    change: int
    victory: bool = False


@dataclass(frozen=True)
class PhaseReport:
    """Everything the results of one phase print, before the footer."""

    phase: PhaseView
    powers: tuple[PowerOrders, ...]
    dislodged: tuple[Dislodgement, ...] = ()


def place(m: Map, location: str) -> Place:
    loc = m.locations.get(location) or m.locations.get(province_of(location))
    if loc is None:
        return Place(location, location, False)
    return Place(location, loc.name, loc.terrain is Terrain.WATER)


def power_view(m: Map, name: str) -> PowerView:
    info = m.powers.get(name)
    if info is None:
        display = name.title()
        return PowerView(name, display, display, name[:1])
    return PowerView(name, info.display, info.adjective, info.abbrev)


def unit_view(m: Map, unit: Unit, owner: str | None = None) -> UnitView:
    kind = "army" if unit.type is UnitType.ARMY else "fleet"
    return UnitView(kind, place(m, unit.location), power_view(m, owner) if owner else None)


def phase_view(phase: Phase) -> PhaseView:
    return PhaseView(phase.season.title(), phase.year, phase.type.title(), phase.type.lower(),
                     phase.abbrev, phase.mapper)


def local_time(moment: datetime | None, zone: str | None) -> datetime | None:
    """An aware instant on the game's wall clock (its ZONE, GMT when none), for the templates."""
    return None if moment is None else moment.astimezone(game_zone(zone))


def order_line(m: Map, result: OrderResult, owners: Mapping[str, str] | None = None) -> OrderLine:
    """One order with its results; `owners` (province -> power) names a supported unit's owner."""
    order, owners = result.order, owners or {}
    line = _shape(m, order, owners, power_view(m, order.power))
    return replace(line, results=_as_mailed(result.results),
                   civil_disorder=CIVIL_DISORDER in result.note, hidden=HIDDEN in result.note)


def _as_mailed(results: Sequence[Result]) -> tuple[str, ...]:
    """Result words in the order DPjudge writes them: `dislodged` after what the order did."""
    words = tuple(r.value for r in results)
    if Result.DISLODGED.value in words[:-1]:
        words = tuple(w for w in words if w != Result.DISLODGED.value) + (Result.DISLODGED.value,)
    return words


def _shape(m: Map, order: Order, owners: Mapping[str, str], power: PowerView) -> OrderLine:
    if isinstance(order, Waive):
        return OrderLine(power, "waive")
    unit = unit_view(m, order.unit, order.power)
    if isinstance(order, Move):
        return OrderLine(power, "move", unit, via=tuple(place(m, p) for p in order.path),
                         dest=place(m, order.dest))
    if isinstance(order, (Support, Convoy)):
        target_unit = order.target if isinstance(order, Support) else Unit(order.carried, order.army)
        owner = owners.get(target_unit.province)
        return OrderLine(power, "support" if isinstance(order, Support) else "convoy", unit,
                         unit_view(m, target_unit, owner),
                         foreign=owner is not None and owner != order.power,
                         dest=place(m, order.dest) if order.dest else None)
    if isinstance(order, Retreat):
        return OrderLine(power, "retreat", unit, dest=place(m, order.dest))
    if isinstance(order, Proxy):
        return OrderLine(power, "proxy", unit, proxy_to=power_view(m, order.to))
    kinds = {Hold: "hold", Disband: "disband", Build: "build", Keep: "keep"}
    return OrderLine(power, kinds[type(order)], unit)


def unit_owners(resolution: Resolution) -> dict[str, str]:
    """Province -> power for every unit the phase's orders and outcome mention."""
    owners: dict[str, str] = {}
    for result in resolution.results:
        unit = getattr(result.order, "unit", None)
        if unit is not None:
            owners.setdefault(unit.province, result.order.power)
    for power, units in resolution.units.items():
        for unit in units:
            owners.setdefault(unit.province, power)
    return owners


def _by_power(m: Map, results: Sequence[OrderResult], owners: Mapping[str, str],
              removal: bool = False) -> dict[str, list[OrderLine]]:
    grouped: dict[str, list[OrderLine]] = {}
    for result in results:
        line = order_line(m, result, owners)
        if removal and line.kind == "disband":
            line = replace(line, kind="remove")
        grouped.setdefault(result.order.power, []).append(line)
    return grouped


def phase_results(m: Map, resolution: Resolution, position: Position | None = None,
                  rules: Rules = frozenset(),
                  unit_order: Mapping[str, Sequence[Unit]] | None = None) -> PhaseReport:
    """The order lines of a phase by power (in name order; a movement phase's in the order of
    `unit_order`, each power's units as the status file lists them, other phases' as resolved),
    the units it dislodged, and in an adjustment phase the builds left pending (`position`
    needed)."""
    phase = resolution.phase
    adjusting = phase.type == ADJUSTMENTS
    owners = unit_owners(resolution)
    grouped = _by_power(m, resolution.results, owners, removal=adjusting)
    present = {u.province for r in resolution.results if (u := getattr(r.order, "unit", None)) is not None}
    grouped = {p: [_phantom_shown(line, present, rules) for line in lines] for p, lines in grouped.items()}
    supported = _fleet_moves(resolution) if phase.type == MOVEMENT else {}
    if supported:
        grouped = {p: [_supported_coast(m, line, supported) for line in lines]
                   for p, lines in grouped.items()}
    given: dict[str, list[OrderLine]] = {}
    if phase.type == MOVEMENT and Rule.NO_CHECK in rules:
        grouped, given = _as_given(m, resolution, grouped, unit_order or {})
    if phase.type == MOVEMENT and unit_order:
        grouped = {p: _in_unit_order(lines, unit_order.get(p, ())) for p, lines in grouped.items()}
    grouped = {p: lines + given.get(p, []) for p, lines in grouped.items()}
    if adjusting and position is None:
        position = before_adjustments(resolution)
    pending = _pending_builds(m, resolution, position, rules) if adjusting and position else {}
    for power in pending:
        grouped.setdefault(power, [])
    powers = tuple(PowerOrders(power_view(m, p), tuple(grouped[p]), pending.get(p, 0))
                   for p in sorted(grouped))
    dislodged = dislodgements(m, resolution, unit_order, rules) if phase.type == MOVEMENT else ()
    return PhaseReport(phase_view(phase), powers, dislodged)


def _phantom_shown(line: OrderLine, present: Collection[str], rules: Rules) -> OrderLine:
    """SHOW_PHANTOM prints no supported or convoyed unit's nationality, and prints a support or
    convoy of a unit that is not there (FICTIONAL_OK) as it was given; without it, such an order
    is printed as the HOLD it amounts to (as DPjudge prints them). `present`: the provinces with
    a unit when the phase began (a unit moving in later does not make the order real)."""
    if Rule.SHOW_PHANTOM in rules:
        return replace(line, foreign=False)
    if line.kind in ("support", "convoy") and line.target is not None and \
            line.target.place.abbrev.split("/")[0] not in present:
        return replace(line, kind="hold", target=None, dest=None, results=())
    return line


def _fleet_moves(resolution: Resolution) -> dict[str, str]:
    """Province -> the coast a fleet there was ordered to (moves to a coast only)."""
    return {o.unit.province: o.dest for r in resolution.results
            if type(o := r.order) is Move and o.unit.type is UnitType.FLEET and "/" in o.dest}


def _supported_coast(m: Map, line: OrderLine, fleet_moves: Mapping[str, str]) -> OrderLine:
    """A support of a fleet's move to a coast names that coast, as DPjudge writes it (the order
    names the province only): `SUPPORT Fleet Gascony -> Spain (north coast)`."""
    if line.kind != "support" or line.dest is None or line.target is None \
            or line.target.kind != "fleet":
        return line
    coast = fleet_moves.get(province_of(line.target.place.abbrev))
    if coast is None or province_of(coast) != line.dest.abbrev:
        return line
    return replace(line, dest=place(m, coast))


NOT_CARRIED_OUT = frozenset({Result.INVALID.value, Result.REORDER.value})


def _as_given(m: Map, resolution: Resolution, grouped: Mapping[str, list[OrderLine]],
              units: Mapping[str, Sequence[Unit]]
              ) -> tuple[dict[str, list[OrderLine]], dict[str, list[OrderLine]]]:
    """NO_CHECK, as DPjudge writes it: each power's orders not carried out (`invalid`, then
    `reorder`), written as they were given, apart from its units' lines; a unit of the power none
    of whose orders was carried out holds (and is dislodged there, if it was). The units' lines,
    and the orders not carried out, by power."""
    texts: dict[str, list[str]] = {}
    for result in resolution.results:
        texts.setdefault(result.order.power, []).append(str(result.order))
    kept: dict[str, list[OrderLine]] = {}
    given: dict[str, list[OrderLine]] = {}
    for power, lines in grouped.items():
        kept[power] = [line for line in lines if NOT_CARRIED_OUT.isdisjoint(line.results)]
        refused = [(line, text) for line, text in zip(lines, texts.get(power, ()), strict=True)
                   if not NOT_CARRIED_OUT.isdisjoint(line.results)]
        if not refused:
            continue
        given[power] = sorted((replace(line, kind="given", text=text, results=tuple(
            w for w in line.results if w != Result.DISLODGED.value)) for line, text in refused),
            key=lambda line: Result.REORDER.value in line.results)
        ordered = {line.unit.place.abbrev for line in kept[power] if line.unit is not None}
        dislodged = {line.unit.place.abbrev for line, _ in refused
                     if line.unit is not None and Result.DISLODGED.value in line.results}
        view = power_view(m, power)
        kept[power] += [OrderLine(view, "hold", unit_view(m, unit, power),
                                  results=(Result.DISLODGED.value,) if unit.location in dislodged else ())
                        for unit in units.get(power, ()) if unit.location not in ordered]
    return kept, given


def _in_unit_order(lines: list[OrderLine], units: Sequence[Unit]) -> list[OrderLine]:
    """Order lines sorted by where their unit stands in `units` (lines for other units last, as
    they came)."""
    rank = {unit.location: n for n, unit in enumerate(units)}
    return sorted(lines, key=lambda line: rank.get(line.unit.place.abbrev, len(rank))
                  if line.unit is not None else len(rank))


def _pending_builds(m: Map, resolution: Resolution, position: Position,
                    rules: Rules) -> dict[str, int]:
    options = build_options(m, position.units, position.centers, rules, homes=position.homes,
                            phase=position.phase, tokens=position.tokens)
    pending = {}
    for power, option in options.items():
        # As DPjudge counts: a waived build stays pending (players read the line to see it was).
        used = sum(1 for r in resolution.results if r.order.power == power and not r.results
                   and isinstance(r.order, Build))
        if option.count - used > 0:
            pending[power] = option.count - used
    return pending


def before_adjustments(resolution: Resolution) -> Position:
    """The board an adjustment phase started from, read back from its resolution: the units
    standing after it, less those it built, plus those it removed (ownership as after it)."""
    units = {p: set(us) for p, us in resolution.units.items()}
    for result in resolution.results:
        order = result.order
        if result.results or not isinstance(order, (Build, Disband)):
            continue
        mine = units.setdefault(order.power, set())
        if isinstance(order, Build):
            mine.discard(order.unit)
        else:
            mine.add(order.unit)
    return Position(resolution.phase, {p: tuple(sorted(us)) for p, us in units.items()},
                    resolution.centers, homes=resolution.homes)


def with_captures(centers: Mapping[str, frozenset[str]], captured: Mapping[str, str | None]
                  ) -> dict[str, frozenset[str]]:
    """Ownership once `captured` (centre -> new owner, None: unowned) is applied."""
    owner = {c: p for p, cs in centers.items() for c in cs}
    for center, power in captured.items():
        if power is None:
            owner.pop(center, None)
        else:
            owner[center] = power
    result: dict[str, set[str]] = {}
    for center, power in owner.items():
        result.setdefault(power, set()).add(center)
    return {p: frozenset(cs) for p, cs in sorted(result.items())}


def dislodgements(m: Map, resolution: Resolution,
                  unit_order: Mapping[str, Sequence[Unit]] | None = None,
                  rules: Rules = frozenset()) -> tuple[Dislodgement, ...]:
    """The units a movement phase dislodged, by power name then as `unit_order` lists them (by
    place without it), each with its retreats in the order of its place's ABUTS line."""
    found = []
    for power in sorted(resolution.dislodged):
        rank = {u: n for n, u in enumerate((unit_order or {}).get(power, ()))}
        units = sorted(resolution.dislodged[power].items(),
                       key=lambda item: (rank.get(item[0], len(rank)), item[0]))
        outright = no_retreats(rules)
        for unit, retreats in units:
            found.append(Dislodgement(unit_view(m, unit, power), _in_abut_order(m, unit, retreats),
                                      outright))
    return tuple(found)


def _in_abut_order(m: Map, unit: Unit, retreats: Iterable[str]) -> tuple[Place, ...]:
    location = m.locations.get(unit.location)
    rank: dict[str, int] = {}
    for n, abut in enumerate(location.abuts if location else ()):
        rank.setdefault(abut.dest, n)  # a fleet's coast where the line names it,
        rank.setdefault(province_of(abut.dest), n)  # an army's province where the line first names it
    return tuple(place(m, r) for r in sorted(retreats, key=lambda r: (rank.get(r, len(rank)), r)))


# --- the board --------------------------------------------------------------------------------------

def ownership(m: Map, centers: Mapping[str, Iterable[str]]) -> tuple[Holding, ...]:
    """Each power's supply centres by abbreviation (as DPjudge lists them: London before
    Liverpool), powers in name order, then the unowned (power None)."""
    owned: set[str] = set()
    rows = []
    for power in sorted(p for p, cs in centers.items() if cs):
        owned.update(centers[power])
        rows.append(Holding(power_view(m, power), _places(m, centers[power])))
    unowned = m.supply_centers - owned
    if unowned:
        rows.append(Holding(None, _places(m, unowned)))
    return tuple(rows)


def _places(m: Map, abbrevs: Iterable[str]) -> tuple[Place, ...]:
    return tuple(place(m, a) for a in sorted(abbrevs))


def unit_holdings(m: Map, units: Mapping[str, Iterable[Unit]]) -> tuple[Holding, ...]:
    """Each power's units in the order given (the map's or the status file's, as DPjudge lists
    them), powers in name order (a starting position)."""
    return tuple(Holding(power_view(m, p), (), tuple(unit_view(m, u, p) for u in units[p]))
                 for p in sorted(units) if units[p])


def adjustments(m: Map, units: Mapping[str, Sequence[Unit]], centers: Mapping[str, frozenset[str]],
                rules: Rules = frozenset(), *, phase: Phase | None = None,
                homes: Mapping[str, frozenset[str]] | None = None,
                victors: Iterable[str] = ()) -> tuple[Adjustment, ...]:
    """The adjustment table after the ownership changes: every power with centres or units."""
    standing = {p: tuple(us) for p, us in units.items()}
    counts = adjustment_counts(m, standing, centers, rules, homes=homes, phase=phase)
    winners = set(victors)
    return tuple(Adjustment(power_view(m, p), len(centers.get(p, ())), len(standing.get(p, ())),
                            counts.get(p, 0), p in winners)
                 for p in sorted(set(counts) | set(standing))
                 if centers.get(p) or standing.get(p))


def powers(m: Map, names: Iterable[str]) -> tuple[PowerView, ...]:
    """Power views in the order given (callers sort when the order is theirs to choose)."""
    return tuple(power_view(m, n) for n in names)
