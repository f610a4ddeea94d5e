"""Payola's bribes settled: which order each unit takes, and what each power pays for it.

Every unit on the board carries out the order it is paid most for. A unit's candidate orders are
the orders direct bribes (`:`) name for it; wildcard bribes add their money to every candidate they
cover (`!`: any order but those listed; `@`: any order but a move; `>`: any move; `&`: any order).
The candidate with the highest total wins. A tie is broken by the unit's owner's acceptance list:
each candidate is ranked by, for each place of the list in turn, the earliest line of the sheet of
the power at that place paying for it; the candidate whose bribe comes earliest from the most
preferred power wins. Every power that paid towards the winning order pays what it offered; losing
bribes cost nothing.

A power whose winning bribes cost more than it can spend (its treasury less what it set aside in
savings) has all its bribes lowered by one silver piece, none below its plateau (once every bribe
is at its plateau, plateaus are dropped and all are lowered, none below zero), and every unit is
settled again from the start, until no power overspends. So no treasury ever goes below zero.

A DUMMY power nobody controls whose list is `?` holds when the top candidates tie in total but are
paid by different sets of powers.

Under EBAYOLA the winning order costs one silver piece more than the best losing one's total (the
best losing total taken as 0 when there is none): the difference is given back to the powers that
paid for it, the one first on the owner's acceptance list first, none below its plateau. When the
best two tie, DPjudge's reckoning gives back -1: the first of them pays one piece more than it
offered, and the judge charges it so too.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from judge.orders.model import Convoy, Hold, Move, Support
from judge.types import Unit

DIRECT, EXCEPT, NOT_MOVING, MOVING, ANY = ":", "!", "@", ">", "&"
MovementOrder = Hold | Move | Support | Convoy  # what a bribe may buy


@dataclass(frozen=True)
class Offer:
    """One bribe as it stands on a sheet, after its repetitions and alternatives are spread out:
    a direct bribe names one order; a wildcard names the orders its line listed (for `!`)."""

    payer: str
    code: str
    unit: Unit
    orders: tuple[MovementOrder, ...]
    amount: int
    plateau: int = 0
    number: int = 0  # its place among the payer's bribes (the first is 0)

    def covers(self, order: MovementOrder) -> bool:
        """Whether this wildcard's money goes to `order`."""
        if self.code == EXCEPT:
            return order not in self.orders
        if self.code == NOT_MOVING:
            return not isinstance(order, Move)
        if self.code == MOVING:
            return isinstance(order, Move)
        return self.code == ANY


@dataclass
class Candidate:
    """An order a unit is offered, with the money behind it."""

    order: MovementOrder
    total: int = 0
    cost: dict[str, int] = field(default_factory=dict)
    plateau: dict[str, int] = field(default_factory=dict)
    earliest: list[int | None] = field(default_factory=list)  # by place in the owner's list

    def add(self, offer: Offer, place: int) -> None:
        slot = self.earliest[place]
        self.earliest[place] = offer.number if slot is None else min(slot, offer.number)
        self.total += offer.amount
        self.cost[offer.payer] = self.cost.get(offer.payer, 0) + offer.amount
        self.plateau[offer.payer] = self.plateau.get(offer.payer, 0) + offer.plateau

    def rank(self) -> tuple[int, list[float]]:
        return -self.total, [float("inf") if n is None else n for n in self.earliest]


@dataclass(frozen=True)
class Settled:
    """A unit's settlement: its owner, the candidates best first (the first is carried out)."""

    owner: str
    unit: Unit
    candidates: tuple[Candidate, ...]

    @property
    def order(self) -> MovementOrder:
        return self.candidates[0].order


@dataclass(frozen=True)
class Settlement:
    units: tuple[Settled, ...]  # every unit, in the owners' order
    spent: Mapping[str, int]  # what each power paid
    reductions: Mapping[str, int]  # how many times each power's bribes were lowered
    offers: Mapping[str, tuple[Offer, ...]]  # each power's bribes, as lowered


@dataclass(frozen=True)
class Owner:
    """A power whose units are bribed: its units, its acceptance list with every power's letter
    (`?` already filled in), and whether it is a DUMMY nobody controls whose own list is `?`."""

    name: str
    units: tuple[Unit, ...]
    accept: str
    holds_on_ties: bool = False


def settle(owners: Sequence[Owner], letters: Mapping[str, str], offers: Mapping[str, Sequence[Offer]],
           spendable: Mapping[str, int], second_price: bool = False) -> Settlement:
    """Settle every unit of `owners` (in their order) with `offers` (each power's, with a hold of
    each unit it owns and did not bribe already added), `letters` each power's initial (a payer
    without one, an investor, ranks after every power), `spendable` what each power may spend;
    `second_price` (EBAYOLA): the winners pay the best losing total and one more."""
    lowered = {payer: [_Amount(o.amount, o.plateau) for o in sheet] for payer, sheet in offers.items()}
    reductions = dict.fromkeys(offers, 0)
    while True:
        current = {payer: tuple(_lowered(o, a) for o, a in zip(sheet, lowered[payer], strict=True))
                   for payer, sheet in offers.items()}
        units = tuple(_settle_unit(owner, unit, letters, current, second_price)
                      for owner in owners for unit in owner.units)
        spent = dict.fromkeys(offers, 0)
        for settled in units:
            for payer, amount in settled.candidates[0].cost.items():
                spent[payer] = spent.get(payer, 0) + amount
        over = [payer for payer, paid in spent.items() if paid > spendable.get(payer, 0)]
        if not over:
            return Settlement(units, spent, reductions, current)
        for payer in over:
            _reduce(lowered[payer])
            reductions[payer] += 1


@dataclass
class _Amount:
    amount: int
    plateau: int


def _lowered(offer: Offer, amount: _Amount) -> Offer:
    return Offer(offer.payer, offer.code, offer.unit, offer.orders, amount.amount, amount.plateau, offer.number)


def _reduce(amounts: list[_Amount]) -> None:
    """Every bribe of an overspending power one silver piece lower, none below its plateau; once all
    stand at their plateaus, the plateaus go and every bribe is lowered (none below zero)."""
    flat = True
    for a in amounts:
        if a.amount > a.plateau:
            flat, a.amount = False, a.amount - 1
    if flat:
        for a in amounts:
            a.plateau, a.amount = 0, max(a.amount - 1, 0)


def _settle_unit(owner: Owner, unit: Unit, letters: Mapping[str, str],
                 offers: Mapping[str, Sequence[Offer]], second_price: bool = False) -> Settled:
    places = len(owner.accept) + 1

    def place(payer: str) -> int:
        letter = letters.get(payer)
        return owner.accept.find(letter) if letter else -1

    candidates: dict[MovementOrder, Candidate] = {}
    for sheet in offers.values():
        for offer in sheet:
            if offer.unit == unit and offer.code == DIRECT:
                found = candidates.setdefault(offer.orders[0], Candidate(offer.orders[0], earliest=[None] * places))
                found.add(offer, place(offer.payer))
    if not candidates:  # nobody bribed it, not even its owner: it holds
        hold = Hold(owner.name, unit)
        candidates[hold] = Candidate(hold, earliest=[None] * places)
    for sheet in offers.values():
        for offer in sheet:
            if offer.unit == unit and offer.code != DIRECT:
                for candidate in candidates.values():
                    if offer.covers(candidate.order):
                        candidate.add(offer, place(offer.payer))
    ranked = sorted(candidates.values(), key=Candidate.rank)
    if second_price:
        _give_back(ranked, place)
    if owner.holds_on_ties and _split_tie(ranked):
        ranked = _hold_first(owner.name, unit, ranked, places)
    return Settled(owner.name, unit, tuple(ranked))


def _give_back(ranked: list[Candidate], place: Callable[[str], int]) -> None:
    """EBAYOLA: what the winner was paid beyond the best losing total and one more, given back to
    its payers in the owner's order of preference (those with no place in it last, the largest
    payer first), none below its plateau."""
    best = ranked[0]
    over = best.total - 1 - (max(ranked[1].total, 0) if len(ranked) > 1 else 0)
    payers = [p for p, amount in best.cost.items() if amount]
    listed = sorted((p for p in payers if place(p) >= 0), key=place)
    unlisted = sorted((p for p in payers if place(p) < 0), key=lambda p: -best.cost[p])
    for payer in listed + unlisted:
        rebate = min(best.cost[payer] - best.plateau[payer], over)
        best.cost[payer] -= rebate
        best.total -= rebate
        over -= rebate


def _split_tie(ranked: list[Candidate]) -> bool:
    """Whether the best candidates tie in total, paid by different sets of powers."""
    payers = [slot is None for slot in ranked[0].earliest]
    for other in ranked[1:]:
        if other.total != ranked[0].total:
            return False
        if [slot is None for slot in other.earliest] != payers:
            return True
    return False


def _hold_first(owner: str, unit: Unit, ranked: list[Candidate], places: int) -> list[Candidate]:
    """The unit's hold first, shown one silver piece above the best bribe."""
    hold = next((c for c in ranked if isinstance(c.order, Hold)), None)
    rest = [c for c in ranked if c is not hold]
    if hold is None:
        hold = Candidate(Hold(owner, unit), earliest=[None] * places)
    hold.total = ranked[0].total + 1
    return [hold, *rest]
