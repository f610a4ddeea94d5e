"""MORPH as a use case, without a door: the lines kept, the victory count before and after, a
game over keeps its map, and no unit is left where it cannot stand."""
from __future__ import annotations

from dataclasses import replace

import pytest

from judge.app.game_in_hand import GameInHand
from judge.app.morph import morph
from judge.app.refusal import Refusal
from judge.game.rules import rules_in_force
from judge.game.standing import GameState
from judge.maps.loader import load_map
from judge.notices import VictoryChanged
from judge.status.model import GameStage, GameStatus
from tests.support.games import NOW, game, unit


def in_hand(m, status: GameStatus) -> GameInHand:
    return GameInHand("demo", status, m, rules_in_force(status, m), GameState.ACTIVE, NOW)


def test_the_lines_are_kept_and_the_victory_count_told_before_and_after(standard):
    after = load_map("standard", morphs=["VICTORY 17"])
    done = morph(in_hand(standard, game(standard)), standard, after, ("VICTORY 17",))
    assert done.status.morphs == ("VICTORY 17",) and done.map is after
    assert (done.year, done.victory_before, done.victory_after) == (1901, 18, 17)
    assert done.events == (VictoryChanged("demo", 1901, 18, 17),)


def test_lines_that_keep_the_victory_count_tell_nobody(standard):
    after = load_map("standard", morphs=["VICTORY 18"])
    assert morph(in_hand(standard, game(standard)), standard, after, ("VICTORY 18",)).events == ()


def test_a_unit_that_could_not_stand_where_it_is_refuses_the_lines(standard):
    status = game(standard)
    england = status.power("ENGLAND")
    at_sea = status.with_power(replace(england, units=(unit("F NTH"), *england.units[1:])))
    with pytest.raises(Refusal, match="could not stand where they are") as refused:
        morph(in_hand(standard, at_sea), standard, load_map("standard", morphs=["LAND NTH"]),
              ("LAND NTH",))
    assert refused.value.details == ("ENGLAND F NTH",)


def test_a_game_over_keeps_its_map(standard):
    over = replace(game(standard), phase=GameStage.COMPLETED)
    with pytest.raises(Refusal, match="the game is over"):
        morph(in_hand(standard, over), standard, standard, ("VICTORY 17",))
