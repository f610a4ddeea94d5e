"""Which powers are neighbours, for TOUCH_PRESS and REMOTE_PRESS (DPjudge's rule page):

- two powers touch when a unit of one could support a unit of the other to hold (it could move
  into that unit's province itself);
- a power is remote from another when it owns centres, does not touch it, and no unit of either
  could move into a centre of the other.

In a BLIND game DPjudge also asks that each sees the other's unit of a touching pair: `seen` is
then reader -> power -> the units that reader sees now (`visibility.units_seen`), and powers whose
units are next to each other but unseen do not touch (and so may be remote).
"""
from __future__ import annotations

from collections.abc import Mapping

from judge.game.positions import owned_centers
from judge.maps.model import Map
from judge.orders.reach import crossings
from judge.status.model import PowerStatus
from judge.types import Unit

Seen = Mapping[str, Mapping[str, tuple[Unit, ...]]]


def touching(m: Map, one: PowerStatus, other: PowerStatus, seen: Seen | None = None) -> bool:
    return any((crossings(m, a, b.province) or crossings(m, b, a.province))
               and (seen is None or (_sees(seen, other.name, one.name, a)
                                     and _sees(seen, one.name, other.name, b)))
               for a in one.units for b in other.units)


def remote(m: Map, one: PowerStatus, other: PowerStatus, seen: Seen | None = None) -> bool:
    if not owned_centers(other) or touching(m, one, other, seen):
        return False
    return not (_reaches(m, one, other) or _reaches(m, other, one))


def _sees(seen: Seen, reader: str, owner: str, unit: Unit) -> bool:
    return unit in seen.get(reader, {}).get(owner, ())


def _reaches(m: Map, mover: PowerStatus, owner: PowerStatus) -> bool:
    """Whether a unit of `mover` could move straight into a centre `owner` owns."""
    return any(crossings(m, unit, centre) for unit in mover.units for centre in owned_centers(owner))
