"""The Master's PROCESS and ROLLBACK as use cases, without a door: the checks hold and the
outcome says what changed."""
from __future__ import annotations

from dataclasses import replace

import pytest

from judge.app.game_in_hand import GameInHand
from judge.app.game_state import reveal
from judge.app.master import preview_phase, process, roll
from judge.app.refusal import Refusal
from judge.game.rules import rules_in_force
from judge.game.standing import FREE, GameState
from judge.notices import StateChanged
from judge.rule_names import Rule
from judge.status.model import GameStage
from judge.types import Phase
from tests.support.games import D, H, game


def in_hand(standard, status=None, now=D + H, state=GameState.ACTIVE) -> GameInHand:
    status = status or game(standard)
    return GameInHand("demo", status, standard, rules_in_force(status, standard), state, now)


def test_a_phase_not_ready_is_refused_with_what_would_process_it(standard):
    with pytest.raises(Refusal) as refused:
        process(in_hand(standard), standard, FREE, force=False)
    assert refused.value.details == ("PROCESS! processes it now, the missing orders defaulted.",)


def test_process_forced_moves_the_game_on_and_keeps_the_phase_it_left(standard):
    before = in_hand(standard)
    moved = process(before, standard, FREE, force=True)
    assert moved.processed is not None and moved.processed.phase == before.status.phase
    assert moved.status.phase == Phase("FALL", 1901, "MOVEMENT")
    assert moved.snapshot_text is not None and "PHASE SPRING 1901 MOVEMENT" in moved.snapshot_text


def test_a_terminated_game_is_not_processed(standard):
    with pytest.raises(Refusal, match="terminated: PROCESS! is refused"):
        process(in_hand(standard, state=GameState.TERMINATED), standard, FREE, True, "PROCESS!")


def test_a_completed_game_is_not_rolled(standard):
    done = replace(game(standard), phase=GameStage.COMPLETED)
    with pytest.raises(Refusal, match="completed game cannot be rolled"):
        roll(in_hand(standard, done), standard, FREE, game(standard), restore=False, full=False,
             forward=False)


def test_a_bug_in_processing_is_told_apart_from_a_refusal(standard, monkeypatch):
    from judge.app import master
    from judge.app.processing import ProcessingFailed

    def exploding(*args, **kwargs):
        raise KeyError("PAR")
    monkeypatch.setattr(master, "on_process", exploding)
    with pytest.raises(ProcessingFailed) as failed:
        process(in_hand(standard), standard, FREE, force=True)
    assert failed.value.game == "demo" and isinstance(failed.value.__cause__, KeyError)


def test_a_preview_is_what_processing_would_give_and_changes_nothing(standard):
    before = in_hand(standard)
    shown = preview_phase(before, standard)
    assert shown.results.phase == before.status.phase
    with pytest.raises(Refusal, match="no phase to preview"):
        preview_phase(in_hand(standard, replace(game(standard), phase=GameStage.COMPLETED)),
                      standard)


def test_reveal_turns_no_reveal_off_once_the_game_is_over(standard):
    hidden = game(standard, "RULE NO_REVEAL")
    with pytest.raises(Refusal, match="waits until the game is completed"):
        reveal(in_hand(standard, hidden))
    shown = reveal(in_hand(standard, replace(hidden, phase=GameStage.COMPLETED)))
    assert Rule.NO_REVEAL not in shown.status.rules and Rule.NO_REVEAL in shown.status.rules_off
    assert shown.events == (StateChanged("demo", "revealed"),)
    with pytest.raises(Refusal, match="for NO_REVEAL games"):
        reveal(in_hand(standard, replace(game(standard), phase=GameStage.COMPLETED)))
