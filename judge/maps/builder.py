"""Applying map directives, one line at a time, to a map under construction.

`MapBuilder` is the only mutable thing in the map engine: it lives for one parse and yields an
immutable `Map`. Each directive of the map syntax has one method here, found by name in `DIRECTIVES`.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from judge.errors import Problem
from judge.maps.model import Abut, FlowStep, League, SourceLine, Terrain
from judge.maps.tokens import (check_abbrev, check_name, check_power_name, is_place_line, own_word_display,
                               parse_abut, parse_center, parse_owns, power_display, power_name)
from judge.types import Phase, Unit, UnitType, province_of

TERRAINS = {t.value for t in Terrain} | {"AMEND"}


@dataclass
class PlaceDraft:
    name: str
    aliases: list[tuple[str, bool]]  # (ALIAS, ambiguous)
    where: SourceLine


@dataclass
class TerrainDraft:
    terrain: Terrain
    fleet_ok: bool
    abuts: list[Abut]
    where: SourceLine
    origins: dict[str, SourceLine] = field(default_factory=dict)  # dest -> the line that added it

    def origin(self, dest: str) -> SourceLine:
        return self.origins.get(dest, self.where)


@dataclass
class PowerDraft:
    name: str  # as DPjudge keeps it (`power_name`)
    display: str  # as results show it, from the name as written (`power_display`)
    adjective: str
    abbrev: str
    where: SourceLine
    homes: list[str] = field(default_factory=list)
    centers: list[str] | None = None  # None until OWNS/CENTERS: then the homes are owned
    units: list[Unit] = field(default_factory=list)
    claims: int = 0  # each `&SC`: one owned non-home centre may become a home
    factories: list[str] = field(default_factory=list)
    partisans: list[str] = field(default_factory=list)
    alt_homes: dict[str, tuple[str, ...]] = field(default_factory=dict)
    hidden: list[str] = field(default_factory=list)
    build_and_own: int = 0  # each OWNS `SC!`: one build on a vacant home it does not own, taking it
    build_unowned: int = 0  # each OWNS `SC?`: the same, without taking ownership
    inhabits_started: bool = False
    reserves: int = 0
    militia: int = 0
    league: League | None = None
    dummy: bool = False
    control: list[str] = field(default_factory=list)
    flag: str | None = None

    def center_lists(self) -> list[list[str]]:
        lists = [self.homes, self.factories, self.partisans, self.hidden]
        return lists + ([self.centers] if self.centers is not None else [])


def _add(items: list[str], item: str) -> None:
    if item not in items:
        items.append(item)


def _discard(items: list[str], item: str) -> None:
    if item in items:
        items.remove(item)


class MapBuilder:
    def __init__(self) -> None:
        self.places: dict[str, PlaceDraft] = {}
        self.terrain: dict[str, TerrainDraft] = {}
        self.powers: dict[str, PowerDraft] = {}
        self.unowned: list[str] = []
        self.current: PowerDraft | None = None
        self.victory: tuple[int, ...] = ()
        self.flow: list[FlowStep] = []
        self.begin = Phase("SPRING", 1901, "MOVEMENT")
        self.rules: list[tuple[str, bool]] = []
        self.flags: tuple[str, ...] | None = None
        self.textonly = False
        self.newhomes: tuple[int, ...] = ()
        self.rotate: tuple[str, ...] | None = None
        self.notify: list[str] = []
        self.where: dict[str, SourceLine] = {}  # directive or unowned centre -> the line that set it
        self.problems: list[Problem] = []

    # --- driving ----------------------------------------------------------------------------------

    def apply(self, line: SourceLine) -> None:
        words = line.text.split()
        head = words[0].upper()
        self.where[head] = line
        try:
            if is_place_line(line.text, KEYWORDS):
                self.place(line)
            elif head in TERRAINS:
                self.terrain_line(line, words)
            elif head in DIRECTIVES:
                DIRECTIVES[head](self, line, words[1:])
            elif head in ("A", "F") and len(words) == 2:
                self.unit(line, words)
            else:
                self.power_line(line, words)
        except ValueError as exc:
            self.problem(line, str(exc))

    def problem(self, line: SourceLine, message: str) -> None:
        self.problems.append(Problem(line.file, line.line, message))

    def need_power(self, directive: str) -> PowerDraft:
        if self.current is None:
            raise ValueError(f"{directive} must follow a power line (no current power)")
        return self.current

    # --- geography --------------------------------------------------------------------------------

    def place(self, line: SourceLine) -> None:
        left, _, right = line.text.partition("=")
        words = right.split()
        if not words:
            raise ValueError("a place line needs an abbreviation after '='")
        old = None
        if "->" in left:
            old_text, _, left = left.partition("->")
            old = check_abbrev(old_text.strip())
        name = check_name(" ".join(left.split()), "place name")
        if not name:
            raise ValueError("a place line needs a name before '='")
        abbrev = check_abbrev(words[0])
        aliases = [(name.upper(), False), (abbrev, False)]
        for word in words[1:]:
            ambiguous = word.endswith("?")
            if ambiguous and "+" in word:
                raise ValueError(f"ambiguous alias {word!r} may not contain '+'")
            text = word.rstrip("?").upper().replace("+", " ")
            if not text:
                raise ValueError(f"empty alias {word!r}")
            aliases.append((text, ambiguous))
        if old is not None:
            if old not in self.places:
                raise ValueError(f"cannot rename {old}: no such place")
            if abbrev != old and abbrev in self.places:
                raise ValueError(f"cannot rename {old} to {abbrev}: {abbrev} already exists")
            self.rename_place(old, abbrev)
        self.places[abbrev] = PlaceDraft(name, aliases, line)

    def rename_place(self, old: str, new: str) -> None:
        self.places[new] = self.places.pop(old)
        if old in self.terrain:
            self.terrain[new] = self.terrain.pop(old)
        for draft in self.terrain.values():
            draft.abuts = [replace(a, dest=new) if a.dest == old else a for a in draft.abuts]
        self.map_centers(lambda c: new if c == old else c)
        for power in self.powers.values():
            power.units = [Unit(u.type, new) if u.location == old else u for u in power.units]

    def map_centers(self, change) -> None:
        """Apply change(centre) -> centre | None to every centre list of the map."""
        def remap(items: list[str]) -> list[str]:
            return [c for c in (change(x) for x in items) if c is not None]
        self.unowned = remap(self.unowned)
        for power in self.powers.values():
            for items in power.center_lists():
                items[:] = remap(items)
            power.alt_homes = {new: homes for c, homes in power.alt_homes.items()
                               if (new := change(c)) is not None}

    def terrain_line(self, line: SourceLine, words: list[str]) -> None:
        kind = words[0].upper()
        if len(words) < 2:
            raise ValueError(f"{kind} needs an abbreviation")
        abbrev = check_abbrev(words[1])
        fleet_ok = not words[1].islower()
        if len(words) > 2 and words[2].upper() != "ABUTS":
            raise ValueError(f"expected ABUTS after {kind} {words[1]}, got {words[2]!r}")
        entries = [parse_abut(w) for w in words[3:]]
        if kind != "AMEND":
            if any(e.remove for e in entries):
                raise ValueError("a '-' removal is only allowed on an AMEND line")
            abuts = [e.abut for e in entries]
            if len(words) == 2 and abbrev in self.terrain:  # no ABUTS: only the terrain changes
                abuts = self.terrain[abbrev].abuts
            self.terrain[abbrev] = TerrainDraft(Terrain(kind), fleet_ok, abuts, line)
            return
        draft = self.terrain.get(abbrev)
        if draft is None:
            raise ValueError(f"AMEND {abbrev}: it has no terrain line yet")
        draft.fleet_ok = fleet_ok
        for entry in entries:
            draft.origins[entry.abut.dest] = line
            kept = [a for a in draft.abuts if a.dest != entry.abut.dest]
            if entry.remove and len(kept) == len(draft.abuts):
                raise ValueError(f"AMEND {abbrev}: cannot remove {entry.abut.dest}, not adjacent")
            draft.abuts = kept if entry.remove else kept + [entry.abut]

    def drop(self, line: SourceLine, words: list[str]) -> None:
        if not words:
            raise ValueError("DROP needs at least one abbreviation")
        for word in words:
            abbrev = check_abbrev(word)
            if abbrev not in self.places and abbrev not in self.terrain:
                raise ValueError(f"cannot DROP {abbrev}: no such place")
            gone = {a for a in list(self.places) + list(self.terrain)
                    if a == abbrev or ("/" not in abbrev and province_of(a) == abbrev)}
            for name in gone:
                self.places.pop(name, None)
                self.terrain.pop(name, None)
            for draft in self.terrain.values():
                draft.abuts = [a for a in draft.abuts if a.dest not in gone]
            self.map_centers(lambda c: None if c in gone else c)  # noqa: B023 (called here, in this turn)
            for power in self.powers.values():
                power.units = [u for u in power.units if u.location not in gone]

    # --- powers -----------------------------------------------------------------------------------

    def power_line(self, line: SourceLine, words: list[str]) -> None:
        old = None
        if len(words) >= 3 and words[1] == "->":
            old, words = power_name(words[0]), words[2:]
            if old not in self.powers:
                raise ValueError(f"cannot rename power {old}: no such power")
        name = power_name(check_power_name(words[0]))
        if not name:
            raise ValueError(f"power name {words[0]!r} is no name once read (only order words)")
        rest = words[1:]
        own = None
        if rest and rest[0].startswith("("):
            group = []
            while rest:
                group.append(rest.pop(0))
                if group[-1].endswith(")"):
                    break
            else:
                raise ValueError(f"unclosed '(' after power {name}")
            own = " ".join(group)[1:-1].strip()
        if old is not None:
            power = self.rename_power(old, name, words[0])
        elif name in self.powers:
            power = self.powers[name]
        else:
            power = PowerDraft(name, power_display(words[0].upper()),
                               own_word_display(words[0].upper().lstrip("_")), "",
                               line)
            self.powers[name] = power
        if own is not None:
            word, _, abbrev = own.partition(":")
            check_name(word + abbrev, "own word")
            if word:
                power.adjective = own_word_display(word)
            if abbrev:
                power.abbrev = abbrev[:1].upper()
        if not power.abbrev:  # no letter given: the name's first, as DPjudge has it
            power.abbrev = name[0]
        self.current = power
        for word in rest:
            try:
                center = parse_center(word)
            except ValueError as exc:
                raise ValueError(f"{exc} (is {words[0]!r} a misspelt directive?)") from None
            self.power_center(power, center)

    def rename_power(self, old: str, new: str, written: str) -> PowerDraft:
        if new != old and new in self.powers:
            raise ValueError(f"cannot rename power {old} to {new}: {new} already exists")
        power = self.powers.pop(old)
        power.name = new
        power.display = power_display(written.upper())
        self.powers[new] = power
        for other in self.powers.values():
            other.control = [new if c == old else c for c in other.control]
        return power

    def power_center(self, power: PowerDraft, word) -> None:
        center, marks = word.center, word.marks
        if "-" in marks and "&" in marks:
            power.claims = max(0, power.claims - 1)
            return
        if "-" in marks:
            was_home = center in power.homes or center in power.alt_homes
            for items in (power.homes, power.factories, power.partisans, power.hidden):
                _discard(items, center)
            power.alt_homes.pop(center, None)
            if was_home:
                _add(self.unowned, center)
            return
        if "~" in marks:
            _add(power.hidden, center)
        if "&" in marks:
            power.claims += 1
        elif "+" in marks:
            _add(power.factories, center)
        elif "*" in marks:
            _add(power.partisans, center)
        elif "@" in marks:
            power.alt_homes[center] = word.instead_of
        else:
            _add(power.homes, center)

    def owns(self, line: SourceLine, words: list[str], reset: bool = False) -> None:
        power = self.need_power("OWNS")
        if reset or power.centers is None:
            power.centers = []
            power.build_and_own = power.build_unowned = 0
        for word in words:
            if word.upper() == "SC!":
                power.build_and_own += 1
            elif word.upper() == "SC?":
                power.build_unowned += 1
            else:
                _add(power.centers, parse_owns(word))

    def centers(self, line: SourceLine, words: list[str]) -> None:
        if self.current is None:  # CENTERS with no current power is UNOWNED
            self.unowned_line(line, words)
        else:
            self.owns(line, words, reset=True)

    def inhabits(self, line: SourceLine, words: list[str], reset: bool = False) -> None:
        power = self.need_power("INHABITS/HOMES")
        if reset or not power.inhabits_started:
            for items in (power.homes, power.factories, power.partisans):
                items.clear()
            power.alt_homes.clear()
            power.inhabits_started = True
        for word in words:
            self.power_center(power, parse_center(word))

    def homes(self, line: SourceLine, words: list[str]) -> None:
        self.inhabits(line, words, reset=True)

    def unowned_line(self, line: SourceLine, words: list[str]) -> None:
        self.current = None
        for word in words:
            center = parse_center(word)
            if center.marks - {"-"}:
                raise ValueError(f"UNOWNED takes plain centres or -removals, not {word!r}")
            if "-" in center.marks:
                _discard(self.unowned, center.center)
            else:
                _add(self.unowned, center.center)
                self.where[center.center] = line

    def unit(self, line: SourceLine, words: list[str]) -> None:
        power = self.need_power("a unit line")
        location = check_abbrev(words[1])
        unit = Unit(UnitType(words[0].upper()), location)
        for other in self.powers.values():
            other.units = [u for u in other.units if u.province != unit.province]
        power.units.append(unit)

    def units(self, line: SourceLine, words: list[str]) -> None:
        self.need_power("UNITS").units.clear()

    def count_line(self, words: list[str], directive: str) -> int:
        if len(words) > 1 or (words and not words[0].isdigit()):
            raise ValueError(f"{directive} takes one optional count")
        return int(words[0]) if words else 1

    def reserves(self, line: SourceLine, words: list[str]) -> None:
        self.need_power("RESERVES").reserves = self.count_line(words, "RESERVES")

    def militia(self, line: SourceLine, words: list[str]) -> None:
        self.need_power("MILITIA").militia = self.count_line(words, "MILITIA")

    def league(self, line: SourceLine, words: list[str]) -> None:
        power = self.need_power("LEAGUE")
        if not words:
            raise ValueError("LEAGUE needs a league name")
        kind = words[1].upper() if len(words) > 1 else ""
        if kind not in ("", "STRICT", "BENIGN") or (kind == "STRICT" and len(words) > 2):
            raise ValueError("LEAGUE name takes nothing more, STRICT, or BENIGN [league...]")
        name = words[0].upper()
        benign = (name, *(w.upper() for w in words[2:])) if kind == "BENIGN" else ()
        power.league = League(name, kind, benign)

    def select_powers(self, words: list[str], directive: str) -> list[PowerDraft]:
        """The powers `[ALL [EXCEPT]] name...` means; none named means the current power. Names may
        be separated by commas too, as the `diplomacy` package's map files write them."""
        upper = [power_name(name) for w in words for name in w.split(",") if name]
        if not upper:
            return [self.need_power(directive)]
        if upper[0] == "ALL":
            if len(upper) == 1:
                return list(self.powers.values())
            if upper[1] != "EXCEPT" or len(upper) == 2:
                raise ValueError(f"{directive} ALL EXCEPT needs power names")
            excluded = set(self.known_powers(upper[2:]))
            return [p for n, p in self.powers.items() if n not in excluded]
        return [self.powers[n] for n in self.known_powers(upper)]

    def known_powers(self, names: list[str]) -> list[str]:
        unknown = [n for n in names if n not in self.powers]
        if unknown:
            raise ValueError(f"no such power: {', '.join(unknown)}")
        return names

    def dummy(self, line: SourceLine, words: list[str]) -> None:
        for power in self.select_powers(words, "DUMMY"):
            power.dummy = True

    def unplayed(self, line: SourceLine, words: list[str]) -> None:
        for power in self.select_powers(words, "UNPLAYED"):
            for center in power.homes + (power.centers or []) + list(power.alt_homes):
                _add(self.unowned, center)
            del self.powers[power.name]
            if self.current is power:
                self.current = None

    def control(self, line: SourceLine, words: list[str]) -> None:
        power = self.need_power("CONTROL")
        if not words:
            raise ValueError("CONTROL needs at least one power name")
        power.control = [power_name(w) for w in words]

    def flag(self, line: SourceLine, words: list[str]) -> None:
        if len(words) != 1:
            raise ValueError("FLAG takes one power name")
        self.need_power("FLAG").flag = words[0].upper()

    # --- the calendar and behaviour ---------------------------------------------------------------

    def victory_line(self, line: SourceLine, words: list[str]) -> None:
        if not words or not all(w.isdigit() and int(w) > 0 for w in words):
            raise ValueError("VICTORY takes one or more positive centre counts")
        self.victory = tuple(int(w) for w in words)

    def flow_line(self, line: SourceLine, words: list[str]) -> None:
        if not words:
            self.flow = []
            return
        for word in words:
            self.flow.append(parse_flow_word(word))

    def begin_line(self, line: SourceLine, words: list[str]) -> None:
        if len(words) != 3 or not words[1].isdigit():
            raise ValueError("BEGIN takes: season year phaseType (e.g. BEGIN SPRING 1901 MOVEMENT)")
        self.begin = Phase(words[0].upper(), int(words[1]), words[2].upper())

    def rule(self, line: SourceLine, words: list[str]) -> None:
        if not words:
            raise ValueError("RULE needs at least one rule name")
        for word in words:
            name = word.lstrip("!").upper()
            if not name.replace("_", "").isalnum():
                raise ValueError(f"bad rule name {word!r}")
            self.rules.append((name, not word.startswith("!")))

    def newhomes_line(self, line: SourceLine, words: list[str]) -> None:
        if not words or not all(w.isdigit() for w in words):
            raise ValueError("NEWHOMES takes one or more years")
        self.newhomes = tuple(sorted(set(self.newhomes) | {int(w) for w in words}))

    def rotate_line(self, line: SourceLine, words: list[str]) -> None:
        upper = tuple(w.upper() for w in words)
        form = upper[0] if upper else "CONTROL"
        if form not in ("CONTROL", "AFTER", "BEFORE", "FOR") or (form == "CONTROL" and len(upper) > 1) \
                or (form in ("BEFORE", "FOR") and len(upper) < 2):
            raise ValueError("ROTATE takes [CONTROL], AFTER [phaseType...], BEFORE phaseType... "
                             "or FOR phaseType...")
        self.rotate = upper

    def flags_line(self, line: SourceLine, words: list[str]) -> None:
        self.flags = tuple(w.lower() for w in words)

    def notify_line(self, line: SourceLine, words: list[str]) -> None:
        if not words or not all("@" in w for w in words):
            raise ValueError("NOTIFY takes the e-mail addresses to tell of each new game on the map")
        self.notify += [w for w in words if w not in self.notify]

    def textonly_line(self, line: SourceLine, words: list[str]) -> None:
        if words:
            raise ValueError("TEXTONLY takes nothing")
        self.textonly = True


def parse_flow_word(word: str) -> FlowStep:
    season, colon, rest = word.upper().partition(":")
    if season == "NEWYEAR":
        if colon and not rest.lstrip("-").isdigit():
            raise ValueError(f"NEWYEAR takes a year count, as NEWYEAR:5, not {word!r}")
        return FlowStep("NEWYEAR", newyear=int(rest) if colon else 1)
    if season == "IFYEARDIV":
        divisor, eq, modulus = rest.partition("=")
        if not divisor.isdigit() or int(divisor) == 0 or (eq and not modulus.isdigit()):
            raise ValueError(f"IFYEARDIV takes a divisor and an optional =modulus, as IFYEARDIV:2=1, "
                             f"not {word!r}")
        return FlowStep("IFYEARDIV", yeardiv=(int(divisor), int(modulus) if eq else 0))
    phases = tuple(p for p in rest.split(","))
    if not colon or not season or not all(p.isalpha() for p in phases):
        raise ValueError(f"bad FLOW word {word!r}: write season:phase[,phase...]")
    return FlowStep(season, phases)


DIRECTIVES = {
    "DROP": MapBuilder.drop,
    "UNOWNED": MapBuilder.unowned_line,
    "NEUTRAL": MapBuilder.unowned_line,
    "CENTERS": MapBuilder.centers,
    "OWNS": MapBuilder.owns,
    "INHABITS": MapBuilder.inhabits,
    "HOME": MapBuilder.homes,
    "HOMES": MapBuilder.homes,
    "UNITS": MapBuilder.units,
    "RESERVES": MapBuilder.reserves,
    "MILITIA": MapBuilder.militia,
    "LEAGUE": MapBuilder.league,
    "DUMMY": MapBuilder.dummy,
    "DUMMIES": MapBuilder.dummy,
    "UNPLAYED": MapBuilder.unplayed,
    "CONTROL": MapBuilder.control,
    "FLAG": MapBuilder.flag,
    "FLAGS": MapBuilder.flags_line,
    "VICTORY": MapBuilder.victory_line,
    "FLOW": MapBuilder.flow_line,
    "BEGIN": MapBuilder.begin_line,
    "RULE": MapBuilder.rule,
    "RULES": MapBuilder.rule,
    "NEWHOMES": MapBuilder.newhomes_line,
    "ROTATE": MapBuilder.rotate_line,
    "TEXTONLY": MapBuilder.textonly_line,
    "NOTIFY": MapBuilder.notify_line,
}

KEYWORDS = frozenset(DIRECTIVES) | TERRAINS | {"USE", "USES", "MAP", "IN", "FROM"}
