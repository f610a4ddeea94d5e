"""The JSON pipeline of `judge adjudicate`: a request in, the resolution of its phase out.

In::

    {"map": "standard", "phase": "SPRING 1901 MOVEMENT" (or "S1901M"), "rules": [...] (optional),
     "units": {"ENGLAND": ["F NTH", "A LON"], ...},
     "centers": {"ENGLAND": ["EDI", "LON", "LVP"], ...} (optional: the map's starting ownership;
                 when given it is complete, a centre nobody lists is unowned),
     "orders": {"ENGLAND": ["F NTH C A LON - BEL", "A LON - BEL"], ...}}

In a retreat phase a dislodged unit is written as in a status file: "F NTH --> NWG EDI".

Out::

    {"phase": ..., "results": {"ENGLAND": [{"unit": "F NTH", "order": "F NTH C A LON - BEL",
     "result": []}, ...]}, "units": {...}, "dislodged": {"FRANCE": {"F ENG": ["IRI", "MAO"]}},
     "centers": {...}, "next_phase": "SPRING 1901 RETREATS"}

A power's results list its orders in the order given (an order that is illegal or cannot be read
has "result": ["void"] and an "error" text), then what the judge did for its units without orders.
Every other list is sorted. A JSON array of requests is answered with an array, in order. Bad input
raises `RequestError`. Maps come from the `load_map` the caller passes (the command reads them from
disk); `adjudicate_text` is the whole command between reading the request and printing the answer.
The answer is written as JSON text straight from the resolution, once (`adjudicate_request` reads
that text back).
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from itertools import repeat
from json.encoder import encode_basestring_ascii as _json_string
from typing import Any, cast

from judge.adjudicator import resolve
from judge.adjudicator.builds import needs_adjustments
from judge.adjudicator.model import OrderResult, Position, Resolution, Result
from judge.errors import JudgeError, MapError, OrderError
from judge.maps.model import Map, per_map
from judge.maps.parser import map_for_phase
from judge.orders.model import Order
from judge.orders.parser import OrderableUnits, OrderReader
from judge.phases import next_phase, parse_phase
from judge.types import (
    ADJUSTMENTS,
    MOVEMENT,
    RETREATS,
    Phase,
    Unit,
    UnitType,
    province_of,
)
from judge.rule_names import Rules

UNIT = re.compile(r"\s*([AF])\s+(\S+)\s*", re.IGNORECASE)
DISLODGED = re.compile(r"(.*?)-->(.*)")


class RequestError(JudgeError):
    """A request that cannot be adjudicated: the message says what is wrong with it."""


def adjudicate_text(text: str, load_map: Callable[[str], Map]) -> str:
    """The JSON text of the answer to the JSON text of a request (or of an array of them), written
    as `json.dumps(answer, indent=1)` writes it. Text that is not JSON raises ValueError."""
    return _answers_text(json.loads(text), load_map)


def adjudicate_request(request: Any, load_map: Callable[[str], Map]) -> Any:
    """Answer one request (a dict) or an array of them (a list), as `judge adjudicate` does;
    `load_map(name)` gives the map a request names."""
    return json.loads(_answers_text(request, load_map))


def _answers_text(request: Any, load_map: Callable[[str], Map]) -> str:
    tools = _Tools(load_map)
    if isinstance(request, list):  # (each answer one level in: JSON strings hold no raw newline)
        return _block("[", [_answer(item, tools).replace("\n", "\n ") for item in request], "]", "")
    return _answer(request, tools)


def _answer(request: Any, tools: _Tools) -> str:
    if not isinstance(request, dict):
        raise RequestError("a request is a JSON object (or an array of them)")
    return Request(request, tools).answer()


class _Tools:
    """What the requests of one call share: each map loaded once, an order reader for each."""

    def __init__(self, load_map: Callable[[str], Map]) -> None:
        self.load_map = load_map
        self.maps: dict[str, Map] = {}
        self.readers: dict[tuple[int, frozenset[str]], tuple[Map, OrderReader]] = {}

    def map(self, name: str) -> Map:
        if name not in self.maps:
            self.maps[name] = _load(self.load_map, name)
        return self.maps[name]

    def reader(self, m: Map, rules: Rules) -> OrderReader:
        key = (id(m), rules)
        if key not in self.readers:  # the map is kept with its reader, so its id stays its own
            self.readers[key] = (m, OrderReader(m, rules))
        return self.readers[key][1]


class Request:
    """One request, checked and turned into the adjudicator's types."""

    def __init__(self, request: dict, tools: _Tools) -> None:
        unknown = set(request) - {"map", "phase", "rules", "units", "centers", "orders"}
        if unknown:
            raise RequestError(f"unknown request keys: {', '.join(sorted(unknown))}")
        self.tools = tools
        base = tools.map(_text(request, "map"))
        try:
            self.phase = parse_phase(base, _text(request, "phase"))
            self.map = map_for_phase(base, self.phase)
        except (ValueError, MapError) as exc:
            raise RequestError(str(exc)) from None
        if self.phase.type not in (MOVEMENT, RETREATS, ADJUSTMENTS):
            raise RequestError(f"{self.phase} is a {self.phase.type} phase: the judge adjudicates "
                               f"movement, retreat and adjustment phases only")
        self.base = base
        self.rules = (self.map.rules | frozenset(_words(request.get("rules", []), "rules"))) \
            - self.map.rules_off
        self.units, self.dislodged = self._read_units(_power_map(request, "units", self.map))
        self.centers = self._read_centers(request.get("centers"))
        self.order_texts = _power_map(request, "orders", self.map, required=False)

    # --- reading the request ----------------------------------------------------------------------

    def _read_units(self, given: Mapping[str, list]) -> tuple[dict, dict]:
        units: dict[str, tuple[Unit, ...]] = {}
        dislodged: dict[str, dict[Unit, tuple[str, ...]]] = {}
        seen: dict[str, Unit] = {}
        known = units_written(self.map)
        for power, entries in given.items():
            texts = []  # each unit's text as the map writes it
            for entry in _words(entries, "units", power):
                unit = known.get(entry)
                if unit is None:
                    match = DISLODGED.fullmatch(entry)
                    if match:
                        unit, retreats = self._dislodged_entry(power, match)
                        dislodged.setdefault(power, {})[unit] = retreats
                        continue
                    unit = self._unit(entry, power)
                    entry = str(unit)
                    known.setdefault(entry, unit)  # (so what is kept is bounded by the map's places)
                if unit.province in seen:
                    raise RequestError(f"{unit} of {power}: {seen[unit.province]} is already in "
                                       f"{unit.province}")
                seen[unit.province] = unit
                texts.append(entry)
            texts.sort()  # (a unit's text sorts as the unit does)
            units[power] = tuple([known[text] for text in texts])
        return units, dislodged

    def _dislodged_entry(self, power: str, match: re.Match) -> tuple[Unit, tuple[str, ...]]:
        if self.phase.type != RETREATS:
            raise RequestError(f"{match.group(0).strip()!r} of {power}: dislodged units are only "
                               f"written in a retreat phase")
        unit = self._unit(match.group(1), power)
        retreats = tuple(sorted(place.upper() for place in match.group(2).split()))
        for place in retreats:
            if place not in self.map.locations:
                raise RequestError(f"{unit} of {power}: no place {place} on the {self.map.name} map")
        return unit, retreats

    def _unit(self, text: str, power: str) -> Unit:
        match = UNIT.fullmatch(text)
        if not match:
            raise RequestError(f"{text!r} of {power} is not a unit (e.g. A PAR or F SPA/NC)")
        unit = Unit(UnitType(match.group(1).upper()), match.group(2).upper())
        if not self.map.can_stand(unit):
            raise RequestError(f"{unit} of {power}: no {'army' if unit.type is UnitType.ARMY else 'fleet'}"
                               f" can be in {unit.location} on the {self.map.name} map")
        return unit

    def _read_centers(self, given: Any) -> dict[str, frozenset[str]]:
        if given is None:
            return {name: frozenset(p.centers) for name, p in self.map.powers.items() if p.centers}
        owners: dict[str, str] = {}
        centers = {}
        for power, listed in _power_map({"centers": given}, "centers", self.map).items():
            for center in (c.upper() for c in _words(listed, "centers", power)):
                if center not in self.map.supply_centers:
                    raise RequestError(f"{center} of {power} is not a supply centre of the "
                                       f"{self.map.name} map")
                if owners.setdefault(center, power) != power:
                    raise RequestError(f"{center} is listed for {owners[center]} and {power}")
            centers[power] = frozenset(c.upper() for c in listed)
        return centers

    # --- answering --------------------------------------------------------------------------------

    def answer(self) -> str:
        """The answer's JSON text, as `json.dumps(answer, indent=1)` writes it."""
        parsed, typed = self._parse_orders()
        position = Position(self.phase, self.units, self.centers, self.dislodged)
        resolution = resolve(self.map, position, typed, self.rules)
        dislodged = {p: {str(u): sorted(r) for u, r in sorted(units.items())}
                     for p, units in sorted(resolution.dislodged.items()) if units}
        return (f'{{\n "phase": {_json_string(str(self.phase))},\n'
                f' "results": {_results_text(_results(parsed, resolution))},\n'
                f' "units": {_lists_text(_unit_texts(resolution), " ")},\n'
                f' "dislodged": {_dislodged_text(dislodged)},\n'
                f' "centers": {_lists_text({p: sorted(cs) for p, cs in sorted(resolution.centers.items())}, " ")},\n'
                f' "next_phase": {_json_string(str(self._next_phase(resolution)))}\n}}')

    def _parse_orders(self) -> tuple[dict[str, list[Order | _Unreadable]], dict[str, list[Order]]]:
        """Each power's orders as given, read or `_Unreadable`; and those that were read."""
        reader = self.tools.reader(self.map, self.rules)
        ordered = OrderableUnits(self.units if self.phase.type != RETREATS else {
            p: tuple(us) for p, us in self.dislodged.items()})
        parsed: dict[str, list[Order | _Unreadable]] = {}
        typed: dict[str, list[Order]] = {}
        for power, texts in self.order_texts.items():
            items: list[Order | _Unreadable] = []
            read = reader.power_reader(power, self.phase, ordered)  # (powers are checked already)
            unreadable = False
            for text in _words(texts, "orders", power):
                try:
                    items.append(read(text))
                except OrderError as exc:
                    items.append(_Unreadable(text, str(exc)))
                    unreadable = True
            parsed[power] = items
            if unreadable:
                typed[power] = [o for o in items if not isinstance(o, _Unreadable)]
            else:  # every item was read: the same list serves
                typed[power] = cast(list[Order], items)
        return parsed, typed

    def _next_phase(self, resolution: Resolution) -> Phase:
        phase = self.phase
        for _ in range(8):  # at most a retreat and an adjustment phase are skipped in a row
            phase = next_phase(self.map, phase)
            if phase.type == RETREATS and not any(resolution.dislodged.values()):
                continue
            if phase.type == ADJUSTMENTS and not self._adjusts(phase, resolution):
                continue
            return phase
        return phase

    def _adjusts(self, phase: Phase, resolution: Resolution) -> bool:
        """Whether anybody builds or removes in `phase`, with centres taken by the units there."""
        m = map_for_phase(self.base, phase)
        centers = _captured(m, resolution)
        return needs_adjustments(m, resolution.units, centers, self.rules,
                                 homes=resolution.homes, phase=phase)


class _Unreadable:
    __slots__ = ("error", "text")

    def __init__(self, text: str, error: str) -> None:
        self.text, self.error = text, error

    def unit(self) -> str | None:
        """The unit the text seems to order (`A PAR`), if it starts like one."""
        match = UNIT.match(self.text + " ")
        return f"{match.group(1).upper()} {match.group(2).upper()}" if match else None

    def entry(self, default: OrderResult | None) -> str:
        words = {"void"} | {w.value for w in default.results} if default else {"void"}
        return _entry_text(self.unit(), self.text, sorted(words), self.error)


def _results(parsed: dict[str, list[Order | _Unreadable]], resolution: Resolution) -> dict[str, list[str]]:
    """Each power's orders with their results, then the results of orders nobody gave (each entry's
    text)."""
    pending = _Pending(resolution.results)
    results: dict[str, list[str]] = {}
    unreadable = []  # (its power, its entries, its place in them, the order)
    for power, items in parsed.items():
        entries = results[power] = []
        for item in items:
            if isinstance(item, _Unreadable):
                unreadable.append((power, entries, len(entries), item))
                entries.append("")
            else:
                entries.append(_entry(pending.take(item)))
    for power, entries, index, item in unreadable:  # what became of its unit, and void
        entries[index] = item.entry(pending.take_unit(power, item.unit()))
    for result in pending.left():
        results.setdefault(result.order.power, []).append(_entry(result))
    return results


class _Pending:
    """The resolution's results not yet matched to an order given, in the resolution's order."""

    def __init__(self, results: tuple[OrderResult, ...]) -> None:
        self.results = results
        self.taken = [False] * len(results)
        self.next = 0  # where the next order's result most often is: they follow the orders given
        self._first: dict[int, int] | None = None  # id of an order -> the index of its first result

    def take(self, order: Order) -> OrderResult:
        """The result of a given order: the same object, else an equal order."""
        index = self.next
        if index < len(self.results) and self.results[index].order is order and not self.taken[index]:
            self.taken[index] = True
            self.next = index + 1
            return self.results[index]
        first = self.first().get(id(order))
        if first is not None and not self.taken[first]:
            self.taken[first] = True
            return self.results[first]
        for test in (lambda r: r.order is order, lambda r: r.order == order):
            for index in self._untaken():
                if test(self.results[index]):
                    self.taken[index] = True
                    return self.results[index]
        return OrderResult(order)

    def first(self) -> dict[int, int]:
        if self._first is None:
            self._first = {}
            for index, result in enumerate(self.results):
                self._first.setdefault(id(result.order), index)
        return self._first

    def take_unit(self, power: str, unit: str | None) -> OrderResult | None:
        """The judge's own order for the power's unit in the province `unit` names, if it gave one."""
        if unit is None:
            return None
        province = province_of(unit.split()[-1])
        for index in self._untaken():
            result = self.results[index]
            own = getattr(result.order, "unit", None)
            if result.order.power == power and own is not None and own.province == province:
                self.taken[index] = True
                return result
        return None

    def left(self) -> list[OrderResult]:
        return [self.results[index] for index in self._untaken()]

    def _untaken(self) -> list[int]:
        return [index for index, taken in enumerate(self.taken) if not taken]


def _entry(result: OrderResult) -> str:
    unit = getattr(result.order, "unit", None)
    words = sorted([_WORDS[word] for word in result.results]) if result.results else ()
    error = result.note if result.note and not ERROR_WORDS.isdisjoint(words) else None
    return _entry_text(None if unit is None else unit.text, str(result.order), words, error)


_WORDS = {word: word.value for word in Result}  # (an Enum's .value is a slow Python property)
ERROR_WORDS = frozenset({"void", "invalid", "reorder"})  # the words whose reason the answer gives


def _no_units(m: Map) -> dict[str, Unit]:
    return {}


# The units of each map met so far, by their text as the map writes them (`A PAR`, `F SPA/NC`): most
# requests write their units so, and a unit once read and checked need not be again.
units_written = per_map(_no_units)


def _captured(m: Map, resolution: Resolution) -> dict[str, frozenset[str]]:
    """Centre ownership once the units standing on supply centres take them."""
    owner = {c: p for p, cs in resolution.centers.items() for c in cs}
    for power, units in resolution.units.items():
        for unit in units:
            if unit.province in m.supply_centers:
                owner[unit.province] = power
    centers: dict[str, set[str]] = {}
    for center, power in owner.items():
        centers.setdefault(power, set()).add(center)
    return {p: frozenset(cs) for p, cs in centers.items()}


# --- the answer as JSON text ----------------------------------------------------------------------
# `json.dumps(answer, indent=1)` goes through the json module's pure-Python encoder (its fast one takes
# no indent), value by value; these write the same text several times sooner, knowing its shape. An
# answer is written at the top level; in an array, each of its lines goes one space in.

def _results_text(results: dict[str, list[str]]) -> str:
    return _block("{", [f"{_json_string(power)}: " + _block("[", entries, "]", "  ")
                        for power, entries in results.items()], "}", " ")


def _unit_texts(resolution: Resolution) -> dict[str, list[str]]:
    return {p: sorted([u.text for u in us]) for p, us in sorted(resolution.units.items())}


def _lists_text(lists: dict[str, list[str]], indent: str) -> str:
    inner = indent + " "
    return _block("{", [f"{_json_string(key)}: {_strings(items, inner)}" for key, items in lists.items()],
                  "}", indent)


def _dislodged_text(dislodged: dict[str, dict[str, list[str]]]) -> str:
    return _block("{", [f"{_json_string(power)}: {_lists_text(units, '  ')}"
                        for power, units in dislodged.items()], "}", " ")


def _entry_text(unit: str | None, order: str, words: Sequence[str], error: str | None) -> str:
    """A power's result entry, as the answer lists it: its unit (None: the order has none), the
    order, its result words, and the error of a void or invalid order."""
    text = (f'{{\n    "unit": {"null" if unit is None else _json_string(unit)},\n'
            f'    "order": {_json_string(order)},\n'
            f'    "result": {_strings(words, "    ") if words else "[]"}')
    if error is not None:
        text += f',\n    "error": {_json_string(error)}'
    return text + "\n   }"


def _strings(items: Sequence[str], indent: str) -> str:
    return _block("[", list(map(_json_string, items)), "]", indent)


def _block(opening: str, items: list[str], closing: str, indent: str) -> str:
    """A JSON array or object at `indent` from its items' text, one a line, as json.dumps indents."""
    if not items:
        return opening + closing
    inner = "\n " + indent
    return f"{opening}{inner}{(',' + inner).join(items)}\n{indent}{closing}"


# --- small readers --------------------------------------------------------------------------------

def _load(load_map: Callable[[str], Map], name: str) -> Map:
    try:
        return load_map(name)
    except MapError as exc:
        raise RequestError(f"cannot load map {name!r}: {exc}") from None
    except (LookupError, OSError) as exc:
        raise RequestError(f"unknown map {name!r}: {exc}") from None


def _text(request: dict, key: str) -> str:
    value = request.get(key)
    if not isinstance(value, str) or not value.strip():
        raise RequestError(f'"{key}" must be given as a string')
    return value


def _words(value: Any, what: str, power: str = "") -> list[str]:
    """The value, a list of strings (`what` of the power, if given)."""
    if not isinstance(value, list) or not all(map(isinstance, value, repeat(str))):
        raise RequestError(f"{what} of {power} must be a list of strings" if power
                           else f"{what} must be a list of strings")
    return value


def _power_map(request: dict, key: str, m: Map, required: bool = True) -> dict[str, list]:
    value = request.get(key)
    if value is None and not required:
        return {}
    if not isinstance(value, dict):
        raise RequestError(f'"{key}" must be an object: power -> list')
    found = {}
    for power, items in value.items():
        name = power.upper()
        if name not in m.powers:
            raise RequestError(f"{key}: no power {power!r} on the {m.name} map "
                               f"({', '.join(sorted(m.powers))})")
        found[name] = items
    return found


__all__ = ["RequestError", "adjudicate_request", "adjudicate_text"]
