"""An investor's money in the settling of bribes, for any sheets at all: he is a payer with no
letter in any acceptance list and no units. He never spends more than he may, every piece he
spends is paid towards an order carried out, and his bribes lose a tie to any power's."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from judge.game.bribes import DIRECT, Offer, Owner, settle
from judge.orders.model import Hold, Move
from tests.game.test_payola_money import LETTERS, OWNER, UNITS, game, offer

INVESTOR = "ROTHSCHILD"


@st.composite
def game_with_an_investor(draw):
    owners, offers, spendable = draw(game())
    sheet = tuple(draw(offer(INVESTOR, n)) for n in range(draw(st.integers(0, 6))))
    return owners, {**offers, INVESTOR: sheet}, {**spendable, INVESTOR: draw(st.integers(0, 60))}


@settings(max_examples=120, deadline=None)
@given(game_with_an_investor())
def test_an_investor_spends_what_he_has_and_only_on_orders_carried_out(drawn):
    owners, offers, spendable = drawn
    settlement = settle(owners, LETTERS, offers, spendable)
    assert all(0 <= settlement.spent[p] <= spendable[p] for p in offers)
    paid = dict.fromkeys(offers, 0)
    for unit in settlement.units:
        for payer, amount in unit.candidates[0].cost.items():
            paid[payer] += amount
    assert paid == dict(settlement.spent)
    assert {u.unit for u in settlement.units} == set(OWNER)


def test_an_investors_bribe_loses_a_tie_to_a_powers():
    unit = UNITS["FRANCE"][0]
    offers = {"FRANCE": (Offer("FRANCE", DIRECT, unit, (Hold("FRANCE", unit),), 0, 0, 0),),
              "ENGLAND": (Offer("ENGLAND", DIRECT, unit, (Hold("FRANCE", unit),), 5, 0, 0),),
              INVESTOR: (Offer(INVESTOR, DIRECT, unit, (Move("FRANCE", unit, "XAA"),), 5, 0, 0),)}
    owners = [Owner("FRANCE", (unit,), "FAE")]
    settlement = settle(owners, LETTERS, offers, {"FRANCE": 0, "ENGLAND": 10, INVESTOR: 10})
    assert settlement.units[0].candidates[0].order == Hold("FRANCE", unit)
    assert settlement.spent[INVESTOR] == 0
