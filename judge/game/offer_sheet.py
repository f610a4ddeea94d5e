"""A Payola offer sheet read as DPjudge reads it: each line a bribe, a savings request or a comment.

A line is `amount code unit order [| order]... [% comment]`:

- the amount: `5`; `3*5` (three bribes of 5); `10#4` (10, never lowered below 4 when the payer
  overspends: a plateau; `10#` is `10#10`); `5+2` (two bribes, 5 and 2); 0 when left out;
- the code: `:` a direct bribe for the order (each order after `|` is another bribe of the same
  amount); `!` for any order but those listed; `@` for any order but a move (and each move listed);
  `>` for any move (and each order listed that is no move); `&` for any order at all; `:` when left
  out (`A PAR - BUR` is `0 : A PAR - BUR`);
- `N $`: N silver pieces set aside, not to be spent this phase (savings);
- `%` starts a comment; a line holding nothing else is kept on the sheet as written.

The orders are read on the map as the bribed unit's orders (any power may bribe any unit), and
must be legal for it. A bribe of 0 to a unit of another power is refused (it could never matter).

Under DIRECT_ONLY a sheet holds direct bribes alone, one a unit, each one order for one amount
(no `|`, even in a comment, as DPjudge reads the line whole; no `*` or `+`). Under LIMIT_OFFERS
a bribe is refused once the bribes above it on the sheet add up to more than the power's treasury
less its savings so far (the line that crosses the limit is taken; the next is not), as DPjudge
counts it.

Under TOUCH_BRIBE a power bribes another power's unit only when one of its own units stands next
to it (either could support the other holding); under REMOTE_BRIBE only when none does. Under
CD_DUMMIES a dummy's units are bribed from anywhere.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from judge.adjudicator.model import Position
from judge.errors import OrderError
from judge.game.bribes import DIRECT, EXCEPT, MOVING, NOT_MOVING, MovementOrder, Offer
from judge.maps.model import Map
from judge.orders.model import Convoy, Hold, Move, Support
from judge.orders.parser import OrderReader
from judge.orders.validate import OrderChecker
from judge.rule_names import Rule
from judge.types import Unit

CODES = ":!@>&"
SAVINGS = "$"
MOST, MOST_REPEATS = 9999, 99  # the largest bribe, and the most repetitions, DPjudge takes


@dataclass(frozen=True)
class Amount:
    """One part of an offer's amount: `repeat` bribes of `amount`, not lowered below `plateau`."""

    repeat: int
    amount: int
    plateau: int = 0


@dataclass(frozen=True)
class Sheet:
    """A power's sheet read: its bribes in sheet order (numbered as DPjudge numbers them), what it
    set aside, and each line as the sheet keeps it."""

    offers: tuple[Offer, ...]
    saved: int
    lines: tuple[str, ...]


class SheetReader:
    """Reads the sheets of one movement phase: the map, the units on the board and the rules;
    `purses`, each power's treasury, for LIMIT_OFFERS (a sheet being sent in: DPjudge checks
    that limit then); `dummies`, the powers played by no one (CD_DUMMIES)."""

    def __init__(self, m: Map, position: Position, rules: frozenset[str], purses: Mapping[str, int] | None = None,
                 dummies: frozenset[str] = frozenset()):
        self.map, self.position, self.rules = m, position, rules
        self.purses, self.dummies = purses, dummies
        self.orders = OrderReader(m, rules | {Rule.ORDER_ANY})
        self.checker = OrderChecker(m, position, rules | {Rule.ORDER_ANY})
        self.owners = {u: power for power, units in position.units.items() for u in units}

    def read(self, payer: str, lines: Sequence[str]) -> Sheet:
        """The sheet; OrderError naming the first line DPjudge would refuse, and why."""
        offers: list[Offer] = []
        kept: list[str] = []
        saved = 0
        for line in lines:
            text, _, comment = line.partition("%")
            words = text.upper().split()
            if not words:
                kept.append(line)
                continue
            words = _with_defaults(words)
            amounts = self.amounts(words[0])
            if words[1] == SAVINGS:
                saved += self.savings(words, amounts)
                stored = " ".join(words)
            else:
                stored = self.bribe(payer, words, amounts, offers, line, saved)
            kept.append(stored + (f" %{comment}" if "%" in line else ""))
        mine = [u for u in self.position.units.get(payer, ()) if not any(
            o.unit == u and o.code == DIRECT for o in offers)]
        for unit in mine:  # a unit its owner did not bribe is paid nothing by him to hold
            offers.append(Offer(payer, DIRECT, unit, (Hold(payer, unit),), 0, 0, len(offers)))
        return Sheet(tuple(offers), saved, tuple(kept))

    def amounts(self, word: str) -> tuple[Amount, ...]:
        found = []
        for part in word.split("+"):
            if not part:
                raise OrderError(f"ADDITIONAL BRIBE NOT GIVEN: {word}")
            found.append(self.amount(part))
        return tuple(found)

    def amount(self, part: str) -> Amount:
        repeat, _, rest = part.rpartition("*") if "*" in part else ("1", "", part)
        if "#" in rest and ({Rule.NO_PLATEAU, Rule.NO_SAVINGS} & self.rules):
            raise OrderError("PLATEAUS NOT ALLOWED")
        value, _, plateau = rest.partition("#")
        if not (repeat.isdigit() and value.isdigit() and (plateau.isdigit() or not plateau)):
            raise OrderError(f"INVALID OFFER AMOUNT: {part}")
        amount = int(value)
        floor = amount if rest.endswith("#") else int(plateau or 0)
        if amount == 0:
            return Amount(1, 0, floor)
        if amount < floor or amount > MOST or not 0 < int(repeat) <= MOST_REPEATS:
            raise OrderError(f"INVALID OFFER AMOUNT: {part}")
        return Amount(int(repeat), amount, floor)

    def savings(self, words: list[str], amounts: tuple[Amount, ...]) -> int:
        if Rule.NO_SAVINGS in self.rules:
            raise OrderError("SAVINGS NOT ALLOWED IN THIS GAME")
        if "#" in words[0]:
            raise OrderError("PLATEAU AMOUNT ON SAVINGS REQUEST")
        return sum(a.repeat * a.amount for a in amounts)

    def bribe(self, payer: str, words: list[str], amounts: tuple[Amount, ...], offers: list[Offer], line: str,
              saved: int) -> str:
        code = words[1]
        if code not in CODES:
            raise OrderError(f"BAD OFFER TYPE: {' '.join(words)}")
        parts = " ".join(words[2:]).split("|")
        first = self.order(payer, parts[0], words)
        unit = first.unit
        if Rule.DIRECT_ONLY in self.rules:
            self.direct_only(payer, words, line, unit, offers, saved)
        if {Rule.TOUCH_BRIBE, Rule.REMOTE_BRIBE} & self.rules:
            self.within_reach(payer, unit)
        for a in amounts:
            if a.amount == 0 and self.owners.get(unit) not in (None, payer) and Rule.ZERO_FOREIGN not in self.rules:
                raise OrderError(f"ZERO AgP OFFER TO FOREIGN UNIT: {unit.text}")
        orders = [first]
        for part in parts[1:]:
            if not part.split():
                raise OrderError(f"NO ALTERNATIVE ORDER GIVEN: {unit.text}")
            order = self.order(payer, f"{unit.text} {part}", words)
            if order in orders:
                raise OrderError(f"DUPLICATE ORDER IN OFFER: {order}")
            orders.append(order)
        owner = self.owners.get(unit, payer)
        owned = tuple(replace(o, power=owner) for o in orders)
        for a in amounts:
            for _ in range(a.repeat):
                _spread(offers, payer, code, unit, owned, a)
        return f"{words[0]} {code} {unit.text} " + " | ".join(_rest(o) for o in owned)

    def direct_only(self, payer: str, words: list[str], line: str, unit: Unit, offers: list[Offer],
                    saved: int) -> None:
        """DIRECT_ONLY's limits on a bribe line, and LIMIT_OFFERS's (see the module's doc)."""
        if any(o.unit == unit for o in offers):
            raise OrderError(f"MULTIPLE OFFERS TO A SINGLE UNIT FORBIDDEN: {unit.text}")
        if words[1] != DIRECT or "|" in line:
            raise OrderError("WILDCARD BRIBES NOT ALLOWED")
        if "*" in words[0] or "+" in words[0]:
            raise OrderError("REPETITION AND AUGMENTATION NOT ALLOWED")
        if Rule.LIMIT_OFFERS in self.rules and self.purses is not None and \
                sum(o.amount for o in offers) > max(self.purses.get(payer, 0) - saved, 0):
            raise OrderError("TOTAL OFFERS EXCEED AMOUNT AVAILABLE")

    def within_reach(self, payer: str, unit: Unit) -> None:
        """TOUCH_BRIBE's and REMOTE_BRIBE's limit on bribing another power's unit."""
        owner = self.owners.get(unit, payer)
        if owner == payer or Rule.CD_DUMMIES in self.rules and owner in self.dummies:
            return
        touching = any(self.checker.check(Support(payer, mine, unit)) is None
                       or self.checker.check(Support(owner, unit, mine)) is None
                       for mine in self.position.units.get(payer, ()))
        if Rule.TOUCH_BRIBE in self.rules and not touching:
            raise OrderError(f"BRIBED UNIT MUST BE ADJACENT: {unit.text}")
        if Rule.TOUCH_BRIBE not in self.rules and touching:
            raise OrderError(f"BRIBED UNIT MAY NOT BE ADJACENT: {unit.text}")

    def order(self, payer: str, text: str, words: list[str]) -> MovementOrder:
        given = text.replace("-", " - ").split()
        if len(given) < 2:
            raise OrderError(f"INCOMPLETE OFFER: {' '.join(words)}")
        if len(given) == 2:
            raise OrderError(f"NO ORDER GIVEN: {text}")
        # an investor has no units of his own: his bribes are read as a power's, any unit ordered
        reader = payer if payer in self.map.powers else next(iter(self.map.powers))
        try:
            order = self.orders.read(reader, text, self.position.phase, self.position.units)
        except OrderError as exc:
            raise OrderError(f"{exc}: {text}") from None
        if not isinstance(order, (Hold, Move, Support, Convoy)):
            raise OrderError(f"NOT A MOVEMENT ORDER: {text}")
        if order.unit not in self.owners:
            raise OrderError(f"NON-EXISTENT UNIT IN ORDER: {text}")
        problem = self.checker.check(replace(order, power=self.owners[order.unit]))
        if problem:
            raise OrderError(f"{problem}: {text}")
        return order


def _with_defaults(words: list[str]) -> list[str]:
    """DPjudge's reading of a bribe's head: a missing amount is 0, a missing code `:`, and the
    amount and code are split apart however they were written (`5:`, `3 * 5`, `10#4`)."""
    if words[0][0] in CODES:
        words = ["0" + words[0], *words[1:]]
    elif words[0][0].isalpha():
        words = ["0", ":", *words]
    while len(words) > 1 and words[1][0] in "*#+":
        words = [words[0] + words[1], *words[2:]] if len(words[1]) > 1 or len(words) < 3 else \
            [words[0] + words[1] + words[2], *words[3:]]
    if not words[0][0].isdigit():
        raise OrderError(f"INVALID OFFER AMOUNT: {words[0]}")
    head = next((n for n, c in enumerate(words[0]) if not (c.isdigit() or c in "#*+")), None)
    if head is not None:
        words = [words[0][:head], words[0][head:], *words[1:]]
    if len(words) < 2:
        raise OrderError(f"INCOMPLETE OFFER: {' '.join(words)}")
    if len(words[1]) > 1:
        words = [words[0], words[1][0], words[1][1:], *words[2:]]
    return words


def _spread(offers: list[Offer], payer: str, code: str, unit: Unit, orders: tuple[MovementOrder, ...],
            a: Amount) -> None:
    """One bribe of `a` as DPjudge spreads it: a direct bribe per order named (a wildcard's own
    money going only to the orders its code does not already cover), then the wildcard itself."""
    def add(offer_code: str, named: tuple[MovementOrder, ...], amount: int, plateau: int) -> None:
        offers.append(Offer(payer, offer_code, unit, named, amount, plateau, len(offers)))

    if code == EXCEPT:
        if not any(isinstance(o, Hold) for o in orders):
            add(DIRECT, (Hold(orders[0].power, unit),), 0, 0)
        add(EXCEPT, orders, a.amount, a.plateau)
        return
    for order in orders:
        paid = a.amount if _direct_money(code, order) else 0
        add(DIRECT, (order,), paid, a.plateau if paid else 0)
    if code != DIRECT:
        add(code, orders, a.amount, a.plateau)


def _direct_money(code: str, order: MovementOrder) -> bool:
    moving = isinstance(order, Move)
    return code not in "&" and not (code == MOVING and moving) and not (code == NOT_MOVING and not moving)


def _rest(order: MovementOrder) -> str:
    """The order without its unit, as the sheet writes it: `- BUR`, `H`, `S A PAR - BUR`."""
    return str(order)[len(order.unit.text) + 1:]

