"""Payola's money, for any sheets at all: settling the bribes never spends more than a power may
(no treasury goes below zero), and every silver piece a power spends is one it paid towards the
order one of the units carries out (the settlement makes and loses no money; only income adds);
transfers, made or refused, leave no treasury below zero and the powers' money together the same."""
from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from judge.app.payola_funds import transfer_funds
from judge.app.refusal import Refusal
from judge.events import BribesSettled
from judge.game.payola_orders import balance
from judge.game.process import process_phase
from judge.game.variants.payola import PAYOLA
from judge.maps import MapCache
from judge.rule_names import Rule
from judge.status import parse_status
from tests.support.games import in_hand

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
    for second_price in (False, True):  # EBAYOLA too
        settlement = settle(owners, LETTERS, offers, spendable, second_price)
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


TRANSFER_RULES = ("ONE_TRANSFER", "ANON_TRANSFER", "NO_LOOTING")
# a game's start, and every power's Spring 1901 sheet as DPjudge kept it (large bribes: some overspend)
TRANSFERS = json.loads((Path(__file__).parent / "fixtures" / "payola_transfers.json").read_text())["plain"]
SHEETS = TRANSFERS["played"]["ready"]
NOW = datetime(2026, 11, 27, 20, 7, tzinfo=UTC)


@st.composite
def transfers(draw):
    names = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY", "NARNIA")
    rules = tuple(r for r in TRANSFER_RULES if draw(st.booleans()))
    made = draw(st.lists(st.tuples(st.sampled_from(names[:-1]), st.sampled_from(names), st.integers(-5, 120)),
                         max_size=12))
    return rules, made


@settings(max_examples=40, deadline=None)
@given(transfers())
def test_transfers_make_no_treasury_negative_and_neither_make_nor_lose_money(drawn):
    """Any transfers at all, each made or refused: every treasury stays at zero or above, the
    money of all the powers together is what it was, and a phase then settled spends no more than
    each treasury holds."""
    rules, made = drawn
    m = MapCache().get("standard")
    start = parse_status(TRANSFERS["start"])
    status = replace(start, variant="payola", rules=start.rules | frozenset(rules))
    total = sum(balance(b) for b in status.powers)
    for giver, receiver, amount in made:
        try:
            status = transfer_funds(in_hand(m, status), giver, receiver, amount).status
        except Refusal:
            continue
        assert all(balance(b) >= 0 for b in status.powers)
    assert sum(balance(b) for b in status.powers) == total
    if Rule.ONE_TRANSFER in rules:
        assert all(len(set(b.sent)) == len(b.sent) for b in status.powers)
    sheets = parse_status(SHEETS)
    for block in status.powers:
        status = status.with_power(replace(block, offers=sheets.power(block.name).offers))
    after, events = process_phase(status, m, NOW, PAYOLA)
    spent = sum(s.spent for e in events if isinstance(e, BribesSettled) for s in e.statements)
    assert all(balance(b) >= 0 for b in after.powers)
    assert sum(balance(b) for b in after.powers) + spent == total
