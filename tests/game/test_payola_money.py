"""Payola's money, for any sheets at all: settling the bribes never spends more than a power may
(no treasury goes below zero), and every silver piece a power spends is one it paid towards the
order one of the units carries out (the settlement makes and loses no money; only income adds)."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from judge.game.bribes import ANY, DIRECT, EXCEPT, MOVING, NOT_MOVING, Offer, Owner, settle
from judge.orders.model import Hold, Move
from judge.types import Unit, UnitType

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE")
LETTERS = {"AUSTRIA": "A", "ENGLAND": "E", "FRANCE": "F"}
UNITS = {power: tuple(Unit(UnitType.ARMY, f"{power[:2]}{n}") for n in range(2)) for power in POWERS}
OWNER = {unit: power for power, units in UNITS.items() for unit in units}
DESTINATIONS = ("XAA", "XBB")


def orders_for(unit: Unit) -> list:
    return [Hold(OWNER[unit], unit)] + [Move(OWNER[unit], unit, d) for d in DESTINATIONS]


@st.composite
def offer(draw, payer: str, number: int) -> Offer:
    unit = draw(st.sampled_from(sorted(OWNER, key=str)))
    code = draw(st.sampled_from([DIRECT, DIRECT, EXCEPT, NOT_MOVING, MOVING, ANY]))
    named = tuple(draw(st.lists(st.sampled_from(orders_for(unit)), min_size=1, max_size=2, unique=True)))
    amount = draw(st.integers(0, 40))
    plateau = draw(st.integers(0, amount))
    return Offer(payer, code, unit, named[:1] if code == DIRECT else named, amount, plateau, number)


@st.composite
def game(draw):
    offers = {}
    for payer in POWERS:
        count = draw(st.integers(0, 6))
        sheet = [draw(offer(payer, n)) for n in range(count)]
        bribed = {o.unit for o in sheet if o.code == DIRECT}
        sheet += [Offer(payer, DIRECT, u, (Hold(payer, u),), 0, 0, len(sheet) + n)
                  for n, u in enumerate(u for u in UNITS[payer] if u not in bribed)]
        offers[payer] = tuple(sheet)
    spendable = {p: draw(st.integers(0, 60)) for p in POWERS}
    owners = [Owner(p, UNITS[p], "".join(draw(st.permutations("AEF")))) for p in POWERS]
    return owners, offers, spendable


@settings(max_examples=120, deadline=None)
@given(game())
def test_no_power_spends_more_than_it_may(drawn):
    owners, offers, spendable = drawn
    settlement = settle(owners, LETTERS, offers, spendable)
    assert all(0 <= settlement.spent[p] <= spendable[p] for p in POWERS)


@settings(max_examples=120, deadline=None)
@given(game())
def test_every_piece_spent_is_paid_towards_an_order_carried_out(drawn):
    owners, offers, spendable = drawn
    settlement = settle(owners, LETTERS, offers, spendable)
    paid = {p: 0 for p in POWERS}
    for unit in settlement.units:
        winner = unit.candidates[0]
        assert sum(winner.cost.values()) == winner.total
        for payer, amount in winner.cost.items():
            paid[payer] += amount
    assert paid == dict(settlement.spent)
    assert {u.unit for u in settlement.units} == set(OWNER)


@settings(max_examples=40, deadline=None)
@given(game())
def test_the_settlement_depends_on_nothing_but_its_sheets(drawn):
    owners, offers, spendable = drawn
    assert settle(owners, LETTERS, offers, spendable) == settle(owners, LETTERS, offers, spendable)
