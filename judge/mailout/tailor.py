"""A BLIND game's results as one reader may see them: the views of `views.py`, filtered.

Pure. The Master and omniscient readers get everything; a power gets its own lines (and those of
the powers it controls), the lines of the foreign units it saw before and after the phase, a
`FOUND`, `ARRIVES`, `DEPARTS` or `LOST` line for a foreign unit it saw only at one end, the
dislodged units it sees (with their retreats only when they are its own), its own adjustment row,
and of the ownership its own centres and the foreign ones it has seen this year (its SEES line).
Who sees what is decided in `judge.game.visibility`; this module only applies it.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from judge.drawing.board import Board
from judge.events import UnitSighting
from judge.game.visibility import Seers
from judge.mailout.views import (
    Adjustment,
    Dislodgement,
    Holding,
    OrderLine,
    PhaseReport,
    PowerOrders,
    power_view,
    unit_view,
)
from judge.maps.model import Map
from judge.types import Unit

VOID = "void"  # never told in a BLIND game: it would say what another unit could not reach
NO_CONVOY = "no convoy"


@dataclass(frozen=True)
class Reader:
    """Who reads: a block's name (or MASTER), what it sees in full, and its SEES centres."""

    name: str
    seers: Seers
    sees: frozenset[str] = frozenset()

    @property
    def all_seeing(self) -> bool:
        return self.name in self.seers.everything

    def owns(self, power: str | None) -> bool:
        """Whether the reader sees everything of this power's (its own, a vassal's)."""
        return power is not None and self.name in self.seers.full_sight(power)


def blind_notes(report: PhaseReport) -> PhaseReport:
    """No order is `void` in a BLIND game's results; a convoyed move that was is `no convoy`. A
    hidden build is told as any build to whoever sees its site (DPjudge hides it no further)."""
    groups = []
    for group in report.powers:
        lines = []
        for line in group.lines:
            if line.hidden:
                line = replace(line, hidden=False)
            if VOID in line.results:
                notes = tuple(r for r in line.results if r != VOID)
                if line.via and NO_CONVOY not in notes:
                    notes += (NO_CONVOY,)
                line = replace(line, results=notes)
            lines.append(line)
        groups.append(replace(group, lines=tuple(lines)))
    return replace(report, powers=tuple(groups))


def report_for(m: Map, report: PhaseReport, sightings: Mapping[tuple[str, Unit], UnitSighting],
               reader: Reader) -> PhaseReport:
    """The phase's order lines and dislodgements as `reader` sees them (groups it sees nothing of
    are left out)."""
    if reader.all_seeing:
        return report
    index = {(power, unit.location): s for (power, unit), s in sightings.items()}
    told = set()
    groups = []
    for group in _every_power(m, report, sightings):
        lines: list[OrderLine] = []
        for line in group.lines:
            key = (group.power.name, line.unit.place.abbrev if line.unit else "")
            told.add(key)
            lines += _lines_for(m, line, index.get(key), reader)
        for key, seen in index.items():
            if key[0] == group.power.name and key not in told and not reader.owns(key[0]):
                lines += _lines_for(m, None, seen, reader)
        if lines:
            groups.append(replace(group, lines=tuple(lines),
                                  pending=group.pending if reader.owns(group.power.name) else 0))
    dislodged = tuple(d for d in (_dislodgement_for(d, index, reader) for d in report.dislodged) if d)
    return replace(report, powers=tuple(groups), dislodged=dislodged)


def _every_power(m: Map, report: PhaseReport, sightings: Mapping[tuple[str, Unit], UnitSighting]
                 ) -> list[PowerOrders]:
    """The report's groups, with an empty one for each power with a unit sighted but no line."""
    groups = {g.power.name: g for g in report.powers}
    for power, _ in sightings:
        if power not in groups:
            groups[power] = PowerOrders(power_view(m, power), ())
    return [groups[name] for name in sorted(groups)]


def _lines_for(m: Map, line: OrderLine | None, seen: UnitSighting | None, reader: Reader
               ) -> list[OrderLine]:
    """An order line as the reader sees it (`line` None: a unit that did nothing this phase)."""
    if line is not None and reader.owns(line.power.name):
        return [line]
    if seen is None:
        return []
    who = reader.name
    power = power_view(m, seen.power)
    there = unit_view(m, seen.there, seen.power)
    own = unit_view(m, seen.unit, seen.power)
    dislodged = tuple(r for r in line.results if r == "dislodged") if line else ()
    shown = [OrderLine(power, kind, there)
             for kind, readers in (("found", seen.found), ("arrives", seen.arrives)) if who in readers]
    if line is not None and who in seen.readers:
        shown.append(line)
    shown += [OrderLine(power, kind, own, results=dislodged)
              for kind, readers in (("departs", seen.departs), ("lost", seen.lost)) if who in readers]
    return shown


def blinded_for(m: Map, blinded: Iterable[UnitSighting], reader: Reader) -> tuple[OrderLine, ...]:
    """The `LOST` lines of the units the reader stops seeing when dislodged units are destroyed."""
    return tuple(OrderLine(power_view(m, s.power), "lost", unit_view(m, s.unit, s.power))
                 for s in blinded if reader.name in s.lost)


def _dislodgement_for(d: Dislodgement, index: Mapping[tuple[str, str], UnitSighting],
                      reader: Reader) -> Dislodgement | None:
    owner = d.unit.owner.name if d.unit.owner else None
    if reader.owns(owner):
        return d
    seen = index.get((owner or "", d.unit.place.abbrev))
    if seen is None or reader.name not in seen.readers | seen.found | seen.arrives:
        return None
    return d if not d.retreats else replace(d, retreats=(), sighted=True)


def ownership_for(rows: Iterable[Holding], reader: Reader) -> tuple[Holding, ...]:
    """The ownership rows a reader sees: its own in full, the others' centres it has seen."""
    if reader.all_seeing:
        return tuple(rows)
    shown = []
    for row in rows:
        if row.power is not None and reader.owns(row.power.name):
            shown.append(row)
            continue
        places = tuple(p for p in row.places if p.abbrev in reader.sees)
        if places:
            shown.append(replace(row, places=places))
    return tuple(shown)


def adjustments_for(rows: Iterable[Adjustment], reader: Reader) -> tuple[Adjustment, ...]:
    """A reader sees its own adjustment row, and a winner's."""
    return tuple(a for a in rows if reader.all_seeing or a.victory or reader.owns(a.power.name))


def holdings_for(rows: Iterable[Holding], reader: Reader) -> tuple[Holding, ...]:
    """Unit lists (revealed builds, units lost to a map change): a reader sees its own."""
    return tuple(r for r in rows if reader.all_seeing or (r.power is not None and reader.owns(r.power.name)))


def orders_only_own(report: PhaseReport, reader: Reader) -> PhaseReport:
    """A phase whose sightings are not worked out (retreats, adjustments): only the reader's own
    lines, so that nothing hidden is told."""
    if reader.all_seeing:
        return report
    return replace(report, powers=tuple(g for g in report.powers if reader.owns(g.power.name)),
                   dislodged=tuple(d for d in report.dislodged
                                   if d.unit.owner is not None and reader.owns(d.unit.owner.name)))


def board_for(board: Board, sightings: Mapping[tuple[str, Unit], UnitSighting], reader: Reader,
              ownership: Iterable[Holding] | None) -> Board:
    """A processed phase's picture as `reader` sees it: its own units and orders (and its
    vassals'), the foreign units it saw where they began and the orders of those whose lines it
    reads, a foreign dislodged unit without its retreats; the owners of its own centres and of
    those its `ownership` rows (None: none this phase) tell. A unit it only finds where it ends
    is told in words, not drawn: the board is the one the orders were given on (what stands after
    the phase is not drawn: a reader does not see where every unit it saw went)."""
    if reader.all_seeing:
        return board
    index = {(power, unit.location): s for (power, unit), s in sightings.items()}

    def saw(power: str, at: str, *, reads: bool = False) -> bool:
        seen = index.get((power, at))
        if reader.owns(power):
            return True
        if seen is None:
            return False
        return reader.name in (seen.readers if reads else seen.readers | seen.departs | seen.lost)

    units = {p: tuple(u for u in us if saw(p, u.location)) for p, us in board.units.items()}
    dislodged = {p: {u: r if reader.owns(p) else () for u, r in d.items() if saw(p, u.location)}
                 for p, d in board.dislodged.items()}
    told = {place.abbrev for row in ownership or () for place in row.places}
    powers = {*board.units, *board.centers, *board.dislodged, *(p for p, _ in sightings)}
    known = told | {c for p, cs in board.centers.items() if reader.owns(p) for c in cs}
    return replace(board, units=units, dislodged={p: d for p, d in dislodged.items() if d},
                   centers={p: cs & known for p, cs in board.centers.items() if cs & known},
                   orders=tuple(o for o in board.orders if saw(o.power, o.at, reads=True)),
                   full_sight=frozenset(p for p in powers if reader.owns(p)), outcome=None,
                   known_centers=frozenset(known))
