"""Press as a use case, without a door: the rules checked before anything is sent, the Master
bound by none, orders given earlier in the request counted under MUST_ORDER, and the routing."""
from __future__ import annotations

import pytest

from judge.app.game_in_hand import GameInHand
from judge.app.press import PressRequest, check, routed
from judge.app.refusal import Refusal
from judge.game.rules import rules_in_force
from judge.game.standing import GameState
from judge.status.model import GameStatus
from judge.types import MASTER
from tests.support.games import NOW, running

TO_ENGLAND = PressRequest(broadcast=False, to=("ENGLAND",))


def in_hand(m, status: GameStatus) -> GameInHand:
    return GameInHand("demo", status, m, rules_in_force(status, m), GameState.ACTIVE, NOW)


def test_no_press_leaves_press_to_the_master_only_and_binds_no_master(standard):
    game = in_hand(standard, running(standard, "RULE NO_PRESS"))
    with pytest.raises(Refusal, match="NO_PRESS"):
        check(game, "FRANCE", TO_ENGLAND, {})
    check(game, "FRANCE", PressRequest(broadcast=False, to=(MASTER,)), {})
    check(game, MASTER, TO_ENGLAND, {})


def test_must_order_counts_the_orders_given_earlier_in_the_request(standard):
    game = in_hand(standard, running(standard, "RULE MUST_ORDER"))
    with pytest.raises(Refusal, match="MUST_ORDER"):
        check(game, "FRANCE", TO_ENGLAND, {})
    check(game, "FRANCE", TO_ENGLAND, {"FRANCE": ["A PAR H"]})


def test_an_empty_message_is_refused_and_a_fake_one_routed_as_it_claims(standard):
    game = in_hand(standard, running(standard, "RULE FAKE_PRESS"))
    with pytest.raises(Refusal, match="empty"):
        routed(game, "FRANCE", TO_ENGLAND, [])
    faked = PressRequest(broadcast=False, to=("ENGLAND",), fake_to=("ENGLAND", "GERMANY"))
    check(game, "FRANCE", faked, {})
    assert routed(game, "FRANCE", faked, ["Hello"]).shown_to == ("ENGLAND", "GERMANY")
