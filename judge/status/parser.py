"""Status text -> `GameStatus`, every problem reported at once.

The file is made of blocks separated by blank lines: first the game block, then one block per power
or player, each opened by its name (`POWER FRANCE`, `FRANCE`, `OBSERVER name`, `MONITOR name`...).
DESC, NAME and MORPH alone on a line open a stanza that runs to `END DESC` (`END NAME`, `END MORPH`);
blank lines inside it are ignored. In a power's block, an ORDERS line is followed by that power's
movement orders, one a line, up to the end of the block or the next list (Crystal Ball's SOONER
and LATER lists are read alike). Parsing does no I/O and needs no map: the
game logic checks places and powers against the map.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from judge.errors import Problem, StatusError
from judge.rule_names import Rule
from judge.status import values as v
from judge.status.keywords import (
    ORDER_LISTS,
    PAYOLA_GAME_TAIL,
    STANZA_ENDS,
    UNIT_WORDS,
    Combine,
    Directive,
    game_directive,
    is_keyword,
    is_offer_line,
    power_directive,
)
from judge.status.model import (
    Dislodged,
    GameStage,
    GameStatus,
    Layout,
    PhaseMode,
    PowerStatus,
)


def parse_status(text: str, file: str = "status") -> GameStatus:
    """Parse a whole status file; raise StatusError listing every problem with its line."""
    reader = _Reader(file)
    for number, raw in enumerate(text.splitlines(), 1):
        reader.feed(_Line(number, raw.split()))
    reader.finish(need_phase=True)
    return reader.status()


UTF8, LATIN1 = "utf-8", "latin-1"


def decode_status(data: bytes) -> tuple[str, str]:
    """A status file's bytes as text, and the encoding they were read in: UTF-8 when they are,
    else latin-1 (DPjudge's, in which every byte is a letter, so reading never fails)."""
    try:
        return data.decode(UTF8), UTF8
    except UnicodeDecodeError:
        return data.decode(LATIN1), LATIN1


def encode_status(text: str, encoding: str) -> bytes:
    """The text in the encoding the file was read in when every character fits it, else UTF-8."""
    try:
        return text.encode(encoding)
    except UnicodeEncodeError:
        return text.encode(UTF8)


def parse_game_lines(lines: Iterable[str], file: str) -> GameStatus:
    """Game-block lines alone (a map's DIRECTIVES stanza): no PHASE needed, no power blocks."""
    reader = _Reader(file)
    for number, raw in enumerate(lines, 1):
        if raw.split():
            reader.feed(_Line(number, raw.split()))
    reader.finish(need_phase=False)
    return reader.status()


class _Line:
    """A line's words; its keyword (the first word, upper case) is asked for several times a line,
    so it is worked out once."""

    __slots__ = ("number", "words", "keyword")

    def __init__(self, number: int, words: list[str]):
        self.number = number
        self.words = words
        self.keyword = words[0].upper() if words else ""

    @property
    def args(self) -> list[str]:
        return self.words[1:]


@dataclass(frozen=True)
class _Stanza:
    """An open DESC, NAME or MORPH stanza."""

    directive: Directive
    keyword: str  # its canonical keyword, for `END keyword`
    opening: _Line


@dataclass
class _Draft:
    """A block while it is read: values by field, and the line that first set each field."""

    line: int
    name: str = ""
    kind: str | None = None
    skip: bool = False  # a bad power heading: its lines are not read
    values: dict[str, Any] = field(default_factory=dict)
    seen: dict[str, int] = field(default_factory=dict)


class _Reader:
    def __init__(self, file: str):
        self.file = file
        self.problems: list[Problem] = []
        self.game = _Draft(0)
        self.started = False  # the game block's first line has been read
        self.powers: list[_Draft] = []
        self.block: _Draft | None = None
        self.in_orders: str | None = None  # the field of the list the order lines fill
        self.stanza: _Stanza | None = None
        self.bare_heading = False  # a started game's power opened by its name alone (DPjudge's way)
        self.game_tail = False  # reading Payola's TAX and CAP lines past the game block (DPjudge's way)
        self.owned: dict[str, tuple[str, int]] = {}
        self.occupied: dict[tuple[bool, str], tuple[str, int]] = {}

    def problem(self, line: int, message: str) -> None:
        self.problems.append(Problem(self.file, line, message))

    def feed(self, line: _Line) -> None:
        if self.stanza is not None:
            self.stanza_line(self.stanza, line)
        elif not line.words:
            self.block, self.in_orders = None, None
        elif not self.started:
            self.started, self.game.line, self.block = True, line.number, self.game
            self.game_line(line)
        elif self.game_tail and line.keyword in PAYOLA_GAME_TAIL:
            self.game_line(line)
        elif self.block is None and not self.powers and line.keyword in PAYOLA_GAME_TAIL:
            self.game_tail = True  # DPjudge's Payola game: its next line names the first power
            self.game_line(line)
        elif self.block is None or self.game_tail:
            self.game_tail = False
            self.block = self.start_power(line)
        elif self.block is self.game:
            self.game_line(line)
        elif self.block.skip:
            return
        elif self.in_orders and line.keyword not in ORDER_LISTS:
            self.order_line(self.block, line)
        else:
            self.power_line(self.block, line)

    def finish(self, need_phase: bool) -> None:
        if self.stanza is not None:
            keyword = self.stanza.keyword
            self.problem(self.stanza.opening.number, f"{keyword} is never closed by END {keyword}")
        if not self.started:
            self.problem(1, "the file is empty: a status file starts with the game block")
        elif need_phase and "phase_line" not in self.game.seen:
            self.problem(self.game.line, "the game block has no PHASE line "
                                         "(such as PHASE FORMING or PHASE SPRING 1901 MOVEMENT)")

    # --- the game block ---------------------------------------------------------------------------

    def game_line(self, line: _Line) -> None:
        directive = game_directive(line.keyword)
        if directive is None:
            elsewhere = power_directive(line.keyword) or line.keyword in UNIT_WORDS
            self.unknown(line, bool(elsewhere), "a power's block (after a blank line and the power's "
                                                "name)", "game")
        elif directive.stanza and not line.args:
            keyword = next(k for k, ends in STANZA_ENDS.items() if line.keyword in ends)
            self.stanza = _Stanza(directive, keyword, line)
        else:
            self.store(self.game, directive, line)

    def stanza_line(self, stanza: _Stanza, line: _Line) -> None:
        upper = [w.upper() for w in line.words]
        if len(upper) == 2 and upper[0] == "END" and upper[1] in STANZA_ENDS[stanza.keyword]:
            self.stanza = None
        elif line.words:
            field_name = stanza.directive.field
            self.game.values.setdefault(field_name, []).append(v.text(line.words))
            self.game.seen.setdefault(field_name, line.number)

    def unknown(self, line: _Line, elsewhere: bool, where: str, block: str) -> None:
        if elsewhere:
            self.problem(line.number, f"{line.keyword} belongs in {where}")
        else:
            self.problem(line.number, f"unknown {block} directive {line.keyword!r}")

    # --- power blocks -----------------------------------------------------------------------------

    def start_power(self, line: _Line) -> _Draft:
        """`POWER name`, `name`, or `type name` (OBSERVER, MONITOR, an ALLOWed type)."""
        block = _Draft(line.number)
        words = line.words
        if len(words) == 2 and words[0].upper() == "POWER":
            block.name = words[1]
        elif len(words) in (1, 2) and not is_keyword(line.keyword):
            block.name = words[-1]
            block.kind = words[0].upper() if len(words) == 2 else None
            started = self.game.values.get("phase_line", (None, GameStage.FORMING))[1]
            self.bare_heading |= len(words) == 1 and started is not GameStage.FORMING
        else:
            block.skip = True
            self.problem(line.number, f"{' '.join(words)!r} does not start a power's block (a blank "
                                      f"line ends a block; the next line names a power or player)")
            return block
        return self.name_power(block, line)

    def name_power(self, block: _Draft, line: _Line) -> _Draft:
        try:
            block.name = v.power_name(block.name)
        except ValueError as exc:
            self.problem(line.number, str(exc))
            block.skip = True
            return block
        first = next((p for p in self.powers if p.name == block.name), None)
        if first is not None:
            self.problem(line.number, f"a second block for {block.name} (the first is on line "
                                      f"{first.line})")
            block.skip = True
        else:
            self.powers.append(block)
        return block

    def power_line(self, block: _Draft, line: _Line) -> None:
        if is_offer_line(line.words, self.rule_in_force(Rule.PAY_DUMMIES)):
            block.values.setdefault("offers", []).append(v.text(line.words))
            return
        if line.keyword in UNIT_WORDS:
            self.unit_line(block, line)
            return
        directive = power_directive(line.keyword)
        if directive is None:
            self.unknown(line, bool(game_directive(line.keyword)),
                         "the game block, at the top of the file", "power")
            return
        value = self.store(block, directive, line)
        # what follows are orders, even after a bad ORDERS
        self.in_orders = directive.field if line.keyword in ORDER_LISTS else None
        if value is None:
            return
        if line.keyword == "OWNS":
            self.check_owner(block, line, value)
        elif line.keyword in ("PASSWORD", "CONTROL") and {"password", "control"} <= block.seen.keys():
            self.problem(line.number, "a power has a PASSWORD or a CONTROL line, not both")

    def rule_in_force(self, name: str) -> bool:
        """Whether the game block read so far turns `name` on (and not off)."""
        said = [on for rule, on in self.game.values.get("rules", ()) if rule == name]
        return bool(said) and all(said)

    def unit_line(self, block: _Draft, line: _Line) -> None:
        words = line.words
        try:
            if len(words) == 2:
                self.place(block, line, v.unit(words), "units", False)
            elif len(words) >= 3 and words[2] == "-->":
                unit = v.unit(words[:2])
                retreats = tuple(v.location(w) for w in words[3:])
                self.place(block, line, Dislodged(unit, retreats), "dislodged", True)
            else:
                raise ValueError(f"{' '.join(words)!r} is neither a unit (A PAR) nor a dislodged unit "
                                 f"(A PAR --> BUR GAS); movement orders go after an ORDERS line")
        except ValueError as exc:
            self.problem(line.number, str(exc))

    def place(self, block: _Draft, line: _Line, item: Any, kind: str, dislodged: bool) -> None:
        province = (item.unit if dislodged else item).province
        where = self.occupied.setdefault((dislodged, province), (block.name, line.number))
        if where[1] != line.number:
            self.problem(line.number, f"a second {'dislodged ' * dislodged}unit in {province} "
                                      f"({where[0]} has one on line {where[1]})")
            return
        block.values.setdefault(kind, []).append(item)

    def order_line(self, block: _Draft, line: _Line) -> None:
        try:
            if len(line.words) < 3:
                raise ValueError
            v.unit(line.words[:2])
        except ValueError:
            self.problem(line.number, f"{' '.join(line.words)!r} is not an order such as A PAR - BUR "
                                      f"(the orders run from ORDERS to the end of the power's block)")
            return
        assert self.in_orders is not None
        block.values.setdefault(self.in_orders, []).append(" ".join(w.upper() for w in line.words))

    def check_owner(self, block: _Draft, line: _Line, centers: tuple[str, ...]) -> None:
        for center in centers:
            if center in v.BUILD_ANYWHERE:
                continue
            owner = self.owned.setdefault(center, (block.name, line.number))
            if owner[0] != block.name:
                self.problem(line.number, f"{center} is already owned by {owner[0]} (line {owner[1]})")

    # --- values -----------------------------------------------------------------------------------

    def store(self, block: _Draft, directive: Directive, line: _Line) -> Any:
        """Read the line's value into the block; None (and a problem) if it cannot be."""
        try:
            value = directive.read(line.args)
        except ValueError as exc:
            self.problem(line.number, f"{line.keyword}: {exc}")
            block.seen.setdefault(directive.field, line.number)  # given, if badly: not missing
            return None
        if directive.combine is Combine.SAME and block.values.get(directive.field, value) == value:
            block.values[directive.field] = value
        elif directive.combine in (Combine.ONCE, Combine.SAME):
            if directive.field in block.seen:
                self.problem(line.number, f"{line.keyword} repeats what line "
                                          f"{block.seen[directive.field]} already says")
                return None
            block.values[directive.field] = value
        elif directive.combine is Combine.APPEND:
            block.values.setdefault(directive.field, []).append(value)
        else:
            block.values.setdefault(directive.field, []).extend(value)
        block.seen.setdefault(directive.field, line.number)
        return value

    def status(self) -> GameStatus:
        if self.problems:
            raise StatusError(sorted(self.problems, key=lambda p: p.line))
        layout = Layout.DPJUDGE if self.bare_heading else Layout.JUDGE
        return _game(self.game.values, tuple(_power(p) for p in self.powers), layout)


def _frozen(values: dict[str, Any]) -> dict[str, Any]:
    return {k: tuple(x) if isinstance(x, list) else x for k, x in values.items()}


def _power(block: _Draft) -> PowerStatus:
    return PowerStatus(name=block.name, kind=block.kind, **_frozen(block.values))


def _game(values: dict[str, Any], powers: tuple[PowerStatus, ...], layout: Layout) -> GameStatus:
    fields = _frozen(values)
    mode, phase = fields.pop("phase_line", (PhaseMode.PHASE, GameStage.FORMING))
    map_name, trial = fields.pop("map", ("standard", False))
    rules = fields.pop("rules", ())
    timing = fields.pop("timing", ())
    return GameStatus(
        phase=phase, phase_mode=mode, map_name=map_name, trial=trial,
        rules=frozenset(name for name, on in rules if on),
        rule_order=tuple(dict.fromkeys(name for name, _ in rules)),
        rules_off=frozenset(name for name, on in rules if not on),
        allow=frozenset(fields.pop("allow", ())),
        timing=" ".join(timing) or None, layout=layout,
        powers=powers, **fields)
