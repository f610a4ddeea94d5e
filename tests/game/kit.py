"""Helpers for the game's-life tests: statuses built from text, orders put on file as the command
layer will, and a check that every status the judge makes survives a write and a read."""
from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta, timezone

from judge.status import parse_status, write_status
from judge.status.model import BuildOrder, DisbandOrder, Dppd, GameStatus, RemoveOrder, RetreatOrder
from judge.types import Unit, UnitType

NOW = datetime(2025, 1, 6, 12, 0, tzinfo=timezone.utc)  # a Monday
DAY = timedelta(days=1)


def forming(*lines: str, name: str = "demo", map_name: str = "standard") -> GameStatus:
    return parse_status("\n".join([f"GAME {name}", "PHASE FORMING", f"MAP {map_name}", *lines]) + "\n")


def player(n: int | str) -> Dppd:
    return Dppd("NO-ID", f"player{n}@example.org", f"Player_{n}")


def unit(text: str) -> Unit:
    kind, place = text.split()
    return Unit(UnitType(kind), place)


def orders(status: GameStatus, power: str, *lines: str) -> GameStatus:
    """A power's movement orders on file (an ORDERS line, then the orders)."""
    return status.with_power(replace(status.power(power), orders=tuple(lines)))


def everyone_orders(status: GameStatus, given: dict[str, list[str]]) -> GameStatus:
    """Orders for every power with units (an empty ORDERS line for those not in `given`)."""
    for block in status.powers:
        if block.units:
            status = orders(status, block.name, *given.get(block.name, []))
    return status


def retreat(status: GameStatus, power: str, text: str, dest: str | None) -> GameStatus:
    order = RetreatOrder(unit(text), dest) if dest else DisbandOrder(unit(text))
    block = status.power(power)
    return status.with_power(replace(block, adjustments=block.adjustments + (order,)))


def build(status: GameStatus, power: str, *texts: str) -> GameStatus:
    block = status.power(power)
    new = tuple(BuildOrder(unit(t) if t != "WAIVED" else None) for t in texts)
    return status.with_power(replace(block, adjustments=block.adjustments + new))


def remove(status: GameStatus, power: str, *texts: str) -> GameStatus:
    block = status.power(power)
    return status.with_power(replace(block, adjustments=block.adjustments +
                                     tuple(RemoveOrder(unit(t)) for t in texts)))


def round_trip(status: GameStatus) -> str:
    """The status file text, checked to read back to the same status and to be written again
    byte for byte."""
    text = write_status(status)
    again = parse_status(text)
    assert again == status
    assert write_status(again) == text
    return text


def units_of(status: GameStatus, power: str) -> list[str]:
    return [str(u) for u in status.power(power).units]
