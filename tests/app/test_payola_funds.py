"""TRANSFER and ACCEPT as use cases, without a door: what the transfer rules refuse, and the
acceptance lists refused with DPjudge's words (what they allow is held by the recorded game in
`tests/game/test_payola_transfers.py`)."""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from judge.app.payola_funds import set_acceptance, transfer_funds
from judge.app.refusal import Refusal
from judge.events import FundsTransferred
from judge.game.payola_orders import balance, with_balance
from judge.phases import parse_phase
from judge.status import parse_status
from judge.status.model import GameStatus, PhaseMode, Vacancy
from tests.support.games import in_hand

START = json.loads((Path(__file__).parent.parent / "game" / "fixtures" / "payola_transfers.json").read_text()
                   )["plain"]["start"]


def payola(*rules: str) -> GameStatus:
    status = parse_status(START)
    return replace(status, variant="payola", rules=status.rules | frozenset(rules))


def test_a_transfer_moves_the_money_and_tells_both(standard):
    changed = transfer_funds(in_hand(standard, payola()), "FRANCE", "ENGLAND", 48)
    assert balance(changed.status.power("FRANCE")) == 0
    assert balance(changed.status.power("ENGLAND")) == 96
    assert changed.events == (FundsTransferred("dpjstandard", "FRANCE", "ENGLAND", 48, 48, 48),)
    assert changed.status.power("FRANCE").sent == ()  # kept only under ONE_TRANSFER


@pytest.mark.parametrize(("amount", "receiver", "why"), [
    (49, "ENGLAND", "FRANCE has only 48 AgP"),
    (0, "ENGLAND", "at least 1 AgP"),
    (5, "FRANCE", "another power"),
    (5, "NARNIA", "another power"),
])
def test_a_transfer_beyond_the_treasury_or_to_no_other_power_is_refused(standard, amount, receiver, why):
    with pytest.raises(Refusal, match=why):
        transfer_funds(in_hand(standard, payola()), "FRANCE", receiver, amount)


def test_no_transfer_refuses_every_transfer(standard):
    with pytest.raises(Refusal, match="NO_TRANSFER"):
        transfer_funds(in_hand(standard, payola("NO_TRANSFER")), "FRANCE", "ENGLAND", 1)


def test_one_transfer_gives_to_each_power_once_a_phase(standard):
    game = in_hand(standard, payola("ONE_TRANSFER"))
    once = transfer_funds(game, "FRANCE", "ENGLAND", 1).status
    assert once.power("FRANCE").sent == ("ENGLAND",)
    with pytest.raises(Refusal, match="ONE_TRANSFER"):
        transfer_funds(in_hand(standard, once), "FRANCE", "ENGLAND", 1)
    assert balance(transfer_funds(in_hand(standard, once), "FRANCE", "ITALY", 1).status.power("FRANCE")) == 46


def test_anon_transfer_hides_the_giver_from_the_receiver(standard):
    told = transfer_funds(in_hand(standard, payola("ANON_TRANSFER")), "FRANCE", "ENGLAND", 1).events[0]
    assert told.anonymous


def test_no_looting_refuses_a_dummy_s_transfer(standard):
    status = payola("NO_LOOTING")
    france = status.power("FRANCE")
    dummy = status.with_power(replace(france, player=replace(france.player, current=Vacancy.DUMMY)))
    with pytest.raises(Refusal, match="NO_LOOTING"):
        transfer_funds(in_hand(standard, dummy), "FRANCE", "ENGLAND", 1)
    assert transfer_funds(in_hand(standard, payola("NO_LOOTING")), "FRANCE", "ENGLAND", 1).events


def test_nothing_is_transferred_while_the_judge_processes_or_in_a_standard_game(standard):
    with pytest.raises(Refusal, match="processing"):
        transfer_funds(in_hand(standard, replace(payola(), phase_mode=PhaseMode.AWAIT)), "FRANCE", "ENGLAND", 1)
    with pytest.raises(Refusal, match="for Payola games"):
        transfer_funds(in_hand(standard, replace(payola(), variant="standard")), "FRANCE", "ENGLAND", 1)


@pytest.mark.parametrize(("written", "kept"), [("fe", "FE?"), ("EGFRATI", "EGFRATI"), ("G?R", "G?R"), ("?", "?")])
def test_an_acceptance_list_is_kept_as_dpjudge_keeps_it(standard, written, kept):
    assert set_acceptance(in_hand(standard, payola()), "FRANCE", written).status.power("FRANCE").accept == kept


@pytest.mark.parametrize(("written", "why"), [
    ("EGFRATIX", "Acceptance list too long"),
    ("FX", "Letter X not a power initial"),
    ("FEF", "Letter F appears more than once"),
    ("F??", r"Letter \? appears more than once"),
])
def test_a_bad_acceptance_list_is_refused_with_dpjudge_s_words(standard, written, why):
    with pytest.raises(Refusal, match=why):
        set_acceptance(in_hand(standard, payola()), "FRANCE", written)


def test_no_donations_refuses_a_gone_power_s_transfer_in_the_retreats_before_adjustments(standard):
    """Italy (`tests/support/record_payola_positions.py`) owns Rome alone, where an Austrian army
    stands: in the Fall retreats it is gone and gives nothing; in a movement phase it may."""
    goners = json.loads((Path(__file__).parent.parent / "game" / "fixtures" / "payola_goners.json").read_text())
    status = replace(parse_status(goners["status"]), variant="payola")
    italy = status.power("ITALY")
    status = status.with_power(with_balance(italy, 10))
    retreats = replace(status, phase=parse_phase(standard, "F1901R"))
    with pytest.raises(Refusal, match="NO_DONATIONS"):
        transfer_funds(in_hand(standard, retreats), "ITALY", "FRANCE", 5)
    assert transfer_funds(in_hand(standard, status), "ITALY", "FRANCE", 5).events
    donations_allowed = replace(retreats, rules=retreats.rules - {"NO_DONATIONS"})
    assert transfer_funds(in_hand(standard, donations_allowed), "ITALY", "FRANCE", 5).events
