"""A Payola power's offer sheet as a player sends it: who owes one in a movement phase, when it
is in, and the lines mailed read into the sheet the status file keeps, as DPjudge does it.

A power owes a sheet while it has units, and also, with no unit left, while it owns centres and
has money to bribe with (under ZERO_FOREIGN it may bribe with none). Its sheet is in once it holds
a bribe: a sheet of savings or comments alone leaves it owing one, as DPjudge counts it.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from judge.adjudicator.model import Position
from judge.errors import OrderError
from judge.game.offer_sheet import SAVINGS, SheetReader
from judge.game.positions import owned_centers
from judge.maps.model import Map
from judge.orders.power_orders import lines_after_clear
from judge.rule_names import Rule, Rules
from judge.status.model import Fund, PowerStatus

VARIANT = "payola"  # as DPjudge names its game class
CASH = "$"


def balance(block: PowerStatus) -> int:
    """The power's treasury: the cash on its FUNDS line (none: nothing)."""
    return next((f.amount for f in block.funds or () if f.currency == CASH), 0)


def with_balance(block: PowerStatus, amount: int) -> PowerStatus:
    """The block with `amount` as its cash, its other funds kept where they stand."""
    funds = block.funds or ()
    if any(f.currency == CASH for f in funds):
        return replace(block, funds=tuple(Fund(amount, CASH) if f.currency == CASH else f for f in funds))
    return replace(block, funds=(Fund(amount, CASH), *funds))


def owes_sheet(block: PowerStatus, rules: Rules) -> bool:
    """Whether the power owes a sheet in a movement phase (see the module's doc)."""
    if block.units:
        return True
    return bool(owned_centers(block)) and (balance(block) > 0 or Rule.ZERO_FOREIGN in rules)


def sheet_in(block: PowerStatus) -> bool:
    """Whether the power's sheet holds a bribe."""
    for line in block.offers:
        words = line.partition("%")[0].split()
        if words and SAVINGS not in words[1:2] and not words[0].endswith(SAVINGS):
            return True
    return False


def unplayed(blocks: Iterable[PowerStatus]) -> frozenset[str]:
    """The dummies among the powers: played by no one (for CD_DUMMIES)."""
    return frozenset(b.name for b in blocks if b.player is not None and b.player.dummy)


def read_sheet(m: Map, position: Position, rules: Rules, power: str, lines: Sequence[str], purse: int = 0,
               dummies: frozenset[str] = frozenset()) -> tuple[tuple[str, ...], list[tuple[str, str]]]:
    """The power's mailed lines as its sheet keeps them, and each line refused with DPjudge's
    words (then the sheet is not to be kept). CLEAR or NMR drops the lines before it. `purse`:
    the power's treasury (LIMIT_OFFERS); `dummies` (`unplayed`)."""
    reader = SheetReader(m, position, rules, {power: purse}, dummies)
    given = lines_after_clear(lines)
    errors = []
    for line in given:
        try:
            reader.read(power, [_upper(line)])
        except OrderError as exc:
            errors.append((line, str(exc)))
    if errors:
        return (), errors
    try:
        return reader.read(power, [_upper(line) for line in given]).lines, []
    except OrderError:
        return (), _across_lines(reader, power, given)


def _across_lines(reader: SheetReader, power: str, given: Sequence[str]) -> list[tuple[str, str]]:
    """The lines refused for what came above them on the sheet (under DIRECT_ONLY a second bribe
    to a unit; under LIMIT_OFFERS a bribe past the treasury): each read after those taken."""
    taken: list[str] = []
    errors = []
    for line in given:
        try:
            reader.read(power, [*taken, _upper(line)])
            taken.append(_upper(line))
        except OrderError as exc:
            errors.append((line, str(exc)))
    return errors


def _upper(line: str) -> str:
    """The bribe in capitals, its comment as written."""
    text, mark, comment = line.partition("%")
    return text.upper() + mark + comment


def with_sheet(block: PowerStatus, lines: tuple[str, ...]) -> PowerStatus:
    return replace(block, offers=lines)
