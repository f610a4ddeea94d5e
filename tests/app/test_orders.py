"""The orders use case without a door: the game as read, the power, its lines and the time in;
the status with the orders stored, or a refusal saying why, out. The same checks hold whatever
door the orders came through."""
from __future__ import annotations

from dataclasses import replace

import pytest

from judge.app.game_in_hand import GameInHand
from judge.app.orders import submit
from judge.app.refusal import Refusal
from judge.game.rules import rules_in_force
from judge.game.standing import GameState
from tests.support.games import D, H, game


def in_hand(standard, *lines: str, now=D - H, state=GameState.ACTIVE) -> GameInHand:
    status = game(standard, *lines)
    return GameInHand("demo", status, standard, rules_in_force(status, standard), state, now)


def test_orders_are_stored_as_the_power_s_whole_set(standard):
    stored = submit(in_hand(standard), "FRANCE", ["A PAR - BUR", "F BRE - MAO"])
    assert stored.on_file == ("A PAR - BUR", "F BRE - MAO")
    assert stored.status.power("FRANCE").orders == stored.on_file
    assert submit(replace(in_hand(standard), status=stored.status), "FRANCE", ["CLEAR"]).on_file == ()


def test_a_bad_line_refuses_them_all_with_each_reason(standard):
    with pytest.raises(Refusal) as refused:
        submit(in_hand(standard), "FRANCE", ["A PAR - BUR", "A MUN - BER", "F BRE - ZZZ"])
    assert refused.value.reason.startswith("2 of the orders for FRANCE could not be accepted")
    assert len(refused.value.details) == 2


def test_no_late_changes_holds_after_the_deadline(standard):
    first = submit(in_hand(standard, "RULE NO_LATE_CHANGES"), "FRANCE", ["A PAR - BUR"])
    late = replace(in_hand(standard, "RULE NO_LATE_CHANGES", now=D + H), status=first.status)
    with pytest.raises(Refusal, match="NO_LATE_CHANGES"):
        submit(late, "FRANCE", ["A PAR H"])


def test_a_terminated_game_takes_no_orders(standard):
    with pytest.raises(Refusal, match="terminated: orders is refused"):
        submit(in_hand(standard, state=GameState.TERMINATED), "FRANCE", ["A PAR H"])
