"""A power's vote as a use case, without a door: who votes, NO_DRAW, the game's end, proposals."""
from __future__ import annotations

import pytest

from judge.app.game_in_hand import GameInHand
from judge.app.refusal import Refusal
from judge.app.votes import proposal, vote
from judge.game.rules import rules_in_force
from judge.game.standing import GameState
from judge.status.model import GameStatus, Vote, VoteKind
from judge.types import MASTER
from tests.support.games import NOW, running

SOLO, LOSS = Vote(VoteKind.SOLO), Vote(VoteKind.LOSS)


def in_hand(m, status: GameStatus) -> GameInHand:
    return GameInHand("demo", status, m, rules_in_force(status, m), GameState.ACTIVE, NOW)


@pytest.mark.parametrize("actor", [MASTER, "JUDGEKEEPER"])
def test_only_the_powers_vote(standard, actor):
    with pytest.raises(Refusal, match="only the powers vote"):
        vote(in_hand(standard, running(standard)), actor, SOLO)


def test_no_draw_refuses_a_draw_vote_but_not_a_solo(standard):
    game = in_hand(standard, running(standard, "RULE NO_DRAW"))
    with pytest.raises(Refusal, match="NO_DRAW"):
        vote(game, "FRANCE", Vote(VoteKind.DRAW, 3))
    assert vote(game, "FRANCE", SOLO).status.power("FRANCE").vote == SOLO


def test_the_last_vote_of_a_concession_ends_the_game(standard):
    status = running(standard)
    for power in standard.powers:
        voted = vote(in_hand(standard, status), power, SOLO if power == "TURKEY" else LOSS)
        status = voted.status
    assert voted.ended and voted.events[-1].victors == ("TURKEY",)


def test_a_proposal_needs_propose_dias_and_says_why(standard):
    with pytest.raises(Refusal, match="only under PROPOSE_DIAS"):
        proposal(in_hand(standard, running(standard)), "FRANCE", "DIAS")
    made = proposal(in_hand(standard, running(standard, "RULE PROPOSE_DIAS")), "FRANCE", "DIAS")
    assert made.status.proposal.result == "DIAS" and not made.ended
