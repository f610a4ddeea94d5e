"""SET DEADLINE as a use case, without a door: who may set it, and a player only later."""
from __future__ import annotations

import pytest

from judge.app.deadlines import set_to, settable
from judge.app.game_in_hand import GameInHand, deadline
from judge.app.refusal import Refusal
from judge.game.rules import rules_in_force
from judge.game.standing import GameState
from judge.status.model import GameStatus
from judge.types import MASTER
from tests.support.games import NOW, D, H, forming, game


def in_hand(m, status: GameStatus) -> GameInHand:
    return GameInHand("demo", status, m, rules_in_force(status, m), GameState.ACTIVE, NOW)


def test_the_master_may_move_the_deadline_earlier(standard):
    moved = set_to(in_hand(standard, game(standard)), standard, MASTER, True, D - 24 * H)
    assert deadline(moved.status, rules_in_force(moved.status, standard)) == D - 24 * H


def test_a_player_sets_none_without_player_deadlines(standard):
    with pytest.raises(Refusal, match="no PLAYER_DEADLINES"):
        set_to(in_hand(standard, game(standard)), standard, "FRANCE", False, D + H)


def test_under_player_deadlines_a_player_lengthens_but_never_shortens(standard):
    played = in_hand(standard, game(standard, "RULE PLAYER_DEADLINES"))
    later = set_to(played, standard, "FRANCE", False, D + H)
    assert deadline(later.status, rules_in_force(later.status, standard)) == D + H
    with pytest.raises(Refusal, match="only the Master may move a deadline earlier"):
        set_to(played, standard, "FRANCE", False, D - H)


@pytest.mark.parametrize("status, why", [
    (lambda m: forming(), "is forming: it has no deadline"),
    (lambda m: game(m, "RULE NO_DEADLINE"), "no deadline to set"),
])
def test_a_game_without_a_deadline_has_none_to_set(standard, status, why):
    with pytest.raises(Refusal, match=why):
        settable(in_hand(standard, status(standard)), MASTER, True)
