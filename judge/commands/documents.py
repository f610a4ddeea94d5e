"""SUMMARY and LIST of a game as DPjudge lays them out: what they say, as data its templates write out
(`templates/_summary.txt`, `_listing.txt`, `_parameters.txt`, `_roster.txt`).

The roster hides who plays a power (`someone@somewhere`) from everyone but the Master and that
power, until the game is over (and NO_REVEAL keeps it hidden then). SUMMARY's tables are read from
the results archive (`judge.game.archive`): each year's last ownership table, as the reader may see
it; only the Master, or anyone when the game is not BLIND or is over, sees the Calhamer index.
"""
from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from judge.commands.reply import Document
from judge.game.archive import Ownership
from judge.game.rules import listed_rules, rules_in_force
from judge.maps.model import Map
from judge.rule_names import Rule, Rules
from judge.status.model import Dppd, GameStatus, PowerStatus, Vacancy
from judge.types import MASTER, Phase, Unit, UnitType

HIDDEN = "someone@somewhere"
CALHAMER_PER_ROW = 10  # years in one row of the centre counts


@dataclass(frozen=True)
class Person:
    """One line of a power's roster entry: since `phase` (None: the first), the name column and
    the address column."""

    phase: str | None
    name: str
    address: str
    mark: str = ""  # late, vacant, dummy, vassal of Austria: LIST's column


@dataclass(frozen=True)
class RosterRow:
    power: str  # as displayed: Austria
    people: tuple[Person, ...]
    counts: str = ""  # LIST: units/centres (` 5/5 `, ` ?/? ` in a BLIND game), blank when none


@dataclass(frozen=True)
class Parameters:
    game: str
    over: bool
    variant: str
    timing: str
    press: str
    rules: str
    victory: int
    judge: str
    started: str | None
    ended: str | None
    victors: tuple[str, ...]  # as displayed: the game was won by one, or drawn between them


@dataclass(frozen=True)
class CountRow:
    power: str
    counts: tuple[int, ...]


@dataclass(frozen=True)
class CountTable:
    years: tuple[str, ...]  # 1901, '02, '03...
    rows: tuple[CountRow, ...]
    index: tuple[int | None, ...]  # None: not shown to this reader


@dataclass(frozen=True)
class SummaryDocument(Document):
    template: ClassVar[str] = "_summary.txt"
    game: str
    through: str | None  # None: the archive holds no ownership table
    master: Person
    roster: tuple[RosterRow, ...]
    parameters: Parameters
    centres: tuple[str, ...]  # Ank, Bel... (column heads, alternately on two lines)
    years: tuple[tuple[str, str], ...]  # (year, one owner letter per centre)
    tables: tuple[CountTable, ...]


# --- the roster ---------------------------------------------------------------------------------

def roster(status: GameStatus, m: Map, reader: str | None, late: Collection[str] = (),
           listing: bool = False, blind: bool = False) -> tuple[Person, tuple[RosterRow, ...]]:
    """The Master's line and each map power's people, as `reader` (a power, MASTER, or None: a
    stranger) may see them; `late`: the powers late with orders, marked where DPjudge marks them;
    `listing`: LIST's form (the current player only, with units/centres)."""
    master = status.master
    master_line = Person(None, "" if listing or master is None else master.name.replace("_", " "),
                         master.email if master else "")
    rows = []
    rules = rules_in_force(status, m)
    for name, info in m.powers.items():
        block = status.power(name)
        if block is None or not block.is_power:
            continue
        people = _people(status, rules, block, reader, name in late)
        if listing:
            people = people[-1:]
        rows.append(RosterRow(info.display, people, _counts(block, reader, blind) if listing else ""))
    return master_line, tuple(rows)


def _people(status: GameStatus, rules: Rules, block: PowerStatus, reader: str | None,
            late: bool) -> tuple[Person, ...]:
    history = block.player
    if history is None:
        return (_person(None, Dppd("", block.address[0] if block.address else HIDDEN), status, rules,
                        block, reader, late, current=True),)
    steps: list[tuple[str | None, object]] = []
    since: str | None = None
    for handover in reversed(history.handovers):
        if handover.previous is not None:
            steps.append((since, handover.previous))
        since = handover.phase
    steps.append((since, history.current))
    return tuple(_person(phase, seat, status, rules, block, reader, late and n == len(steps) - 1,
                         current=n == len(steps) - 1) for n, (phase, seat) in enumerate(steps))


def _person(phase: str | None, seat: object, status: GameStatus, rules: Rules,
            block: PowerStatus, reader: str | None, late: bool, current: bool) -> Person:
    """One seat as `reader` may see it under the rules in force (HIDE_DUMMIES, HIDE_LATE_POWERS,
    NO_REVEAL: brought in by BLIND and others too)."""
    if seat is Vacancy.RESIGNED:
        return Person(phase, "vacant", "*", "vacant")
    if seat is Vacancy.DUMMY:
        boss = block.control[0] if block.control else None
        shown = boss and (status.completed or Rule.HIDE_DUMMIES not in rules
                          or reader in (block.name, boss, MASTER))
        mark = f"vassal of {boss.title()}" if shown and boss else "dummy"
        return Person(phase, mark, "*", mark)
    assert isinstance(seat, Dppd)
    mark = "late" if late and (Rule.HIDE_LATE_POWERS not in rules
                               or reader in (block.name, MASTER)) else ""
    revealed = status.completed and Rule.NO_REVEAL not in rules
    sees = reader == MASTER or (reader == block.name and current)
    if not (revealed or sees):
        return Person(phase, mark, HIDDEN, mark)
    # the current player is shown at the address mail goes to (SET ADDRESS changes it, not PLAYER)
    email = block.address[0] if current and block.address else seat.email
    return Person(phase, seat.name.replace("_", " "), email, mark)


def _counts(block: PowerStatus, reader: str | None, blind: bool) -> str:
    if blind and reader not in (MASTER, block.name):
        return " ?/? "
    units = len(block.units) + len(block.dislodged)
    centres = len([c for c in block.owns if c != "SC*"])
    return "" if units == centres == 0 else f"{units:2d}/{centres:<2d}"


# --- the parameters -----------------------------------------------------------------------------

PRESS_KINDS = ((Rule.FAKE_PRESS, "Fake"), (Rule.GREY_PRESS, "Grey"), (Rule.WHITE_GREY, "White, Grey"),
               (Rule.YELLOW_PRESS, "Yellow"))
PRESS_LIMITS = ((Rule.FTF_PRESS, "Face-to-Face Restrictions"), (Rule.TOUCH_PRESS, "Touch"),
                (Rule.BACKSEAT_PRESS, "Backseat"))


def parameters(status: GameStatus, m: Map, judge: str) -> Parameters:
    name = status.name or ""
    victors = tuple(m.powers[v].display if v in m.powers else v.title()
                    for v in (status.result.victors if status.result else ()))
    year = int(status.result.last_phase[1:-1]) if status.result else \
        (status.phase.year if isinstance(status.phase, Phase) else m.begin.year)
    return Parameters(name, status.completed, _variant(status), _timing(status.timing),
                      press(status.rules), ", ".join(sorted(listed_rules(status.rules))),
                      m.victory_in(year), judge, status.start, status.finish, victors)


def _variant(status: GameStatus) -> str:
    """The map, then the variant when it is not the standard game, as DPjudge names them."""
    names = [status.map_name.title(), *([kind.title()] if (kind := status.game_class) else [])]
    return ", ".join(names + (["No DIAS"] if Rule.NO_DIAS in status.rules else []))


def _timing(written: str | None) -> str:
    words = (written or "").split()
    text = "".join(" " + (w.title() if w.isalpha() else w) for w in words) or " Next 1D Move 3D"
    return text if "DAYS" in (w.upper() for w in words) else text + " Days -MTWTF-"


def press(rules: Rules) -> str:
    if Rule.NO_PRESS in rules:
        return "None."
    kinds = [text for rule, text in PRESS_KINDS if rule in rules] or ["White"]
    kinds += [text for rule, text in PRESS_LIMITS if rule in rules]
    if Rule.BACKSEAT_PRESS not in rules:
        kinds.append("Public" if Rule.PUBLIC_PRESS in rules else "Private")
    return ", ".join(kinds) + "."


# --- the centre tables --------------------------------------------------------------------------

def centre_tables(m: Map, years: Sequence[Ownership], index: bool
                  ) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...], tuple[CountTable, ...]]:
    """SUMMARY's tables from each year's ownership: the centres (column heads), each year's owner
    letters, and the centre counts ten years a table, with the Calhamer index when `index`."""
    owners: list[dict[str, str]] = []
    for table in years:
        found = {}
        for owner, names in table.owners.items():
            letter = "." if owner == "UNOWNED" else _letter(m, owner)
            for place in names:
                found.update({abbrev: letter for abbrev in m.lookup(place)[:1]})
        owners.append(found)
    centres = sorted({c for found in owners for c in found})
    rows = tuple((t.year, " ".join(found.get(c, "?") for c in centres)) for t, found in zip(years, owners))
    return tuple(c.title() for c in centres), rows, _count_tables(m, years, index)


def _letter(m: Map, owner: str) -> str:
    info = m.powers.get(owner)
    return info.abbrev if info is not None else owner[:1]


def _count_tables(m: Map, years: Sequence[Ownership], index: bool) -> tuple[CountTable, ...]:
    last: dict[str, str] = {}
    for table in years:
        for owner in table.owners:
            last[owner] = table.year
    tables = []
    for start in range(0, len(years), CALHAMER_PER_ROW):
        chunk = years[start:start + CALHAMER_PER_ROW]
        heads = tuple(t.year if n == 0 else "'" + t.year[-2:] for n, t in enumerate(chunk))
        rows = tuple(CountRow(m.powers[p].display, tuple(len(t.owners.get(p, ())) for t in chunk
                                                          if t.year <= last[p]))
                     for p in sorted(m.powers) if last.get(p, "") >= chunk[0].year)
        tables.append(CountTable(heads, rows, tuple(_calhamer(t) if index else None for t in chunk)))
    return tuple(tables)


def _calhamer(table: Ownership) -> int:
    counts = [len(names) for owner, names in table.owners.items() if owner != "UNOWNED"]
    return sum(n * n for n in counts) // len(counts) if counts else 0


# --- LIST game ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class UnitLine:
    unit: str  # Army Serbia, Fleet St Petersburg (south coast)
    retreats: tuple[str, ...] = ()  # a dislodged unit's places to retreat to


@dataclass(frozen=True)
class PowerUnits:
    power: str
    units: tuple[UnitLine, ...]


@dataclass(frozen=True)
class ListingDocument(Document):
    """LIST of a game: the `::` lines, the deadline, who has not ordered, the parameters, the
    roster with units/centres, each unit on its line and the ownership of the centres."""

    template: ClassVar[str] = "_listing.txt"
    judge: str
    game: str
    variant: str
    mapper: str | None  # the phase in the `::` line (W1901A is written F1901B); None: no phase
    deadline: object | None  # a datetime on the game's clock
    waiting_for: str | None  # "2 more players to join", "Italy to be taken over"
    unordered: tuple[str, ...] | None  # LIST_UNORDERED: who; None: unsaid; (): everyone ordered
    any_unordered: bool
    waiters: tuple[str, ...] | None  # LIST_WAITERS: who; None: unsaid
    any_waiters: bool
    parameters: Parameters
    master: Person
    roster: tuple[RosterRow, ...]
    phase: tuple[str, str, int, str] | None  # (Movement, Spring, 1902, S1902M); None: no phase
    units: tuple[PowerUnits, ...]
    ownership: tuple[tuple[str, tuple[str, ...]], ...]  # (Austria, centre names), Unowned last
    state: str | None = None  # said after DPjudge's text when not active: terminated, waiting...
    unlisted: bool = False  # said after DPjudge's text too
    game_class: str = ""  # the variant beside the map in the `::` line, when not standard


def unit_name(m: Map, unit: Unit) -> str:
    """Army Serbia, Fleet St Petersburg (south coast)."""
    kind = "Army" if unit.type is UnitType.ARMY else "Fleet"
    return f"{kind} {place_name(m, unit.location)}"


def place_name(m: Map, abbrev: str) -> str:
    loc = m.locations.get(abbrev)
    return loc.name if loc is not None else abbrev


def board(status: GameStatus, m: Map, shown: Callable[[str], bool],
          glimpsed: Mapping[str, Sequence[Unit]] | None = None
          ) -> tuple[tuple[PowerUnits, ...], tuple[tuple[str, tuple[str, ...]], ...]]:
    """Each power's units (in its status file's order, dislodged ones last with their retreats)
    and the centres' owners sorted by abbreviation, as DPjudge lists them; `shown(power)` says
    whose the reader may see, `glimpsed` which units of the others it sees (BLIND)."""
    units, owners = [], []
    homes = {c for info in m.powers.values() for c in info.homes}
    unowned = set(m.supply_centers) - homes
    for block in status.powers:
        if not block.is_power:
            continue
        display = m.powers[block.name].display if block.name in m.powers else block.name.title()
        centres = sorted(c for c in block.owns if not c.startswith("SC"))
        unowned -= set(centres)
        if not shown(block.name):
            seen = (glimpsed or {}).get(block.name, ())
            if seen:
                units.append(PowerUnits(display, tuple(UnitLine(unit_name(m, u)) for u in seen)))
            continue
        lines = [UnitLine(unit_name(m, u)) for u in block.units]
        lines += [UnitLine(unit_name(m, d.unit), tuple(place_name(m, r) for r in d.retreats))
                  for d in block.dislodged]
        if lines:
            units.append(PowerUnits(display, tuple(lines)))
        if centres:
            owners.append((display, tuple(place_name(m, c) for c in centres)))
    if unowned and shown(MASTER):
        owners.append(("Unowned", tuple(place_name(m, c) for c in sorted(unowned))))
    return tuple(units), tuple(owners)
