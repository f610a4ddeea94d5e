"""Player text to typed orders: one line, for one power, in one phase (see spec/order-format.md).

The parser understands the text and finds the unit it orders; whether the order is legal on the board
is `check_order`'s business. What it fills in, it fills in from the map and the units: the unit type
when it is left out, the coast of a fleet move when only one coast can be reached, the province of an
army's destination when a coast is named. Coasts of the ordered unit are ignored (DATC 4.B.5).
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Callable, Mapping, Sequence

from judge.errors import OrderError
from judge.maps.model import Map, per_map
from judge.orders.lexer import LINES_KEPT, Lexeme, Place, PlaceIndex, Word, is_word, lex, place_index
from judge.orders.model import Build, Convoy, Disband, Hold, Keep, Move, Order, Proxy, Retreat, Support, Waive
from judge.orders.names import either, place_name, unit_name
from judge.rule_names import Rule, Rules
from judge.types import ADJUSTMENTS, MOVEMENT, RETREATS, Phase, Unit, UnitType, province_of

FOREIGN_ORDERS = frozenset({Rule.ORDER_ANY, Rule.PROXY_OK})  # rules that let a power order others' units
_ARMY, _FLEET = UnitType.ARMY, UnitType.FLEET  # (a module name is read faster than an Enum member)


def parse_order(m: Map, power: str, text: str, phase: Phase, units: Mapping[str, Sequence[Unit]],
                *, rules: Rules = frozenset()) -> Order:
    """The order `text` means, given by `power` in `phase`; raises OrderError saying why not.

    `units` maps each power to its units: those on the board, or in a retreat phase the dislodged ones.
    `rules` matter for ORDER_ANY / PROXY_OK (another power's unit may be ordered) and, in movement
    phases, NO_CHECK: an order for a unit that is not there (or not the speaker's) is then read as
    written, for the adjudicator to rule invalid (or void)."""
    return OrderReader(m, rules).read(power, text, phase, units)


class OrderReader:
    """Reads order lines on one map with the map's alias index (made once a map: `place_index`)."""

    def __init__(self, m: Map, rules: Rules = frozenset()):
        self.map = m
        self.rules = rules
        self.index = place_index(m)
        self.plans = movement_plans(m)
        self.foreign_ok = bool(rules & FOREIGN_ORDERS)
        self.no_check = Rule.NO_CHECK in rules
        self.portage = Rule.PORTAGE_CONVOY in rules

    def read(self, power: str, text: str, phase: Phase,
             units: Mapping[str, Sequence[Unit]] | OrderableUnits) -> Order:
        """The order `text` means (see `parse_order`). For many lines of one phase, index the units
        once with `OrderableUnits(units)` and pass that, or read them with `power_reader`."""
        return self.power_reader(power, phase, units)(text)

    def power_reader(self, power: str, phase: Phase,
                     units: Mapping[str, Sequence[Unit]] | OrderableUnits) -> Callable[[str], Order]:
        """`read` of `power`'s lines in `phase`, the power checked once (OrderError: no such power)."""
        power = power.upper()
        if power not in self.map.powers:
            raise OrderError(f"no such power {power!r}")
        lenient = phase.type == MOVEMENT and self.no_check
        if not isinstance(units, OrderableUnits):
            units = OrderableUnits(units)
        return _Line(self.map, self.index, phase.type, power, units, lenient or self.foreign_ok,
                     phase.type == RETREATS, self.plans, lenient, self.portage,
                     Rule.PROXY_OK in self.rules).read


class OrderableUnits:
    """The units that may be ordered (power -> units), indexed by province."""

    def __init__(self, units: Mapping[str, Sequence[Unit]]) -> None:
        self.units = {p.upper(): tuple(us) for p, us in units.items()}
        self.at: dict[str, list[tuple[str, Unit]]] = {}  # province -> (owner, unit) for each unit there
        for power, mine in self.units.items():
            for unit in mine:
                self.at.setdefault(unit.province, []).append((power, unit))


@dataclass(slots=True)  # (made for every line read: a frozen dataclass is slower to make)
class _Line:
    """What reading one line needs: the map, who orders, and the units that may be ordered."""

    map: Map
    index: PlaceIndex
    phase_type: str
    power: str
    units: OrderableUnits
    foreign_ok: bool
    dislodged: bool
    plans: dict[str, Plan | None]  # the map's movement lines read before (`movement_plans`)
    lenient: bool = False  # NO_CHECK: a unit that is not there is taken as written
    portage: bool = False  # PORTAGE_CONVOY: armies convoy fleets
    proxy_ok: bool = False  # PROXY_OK: `A PAR PROXY GERMANY` is an order

    def read(self, text: str) -> Order:
        if self.phase_type == MOVEMENT:
            plan = self.plans.get(text, _UNPLANNED)
            if plan is _UNPLANNED:
                plan = _plan_line(self.map, self.index, text)
                if len(self.plans) < LINES_KEPT:
                    self.plans[text] = plan
            if plan is not None:
                order = _planned(self, plan)
                if order is not None:
                    return order
        return self.read_in_full(text)

    def read_in_full(self, text: str) -> Order:
        """`read` without the plans of common lines: every form, and every error."""
        if self.phase_type == MOVEMENT and "PROXY" in text.upper() and "PROXY" in text.upper().split():
            return _proxy(self, text.upper().split())
        lexemes = lex(self.index, text)
        if not lexemes:
            raise OrderError("an empty order")
        kind = self.phase_type
        if kind == MOVEMENT:
            return _movement(self, lexemes)
        if kind == RETREATS:
            return _retreat(self, lexemes)
        if kind == ADJUSTMENTS:
            return _adjustment(self, lexemes)
        raise OrderError(f"no orders are taken in a {kind} phase")

    def place(self, place: Place) -> str:
        """The one location a place means; an ambiguous alias is an error."""
        if len(place.options) > 1:
            raise OrderError(f"{place.text!r} is ambiguous: {either(self.name(o) for o in place.options)}")
        return place.options[0]

    def name(self, abbrev: str) -> str:
        return place_name(self.map, abbrev)

    def found(self, province: str) -> list[tuple[str, Unit]]:
        """(owner, unit) for each unit in the province, the speaker's own first."""
        here = self.units.at.get(province, [])
        return sorted(here, key=lambda pu: pu[0] != self.power) if len(here) > 1 else here

    def own_unit(self, unit_type: UnitType | None, place: Place) -> Unit:
        """The speaker's unit in the place; its type, if given, must match, and its coast is ignored."""
        province = province_of(self.place(place))
        found = self.found(province)
        if self.lenient and (not found or unit_type not in (None, found[0][1].type)):
            return self.other_unit(unit_type, place, "order")
        what = "dislodged unit" if self.dislodged else "unit"
        if not found:
            raise OrderError(f"no {what} in {self.name(province)}")
        owner, unit = found[0]
        if unit_type is not None and unit.type is not unit_type:
            raise OrderError(f"the {what} in {self.name(province)} is {unit_name(unit.type)}, "
                             f"not {unit_name(unit_type)}")
        if owner != self.power and not self.foreign_ok:
            raise OrderError(f"the {what} in {self.name(province)} is not yours")
        return unit

    def other_unit(self, unit_type: UnitType | None, place: Place, verb: str) -> Unit:
        """A unit named in a support: its type from the unit there, or the only type the place allows."""
        abbrev = self.place(place)
        province = province_of(abbrev)
        found = self.found(province)
        if unit_type is None:
            types = [found[0][1].type] if found else self.types_for(abbrev)
            if len(types) != 1:
                raise OrderError(f"no unit in {self.name(abbrev)} to {verb}")
            unit_type = types[0]
        location = abbrev if unit_type is _FLEET else province
        for _, unit in found:  # (most often the unit there: the same value, made already)
            if unit.type is unit_type and unit.location == location:
                return unit
        return Unit(unit_type, location)

    def types_for(self, abbrev: str) -> list[UnitType]:
        """The unit types that could be in a place (a fleet in a province with coasts, on a coast)."""
        loc = self.map.locations.get(abbrev)
        if loc is None:
            return []
        fleet = loc.fleet_can_stand or bool(loc.coast is None and self.map.coasts_of(abbrev))
        return [t for t, ok in ((UnitType.ARMY, loc.army_ok), (UnitType.FLEET, fleet)) if ok]

    def destination(self, unit: Unit, place: Place) -> str:
        """Where a move or retreat goes: an army to a province, a fleet to the one coast it can reach."""
        abbrev = self.place(place)
        if unit.type is _ARMY:
            return province_of(abbrev)
        coasts = self.map.coasts_of(abbrev) if "/" not in abbrev else ()
        reach = [c for c in coasts if self.map.abut(_FLEET, unit.location, c)]
        if len(reach) == 1:
            return reach[0]
        if len(reach) > 1:
            raise OrderError(f"a fleet moving to {self.name(abbrev)} must name a coast: {either(reach)}")
        return abbrev


def _split_unit(lexemes: list[Lexeme], what: str) -> tuple[UnitType | None, Place, list[Lexeme]]:
    """A unit as an order starts it: optional type, then its place; and the rest of the order."""
    unit_type = None
    if lexemes and isinstance(lexemes[0], Word) and lexemes[0].kind == "UNIT":
        unit_type, lexemes = lexemes[0].unit, lexemes[1:]
    if not lexemes or not isinstance(lexemes[0], Place):
        raise OrderError(f"{what} (such as A PAR)")
    return unit_type, lexemes[0], lexemes[1:]


def _one_place(lexemes: list[Lexeme], what: str) -> Place:
    """The single place after an optional move word: the destination of a support or convoy."""
    if lexemes and is_word(lexemes[0], "MOVE", "DASH"):
        lexemes = lexemes[1:]
    if len(lexemes) != 1 or not isinstance(lexemes[0], Place):
        raise OrderError(what)
    return lexemes[0]


# --- movement phases -------------------------------------------------------------------------------

def _proxy(line: _Line, words: list[str]) -> Proxy:
    """`A PAR PROXY GERMANY`: only the unit's owner may proxy it, to one other power."""
    if not line.proxy_ok:
        raise OrderError("proxy orders are not allowed in this game (PROXY_OK)")
    at = words.index("PROXY")
    unit_type, place, rest = _split_unit(lex(line.index, " ".join(words[:at])),
                                         "a proxy order starts with the unit it proxies")
    if rest:
        raise OrderError(f"a proxy order is the unit, PROXY and a power, not {rest[0].text!r}")
    found = line.found(province_of(line.place(place)))
    if found and found[0][0] != line.power:
        raise OrderError(f"the unit in {line.name(found[0][1].province)} is not yours to proxy")
    unit = line.own_unit(unit_type, place)
    if len(words) != at + 2:
        raise OrderError("a proxy order names one power: A PAR PROXY GERMANY")
    info = line.map.powers.get(words[-1]) or line.map.power_by_abbrev(words[-1])
    if info is None:
        raise OrderError(f"no such power to proxy to: {words[-1]!r}")
    if info.name == line.power:
        raise OrderError(f"a unit may not be proxied to its own power ({info.name})")
    return Proxy(line.power, unit, info.name)


def _movement(line: _Line, lexemes: list[Lexeme]) -> Order:
    unit_type, place, rest = _split_unit(lexemes, "an order starts with the unit it orders")
    unit = line.own_unit(unit_type, place)
    if not rest:
        raise OrderError(f"no order for {unit}: add H, - place, S or C")
    head, tail = rest[0], rest[1:]
    kind = head.kind if isinstance(head, Word) else None  # None: a place
    if kind == "HOLD":
        if tail:
            raise OrderError(f"nothing may follow a hold order, not {tail[0].text!r}")
        return Hold(line.power, unit)
    if kind == "SUPPORT":
        return _support(line, unit, tail)
    if kind == "CONVOY":
        return _convoy(line, unit, tail)
    if kind in ("MOVE", "DASH", None):
        return _move(line, unit, rest)
    if kind == "RETREAT":
        raise OrderError("not a retreat phase")
    if kind in ("BUILD", "DISBAND", "WAIVE", "KEEP"):
        raise OrderError("not an adjustment phase")
    raise OrderError(f"{head.text!r} cannot follow {unit}")


def _move(line: _Line, unit: Unit, rest: list[Lexeme]) -> Move:
    """`- BEL`, `BEL`, `- NTH - BEL`, `- BEL VIA CONVOY`, `- BEL VIA NTH`."""
    places: list[Place] = []
    via_places: list[Place] = []
    via = via_convoy = False
    for lexeme in rest:
        if isinstance(lexeme, Place):
            (via_places if via else places).append(lexeme)
        elif lexeme.kind == "VIA":
            via = True
        elif lexeme.kind == "CONVOY" and via:
            via_convoy = True
        elif lexeme.kind not in ("MOVE", "DASH"):
            raise OrderError(f"{lexeme.text!r} cannot be part of a move")
    if not places:
        raise OrderError("a move needs a destination")
    path = tuple([line.place(p) for p in places[:-1] + via_places]) if len(places) > 1 or via_places else ()
    via_convoy = via_convoy or (via and not via_places)
    return Move(line.power, unit, line.destination(unit, places[-1]), via_convoy, path)


def _support(line: _Line, unit: Unit, rest: list[Lexeme]) -> Support:
    """`S A PAR`, `S A PAR H`, `S A PAR - BUR`, `S PAR BUR`."""
    target_type, place, rest = _split_unit(rest, "a support names the unit it supports")
    target = line.other_unit(target_type, place, "support")
    if not rest or (len(rest) == 1 and is_word(rest[0], "HOLD")):
        return Support(line.power, unit, target)
    dest = line.place(_one_place(rest, f"a support names one destination: {unit} S {target} - place"))
    if target.type is UnitType.ARMY:
        dest = province_of(dest)
    return Support(line.power, unit, target, dest)


def _convoy(line: _Line, unit: Unit, rest: list[Lexeme]) -> Convoy:
    """`C A LON - BEL`, `C LON BEL`."""
    army_type, place, rest = _split_unit(rest, "a convoy names the army it convoys")
    if army_type is UnitType.FLEET and not line.portage:
        raise OrderError("only armies can be convoyed")
    army = province_of(line.place(place))
    dest = line.place(_one_place(rest, f"a convoy names the army's destination: {unit} C A {army} - place"))
    return Convoy(line.power, unit, army, province_of(dest), army_type or UnitType.ARMY)


# --- the common movement lines, read at once ------------------------------------------------------
# Most lines are `A PAR H`, `A PAR - BUR`, `F NTH S A LON - BEL` or `F NTH C A LON - BEL`, naming each
# place unambiguously, for a unit that stands alone in its province and is the speaker's own. What
# such a line says of the map (its plan) depends on its text and the map only, and the same few
# thousand lines come back phase after phase: it is worked out once a text (`_plan_line`), and
# reading the line is then finding its units (`_planned`). Any other line, or a plan the units do not
# fit, is read in full (`_Line.read_in_full`), which gives the same order: a property test shows it.

HOLDS, MOVES, SUPPORTS, CONVOYS = range(4)  # a plan's first item
# (HOLDS, unit type or None, province)
# (MOVES, unit type or None, province, destination, its province, whether a fleet must choose a coast)
# (SUPPORTS, unit type or None, province, supported type or None, its place, its province,
#  destination or None, its province)
# (CONVOYS, unit type or None, province, the army's province, the destination's province)
Plan = tuple


class _Unplanned(Enum):
    LINE = "a line not met before"  # (None is a line with no plan)


_UNPLANNED = _Unplanned.LINE


def _no_plans(m: Map) -> dict[str, Plan | None]:
    return {}


movement_plans = per_map(_no_plans)  # each map's movement lines met so far, by their text


def _plan_line(m: Map, index: PlaceIndex, text: str) -> Plan | None:
    if "PROXY" in text.upper() and "PROXY" in text.upper().split():
        return None
    try:
        lexemes = lex(index, text, keep=False)  # (the plan is kept instead)
    except OrderError:
        return None
    unit_type, place, rest = _plain_unit(lexemes)
    if place is None or not rest:
        return None
    province, head = province_of(place), rest[0]
    if isinstance(head, Place) or head.kind in ("MOVE", "DASH"):
        dest = _plain_destination(rest)
        if dest is None:
            return None
        coasted = "/" not in dest and bool(m.coasts_of(dest))
        return (MOVES, unit_type, province, dest, province_of(dest), coasted)
    if head.kind == "HOLD":
        return (HOLDS, unit_type, province) if len(rest) == 1 else None
    target_type, target, tail = _plain_unit(rest[1:])
    if target is None:
        return None
    if head.kind == "SUPPORT":
        if not tail or (len(tail) == 1 and is_word(tail[0], "HOLD")):
            return (SUPPORTS, unit_type, province, target_type, target, province_of(target), None, None)
        dest = _plain_destination(tail)
        if dest is None:
            return None
        return (SUPPORTS, unit_type, province, target_type, target, province_of(target), dest,
                province_of(dest))
    if head.kind == "CONVOY" and target_type is not _FLEET:
        dest = _plain_destination(tail)
        return None if dest is None else (CONVOYS, unit_type, province, province_of(target), province_of(dest))
    return None


def _plain_unit(lexemes: list[Lexeme]) -> tuple[UnitType | None, str | None, list[Lexeme]]:
    """An optional unit type and an unambiguous place, and what follows (no place: not plain)."""
    unit_type, start = None, 0
    if lexemes and type(lexemes[0]) is Word and lexemes[0].kind == "UNIT":
        unit_type, start = lexemes[0].unit, 1
    place = lexemes[start] if len(lexemes) > start else None
    if not isinstance(place, Place) or len(place.options) != 1:
        return None, None, []
    return unit_type, place.options[0], lexemes[start + 1:]


def _plain_destination(lexemes: list[Lexeme]) -> str | None:
    """The place of `BEL` or `- BEL` (unambiguous), else None."""
    if len(lexemes) == 2 and type(lexemes[0]) is Word and lexemes[0].kind in ("MOVE", "DASH"):
        lexemes = lexemes[1:]
    if len(lexemes) != 1 or type(lexemes[0]) is not Place or len(lexemes[0].options) != 1:
        return None
    return lexemes[0].options[0]


def _planned(line: _Line, plan: Plan) -> Order | None:
    """The order a planned line gives, when its units are as plain as its text; else None."""
    here = line.units.at.get(plan[2])
    if here is None or len(here) != 1:
        return None
    owner, unit = here[0]
    if owner != line.power or (plan[1] is not None and plan[1] is not unit.type):
        return None
    kind = plan[0]
    if kind == MOVES:
        if unit.type is _ARMY:
            return Move(owner, unit, plan[4])
        return None if plan[5] else Move(owner, unit, plan[3])
    if kind == HOLDS:
        return Hold(owner, unit)
    if kind == CONVOYS:
        return Convoy(owner, unit, plan[3], plan[4])
    there = line.units.at.get(plan[5])
    if there is None or len(there) != 1:
        return None
    target = there[0][1]
    if (plan[3] is not None and plan[3] is not target.type) or \
            target.location != (plan[4] if target.type is _FLEET else plan[5]):
        return None
    if plan[6] is None:
        return Support(owner, unit, target)
    return Support(owner, unit, target, plan[7] if target.type is _ARMY else plan[6])


# --- retreat and adjustment phases: verbs may stand in front or behind -------------------------------

def _loose(lexemes: list[Lexeme]) -> tuple[list[Place], set[str]]:
    """The places in order, and the kinds of the words other than unit types, of a loose order."""
    places = [lx for lx in lexemes if isinstance(lx, Place)]
    return places, {lx.kind for lx in lexemes if isinstance(lx, Word) and lx.kind != "UNIT"}


def _unit_type(lexemes: list[Lexeme]) -> UnitType | None:
    """The type written for the unit of a loose order: once, right before the unit's place."""
    typed = [(i, lx) for i, lx in enumerate(lexemes) if isinstance(lx, Word) and lx.kind == "UNIT"]
    if not typed:
        return None
    first_place = next((i for i, lx in enumerate(lexemes) if isinstance(lx, Place)), len(lexemes))
    if len(typed) > 1 or typed[0][0] != first_place - 1:
        raise OrderError(f"{typed[-1][1].text!r} must come right before the unit's place")
    return typed[0][1].unit


def _retreat(line: _Line, lexemes: list[Lexeme]) -> Order:
    """`F TRI - ALB`, `RETREAT F TRI TO ALB`, `F TRI D`, `DISBAND F TRI`."""
    places, kinds = _loose(lexemes)
    if kinds & {"SUPPORT", "CONVOY", "HOLD", "VIA"}:
        raise OrderError("not a movement phase: a dislodged unit retreats or disbands")
    if kinds & {"BUILD", "WAIVE", "KEEP"}:
        raise OrderError("not an adjustment phase")
    if not places:
        raise OrderError("name the dislodged unit (such as F TRI - ALB, or F TRI DISBAND)")
    unit = line.own_unit(_unit_type(lexemes), places[0])
    if "DISBAND" in kinds:
        if len(places) > 1:
            raise OrderError(f"a disbanded unit goes nowhere: {unit} DISBAND")
        return Disband(line.power, unit)
    if len(places) == 1:
        raise OrderError(f"no order for {unit}: retreat it (- place) or disband it (DISBAND)")
    if len(places) > 2:
        raise OrderError("a retreat goes to one place")
    return Retreat(line.power, unit, line.destination(unit, places[1]))


ADJUSTMENT_WORDS = {"BUILD": "BUILD", "DISBAND": "DISBAND", "DASH": "DISBAND", "KEEP": "KEEP", "HOLD": "KEEP"}


def _adjustment(line: _Line, lexemes: list[Lexeme]) -> Order:
    """`BUILD A PAR`, `+ F BRE`, `REMOVE A MUN`, `A MUN -`, `WAIVE`, `BUILD WAIVED`, `KEEP F MAO`."""
    places, kinds = _loose(lexemes)
    if "WAIVE" in kinds:
        if places or kinds - {"WAIVE", "BUILD"}:
            raise OrderError("WAIVE stands alone (or as BUILD WAIVED)")
        return Waive(line.power)
    if kinds & {"MOVE", "RETREAT", "SUPPORT", "CONVOY", "VIA"} or ("DASH" in kinds and len(places) > 1):
        raise OrderError("not a movement phase: build, remove or waive")
    unit_type = _unit_type(lexemes)
    actions = {ADJUSTMENT_WORDS[k] for k in kinds}
    if len(actions) != 1:
        raise OrderError("an adjustment order is one of BUILD, REMOVE, WAIVE or KEEP, with one unit")
    if len(places) != 1:
        raise OrderError("an adjustment order names one unit (such as BUILD A PAR)")
    action = actions.pop()
    if action == "BUILD":
        return Build(line.power, _new_unit(line, unit_type, places[0]))
    unit = line.own_unit(unit_type, places[0])
    return Disband(line.power, unit) if action == "DISBAND" else Keep(line.power, unit)


def _new_unit(line: _Line, unit_type: UnitType | None, place: Place) -> Unit:
    """The unit a build makes; without a type, the only one the place can hold."""
    abbrev = line.place(place)
    if unit_type is None:
        types = line.types_for(abbrev)
        if len(types) != 1:
            raise OrderError(f"say which unit to build in {line.name(abbrev)}: "
                             f"BUILD A {province_of(abbrev)} or BUILD F {abbrev}")
        unit_type = types[0]
    return Unit(unit_type, abbrev if unit_type is UnitType.FLEET else province_of(abbrev))
