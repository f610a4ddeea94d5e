"""The vocabulary every part of the judge shares: unit types, units, phases."""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class UnitType(str, Enum):
    ARMY = "A"
    FLEET = "F"


@dataclass(frozen=True, order=True, slots=True)
class Unit:
    """A unit on a location: `A PAR`, `F SPA/NC`; `province` is the location without its coast."""

    type: UnitType
    location: str
    # Worked out once: the adjudicator asks for it hundreds of times a phase.
    province: str = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "province", province_of(self.location))

    def __str__(self) -> str:
        return f"{_LETTERS[self.type]} {self.location}"  # (an Enum's .value is a slow Python property)


_LETTERS = {kind: kind.value for kind in UnitType}

# The longest game name. DPjudge sets none; this one keeps every file named after a game (its
# journal and that file's temporary copy, `.NAME.json.PID.THREAD.tmp`) within the 255 bytes a
# file system allows a file's name.
GAME_NAME_LONGEST = 200


def province_of(location: str) -> str:
    """`SPA/NC` -> `SPA`; a location without a coast is its own province."""
    return location.split("/", 1)[0]


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


MOVEMENT, RETREATS, ADJUSTMENTS = "MOVEMENT", "RETREATS", "ADJUSTMENTS"
