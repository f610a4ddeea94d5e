"""The Master's state changes as use cases, without a door: FORM, ACTIVATE, WAIT and TERMINATE
say whether the state changed and start a forming game when they must."""
from __future__ import annotations

import pytest

from judge.app.game_in_hand import GameInHand
from judge.app.game_state import activate_game, form_game, purgeable, terminate_game, wait_game
from judge.app.refusal import Refusal
from judge.game import join
from judge.game.rules import rules_in_force
from judge.game.standing import FREE, GameState, Standing, game_state
from judge.notices import StateChanged
from judge.status.model import GameStatus
from tests.support.games import NOW, forming, game, player

PREPARATION = Standing(GameState.PREPARATION)


def in_hand(m, status: GameStatus, standing: Standing = FREE) -> GameInHand:
    return GameInHand("demo", status, m, rules_in_force(status, m), game_state(status, standing),
                      NOW)


def test_wait_holds_a_game_in_play_and_a_second_wait_changes_nothing(standard):
    held = wait_game(in_hand(standard, game(standard)), FREE)
    assert held.changed and held.state is GameState.WAITING
    assert held.events == (StateChanged("demo", "waiting"),)
    again = wait_game(in_hand(standard, game(standard), held.standing), held.standing)
    assert not again.changed and again.standing == held.standing and again.events == ()


def test_activate_lets_a_held_game_go_on_without_starting_it(standard):
    status = game(standard)
    held = Standing(GameState.WAITING)
    active = activate_game(in_hand(standard, status, held), held)
    assert active.changed and not active.started and active.state is GameState.ACTIVE
    assert active.status == status


def test_activate_starts_a_forming_game_with_its_events(standard):
    status = forming()
    started = activate_game(in_hand(standard, status, PREPARATION), PREPARATION)
    assert started.started and not started.changed and started.events
    assert started.status.phase == standard.begin and started.standing == FREE


def test_form_of_a_game_in_preparation_lets_players_join(standard):
    formed = form_game(in_hand(standard, forming(), PREPARATION), PREPARATION)
    assert formed.changed and not formed.started and formed.state is GameState.FORMING
    assert formed.events == (StateChanged("demo", "forming"),)


def test_form_of_a_game_already_forming_changes_nothing(standard):
    assert not form_game(in_hand(standard, forming()), FREE).changed


def test_form_of_a_started_game_is_refused_with_the_way_back(standard):
    with pytest.raises(Refusal, match="ROLLBACK FORMING"):
        form_game(in_hand(standard, game(standard)), FREE)


def test_terminate_ends_the_game_once(standard):
    ended = terminate_game(in_hand(standard, game(standard)), FREE)
    assert ended.changed and ended.state is GameState.TERMINATED
    assert not terminate_game(in_hand(standard, game(standard), ended.standing),
                              ended.standing).changed


def test_purge_takes_a_game_nobody_joined_that_has_not_started(standard):
    purgeable(forming(), GameState.FORMING, by_keeper=False)
    purgeable(forming(), GameState.PREPARATION, by_keeper=False)
    with pytest.raises(Refusal, match="has not started can be purged"):
        purgeable(game(standard), GameState.ACTIVE, by_keeper=False)
    purgeable(game(standard), GameState.ACTIVE, by_keeper=True)


def test_purge_waits_for_the_players_who_joined_to_resign(standard):
    joined, _ = join(forming(), standard, NOW, player(1), "pw1")
    with pytest.raises(Refusal, match=r"players have joined \(POWER#1\)"):
        purgeable(joined, GameState.FORMING, by_keeper=False)
