"""The vocabulary every part of the judge shares: unit types, units, phases."""
from __future__ import annotations

import re
from dataclasses import MISSING, dataclass, field, fields
from enum import Enum

MASTER = "MASTER"  # the Master's seat, as press, mails and the status file name it
JUDGEKEEPER = "JUDGEKEEPER"  # the judgekeeper signed on to a game, as its Master
OBSERVER, MONITOR = "OBSERVER", "MONITOR"  # the kinds of seat that watch a game without playing it
MASTER_WORDS = frozenset({"M", "MASTER", "GM"})  # what names the Master in a sign-on or a seat
KEEPER_WORDS = frozenset({"JK", "JUDGEKEEPER"})  # what names the judgekeeper


def filled_directly(cls: type) -> type:
    """Give a frozen slots dataclass an `__init__` that fills its slots through their descriptors.

    The dataclass's own goes through `object.__setattr__` field by field (the class forbids plain
    assignment), at twice the cost; a phase makes orders and units by the hundred. Same parameters,
    same defaults, and `__post_init__` still called; the instances stay frozen."""
    given = [f for f in fields(cls) if f.init]
    names: dict = {f"_set_{f.name}": cls.__dict__[f.name].__set__ for f in given}
    names.update({f"_default_{f.name}": f.default for f in given if f.default is not MISSING})
    params = ", ".join(f.name if f.default is MISSING else f"{f.name}=_default_{f.name}" for f in given)
    lines = [f"    _set_{f.name}(self, {f.name})" for f in given]
    if hasattr(cls, "__post_init__"):
        lines.append("    self.__post_init__()")
    made: dict = {}
    exec(f"def __init__(self, {params}):\n" + "\n".join(lines or ["    pass"]), names, made)
    made["__init__"].__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = made["__init__"]  # type: ignore[misc]
    return cls


class UnitType(str, Enum):
    ARMY = "A"
    FLEET = "F"


@filled_directly
@dataclass(frozen=True, order=True, slots=True)
class Unit:
    """A unit on a location: `A PAR`, `F SPA/NC`; `province` is the location without its coast."""

    type: UnitType
    location: str
    # Worked out once: the adjudicator asks for the province hundreds of times a phase, and the
    # results write each unit's text (`A PAR`) several times.
    province: str = field(init=False, compare=False, repr=False)
    text: str = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        _SET_PROVINCE(self, self.location.split("/", 1)[0])  # (`province_of`, without a call)
        _SET_TEXT(self, f"{_LETTERS[self.type]} {self.location}")  # (an Enum's .value is slow)

    def __str__(self) -> str:
        return self.text


_LETTERS = {kind: kind.value for kind in UnitType}
_SET_PROVINCE = Unit.__dict__["province"].__set__  # (a frozen unit's fields, set as it is made)
_SET_TEXT = Unit.__dict__["text"].__set__

# The longest game name. DPjudge sets none; this one keeps every file named after a game (its
# journal and that file's temporary copy, `.NAME.json.PID.THREAD.tmp`) within the 255 bytes a
# file system allows a file's name.
GAME_NAME_LONGEST = 200
# A game's name, as DPjudge allows it (lower-case letters, digits, _ and -), a folder name and a
# word of mail commands alike; never starting with a dash, which a command line would take for an
# option.
GAME_NAME = re.compile(rf"[a-z0-9_][a-z0-9_-]{{0,{GAME_NAME_LONGEST - 1}}}")


def province_of(location: str) -> str:
    """`SPA/NC` -> `SPA`; a location without a coast is its own province."""
    return location.split("/", 1)[0]


@filled_directly
@dataclass(frozen=True, order=True, slots=True)
class Phase:
    """A game phase such as SPRING 1901 MOVEMENT; `abbrev` is S1901M."""

    season: str
    year: int
    type: str

    def __str__(self) -> str:
        return f"{self.season} {self.year} {self.type}"

    @property
    def abbrev(self) -> str:
        return f"{self.season[0]}{self.year}{self.type[0]}"

    @property
    def mapper(self) -> str:
        """The phase as `::` lines write it: a winter's adjustments are the fall's (F1901B), as
        David Norman's Mapper and jDip read them."""
        if self.type == ADJUSTMENTS and self.season == "WINTER":
            return f"F{self.year}B"
        return self.abbrev


MOVEMENT, RETREATS, ADJUSTMENTS = "MOVEMENT", "RETREATS", "ADJUSTMENTS"
