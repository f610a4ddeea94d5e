"""Orders as typed values: what the order parser produces and the adjudicator reads.

Nothing past the parser handles order text: locations are map abbreviations (`SPA/NC`), units are
`Unit` values, and every order knows the power that gave it.
"""
from __future__ import annotations

from dataclasses import dataclass

from judge.types import Unit, UnitType, filled_directly


@filled_directly
@dataclass(frozen=True, slots=True)
class Hold:
    power: str
    unit: Unit

    def __str__(self) -> str:
        return f"{self.unit.text} H"


@filled_directly
@dataclass(frozen=True, slots=True)
class Move:
    """`A LON - BEL`; `path` is a convoy route written out (`A BUL-AEG-ION-TUN` -> ("AEG", "ION"));
    `via_convoy` is the DATC's `VIA CONVOY`. With neither, the adjudicator finds any convoy route."""

    power: str
    unit: Unit
    dest: str
    via_convoy: bool = False
    path: tuple[str, ...] = ()

    def __str__(self) -> str:
        if self.path:
            return f"{self.unit.text} - {' - '.join(self.path)} - {self.dest}"
        return f"{self.unit.text} - {self.dest}" + (" VIA CONVOY" if self.via_convoy else "")


@filled_directly
@dataclass(frozen=True, slots=True)
class Support:
    """`F ION S A APU - TUN` (dest set) or `A TYR S A VEN` (dest None: support to hold).
    `target` is the supported unit as the order names it; its location may be a bare province
    (`A TYR S F SPA`) when the coast is not given; `dest` is a province or location."""

    power: str
    unit: Unit
    target: Unit
    dest: str | None = None

    def __str__(self) -> str:
        return f"{self.unit.text} S {self.target.text}" + (f" - {self.dest}" if self.dest else "")


@filled_directly
@dataclass(frozen=True, slots=True)
class Convoy:
    """`F NTH C A LON - BEL`; under PORTAGE_CONVOY an army carries a fleet over land: `A BUR C F MAR - BEL`."""

    power: str
    unit: Unit
    army: str  # province of the convoyed army (of the carried fleet, under PORTAGE_CONVOY)
    dest: str  # province
    carried: UnitType = UnitType.ARMY

    def __str__(self) -> str:
        return f"{self.unit.text} C {self.carried.value} {self.army} - {self.dest}"


@filled_directly
@dataclass(frozen=True, slots=True)
class Retreat:
    power: str
    unit: Unit
    dest: str

    def __str__(self) -> str:
        return f"{self.unit.text} R {self.dest}"


@filled_directly
@dataclass(frozen=True, slots=True)
class Disband:
    """A retreat-phase disband, or an adjustment-phase removal (`REMOVE A PAR`)."""

    power: str
    unit: Unit

    def __str__(self) -> str:
        return f"{self.unit.text} D"


@filled_directly
@dataclass(frozen=True, slots=True)
class Build:
    power: str
    unit: Unit

    def __str__(self) -> str:
        return f"BUILD {self.unit.text}"


@filled_directly
@dataclass(frozen=True, slots=True)
class Waive:
    power: str

    def __str__(self) -> str:
        return "WAIVE"


@filled_directly
@dataclass(frozen=True, slots=True)
class Keep:
    """`KEEP A PAR` / `HOLD A PAR` in an adjustment phase: the unit is not to be removed."""

    power: str
    unit: Unit

    def __str__(self) -> str:
        return f"KEEP {self.unit.text}"


@filled_directly
@dataclass(frozen=True, slots=True)
class Proxy:
    """`A PAR PROXY GERMANY` (PROXY_OK): the owner lets another power order its unit this phase."""

    power: str
    unit: Unit
    to: str

    def __str__(self) -> str:
        return f"{self.unit.text} PROXY {self.to}"


Order = Hold | Move | Support | Convoy | Retreat | Disband | Build | Waive | Keep | Proxy
UNIT_ORDERS = (Hold, Move, Support, Convoy, Retreat, Disband, Keep)


__all__ = ["Build", "Convoy", "Disband", "Hold", "Keep", "Move", "Order", "Proxy", "Retreat",
           "Support", "UNIT_ORDERS", "Unit", "UnitType", "Waive"]
