"""Helpers for the game's-life tests: statuses built from text, orders put on file as the command
layer will, and a check that every status the judge makes survives a write and a read."""
from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from judge.status import parse_status, write_status
from judge.status.model import (
    BuildOrder,
    DisbandOrder,
    Dppd,
    GameStatus,
    RemoveOrder,
    RetreatOrder,
)
from judge.timing import format_deadline
from judge.types import Unit, UnitType

NOW = datetime(2025, 1, 6, 12, 0, tzinfo=UTC)  # a Monday
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


def running(m, *lines: str, players: int | None = None):
    """A started game on map `m` (standard unless given), every seat filled."""
    from judge.game import join
    s = forming(*lines, map_name=m.name)
    from judge.game.seats import playable_powers
    for n in range(players if players is not None else len(playable_powers(s, m))):
        s, _ = join(s, m, NOW, player(n), f"pw{n}")
    return s


def with_centers(status, m, **centers: str):
    """Give powers the centres listed (space-separated); other owners lose them."""
    from judge.game.positions import centers_of, with_board
    owned = {p: set(cs) for p, cs in centers_of(status, m).items()}
    for power, text in centers.items():
        wanted = set(text.split())
        for other in owned.values():
            other -= wanted
        owned[power.upper()] = wanted | owned.get(power.upper(), set())
    return with_board(status, m, centers={p: frozenset(cs) for p, cs in owned.items()})


# A started game with a deadline, for the tests of the game's clock.
H = timedelta(hours=1)
M = timedelta(minutes=1)
D = NOW + 2 * 24 * H  # the deadline every game here is given: Wednesday 8 January 2025, 12:00 GMT


def game(standard, *lines: str, deadline: datetime | None = D):
    """A started standard game, nobody ordered, its DEADLINE set to `deadline`."""
    s = running(standard, *lines)
    return replace(s, deadline=format_deadline(deadline) if deadline else None)


def ordered(s, but: tuple[str, ...] = ()):
    """Every power ordered (DEFAULT_UNORDERED makes an empty order set complete) but those named."""
    s = everyone_orders(s, {})
    for power in but:
        s = s.with_power(replace(s.power(power), orders=None))
    return s


def kinds(events) -> list[str]:
    return [type(e).__name__ for e in events]


def in_hand(m, status: GameStatus, now: datetime = NOW, state=None):
    """`status` on map `m` as a use case reads it (`judge.app.game_in_hand.GameInHand`)."""
    from judge.app.game_in_hand import GameInHand
    from judge.game.rules import rules_in_force
    from judge.game.standing import game_state
    return GameInHand("demo", status, m, rules_in_force(status, m), state or game_state(status),
                      now)
