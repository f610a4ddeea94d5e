"""Helpers for the order tests: phases, units and positions written as text, and a tiny map."""
from __future__ import annotations

from judge.adjudicator.model import Position
from judge.types import ADJUSTMENTS, MOVEMENT, RETREATS, Phase, Unit, UnitType

SPRING = Phase("SPRING", 1901, MOVEMENT)
RETREAT = Phase("SPRING", 1901, RETREATS)
WINTER = Phase("WINTER", 1901, ADJUSTMENTS)

# Nine spaces. "TY" is an ambiguous alias (Tyrolia or Tyrrhenian Sea); "North Water" is a two-word
# alias; only Xland may cross between Gamma and Delta; a fleet crosses between Gamma and North Water
# only for a power owning Home; the Strait Sea supports nothing across its `~` crossings.
TINY = """\
Alpha = alp
Beta = bet
Gamma = gam
Delta = del
Tyrolia = tyl ty?
Tyrrhenian Sea = tys ty?
North Water = nwa north+water
Strait Sea = sts
Home = hom
LAND  ALP ABUTS BET GAM TYL HOM
COAST BET ABUTS ALP GAM TYS NWA
COAST GAM ABUTS ALP BET X:DEL NWA(HOM) STS
COAST DEL ABUTS X:GAM NWA STS
LAND  TYL ABUTS ALP X:HOM
LAND  HOM ABUTS ALP X:TYL
WATER TYS ABUTS BET NWA
WATER NWA ABUTS BET GAM(HOM) DEL TYS
WATER STS ABUTS ~GAM ~DEL
XLAND (XISH:X) ALP HOM
A ALP
YLAND (YISH:Y) BET GAM
F BET
UNOWNED DEL
"""


def unit(text: str) -> Unit:
    """`A PAR` -> Unit(ARMY, "PAR")."""
    kind, location = text.split()
    return Unit(UnitType(kind), location)


def units(**powers: str) -> dict[str, tuple[Unit, ...]]:
    """units(FRANCE="A PAR, F BRE") -> {"FRANCE": (A PAR, F BRE)}."""
    return {power: tuple(unit(u) for u in text.split(",") if u.strip()) for power, text in powers.items()}


def position(phase: Phase, on_board: dict[str, tuple[Unit, ...]], centers: dict[str, str] | None = None,
             dislodged: dict[str, dict[str, str]] | None = None, homes: dict[str, str] | None = None) -> Position:
    """A Position; centres and homes as {power: "PAR BRE"}, dislodged as {power: {"F TRI": "ALB VEN"}}."""
    return Position(
        phase, on_board,
        {p: frozenset(c.split()) for p, c in (centers or {}).items()},
        {p: {unit(u): tuple(r.split()) for u, r in d.items()} for p, d in (dislodged or {}).items()},
        None if homes is None else {p: frozenset(h.split()) for p, h in homes.items()},
    )
