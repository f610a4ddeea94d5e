"""The game's state and listing (`judge.game.standing`): the state file read and written, the state of a
game, and the Master's FORM, ACTIVATE, WAIT and TERMINATE as pure functions."""
from __future__ import annotations

from dataclasses import replace

import pytest

from judge.errors import StateError
from judge.game import GameError
from judge.game.standing import (
    FREE,
    GameState,
    Standing,
    activate,
    form,
    game_state,
    parse_standing,
    settled,
    terminate,
    wait,
    write_standing,
)
from judge.status import parse_status
from judge.status.model import GameStage, Need
from tests.support.games import forming

PREPARATION = Standing(GameState.PREPARATION)
WAITING = Standing(GameState.WAITING)
TERMINATED = Standing(GameState.TERMINATED)


def playing(*lines: str):
    return parse_status("GAME demo\nPHASE SPRING 1901 MOVEMENT\nMAP standard\n"
                        + "".join(line + "\n" for line in lines))


# --- the file ------------------------------------------------------------------------------------------

def test_no_file_is_nothing_kept_and_listed():
    assert parse_standing("") == FREE and FREE.listed and not FREE.held


def test_the_file_read_case_and_comments_not_minding():
    text = "# held for a dispute\nstate Waiting\n\nLISTED  no  # the Master asked\n"
    assert parse_standing(text) == Standing(GameState.WAITING, listed=False)


@pytest.mark.parametrize("standing", [FREE, PREPARATION, WAITING, TERMINATED,
                                      Standing(listed=False),
                                      Standing(GameState.PREPARATION, listed=False)])
def test_written_and_read_back(standing):
    assert parse_standing(write_standing(standing)) == standing


def test_nothing_kept_is_written_as_nothing():
    assert write_standing(FREE) == ""
    assert write_standing(Standing(GameState.WAITING, listed=False)) == "STATE waiting\nLISTED no\n"


def test_every_bad_line_is_reported_with_its_place():
    text = "STATE paused\nLISTED maybe\nCOLOUR blue\nSTATE waiting\nLISTED\n"
    with pytest.raises(StateError) as caught:
        parse_standing(text, "demo/state")
    problems = [str(p) for p in caught.value.problems]
    assert "demo/state:3: unknown line 'COLOUR': STATE, LISTED or SEATS" in problems
    assert "demo/state:4: STATE is given twice (first on line 1)" in problems
    assert "demo/state:5: LISTED takes one word" in problems
    assert "demo/state:1: STATE is preparation, waiting or terminated, not 'paused'" in problems
    assert "demo/state:2: LISTED is yes or no, not 'maybe'" in problems


@pytest.mark.parametrize("word", ["forming", "active", "completed"])
def test_a_state_the_status_tells_is_not_kept(word):
    with pytest.raises(StateError, match="read from the status file's PHASE"):
        parse_standing(f"STATE {word}\n")


# --- the state -----------------------------------------------------------------------------------------

def test_the_state_read_from_the_status():
    assert game_state(forming()) is GameState.FORMING
    assert game_state(playing()) is GameState.ACTIVE
    needing = replace(playing(), need=(Need("ITALY", 1, 2),))
    assert game_state(needing) is GameState.WAITING
    assert game_state(replace(playing(), phase=GameStage.COMPLETED)) is GameState.COMPLETED


def test_the_kept_state_comes_first_but_completed_is_completed():
    assert game_state(forming(), PREPARATION) is GameState.PREPARATION
    assert game_state(playing(), WAITING) is GameState.WAITING
    assert game_state(playing(), TERMINATED) is GameState.TERMINATED
    done = replace(playing(), phase=GameStage.COMPLETED)
    assert game_state(done, WAITING) is GameState.COMPLETED
    assert settled(done, WAITING) == FREE and settled(playing(), WAITING) == WAITING


def test_held_hidden_and_listed():
    assert PREPARATION.held and PREPARATION.hidden and not PREPARATION.in_list
    assert WAITING.held and not WAITING.hidden and WAITING.in_list
    assert not Standing(listed=False).in_list and not Standing(listed=False).held


# --- the Master's commands -------------------------------------------------------------------------

def test_form_takes_a_game_out_of_preparation():
    assert form(forming(), Standing(GameState.PREPARATION, listed=False)) == Standing(listed=False)


def test_form_of_a_started_game_needs_a_rollback():
    with pytest.raises(GameError, match="ROLLBACK FORMING"):
        form(playing(), WAITING)


def test_activate_from_preparation_starts_a_forming_game():
    assert activate(forming(), PREPARATION) == (FREE, True)


def test_activate_from_preparation_keeps_a_position_set_up():
    assert activate(playing(), PREPARATION) == (FREE, False)


def test_activate_ends_a_hold_even_while_replacements_are_needed():
    needing = replace(playing(), need=(Need("ITALY", 1, 2),))
    assert activate(needing, WAITING) == (FREE, False)
    with pytest.raises(GameError, match="waits for replacements of ITALY"):
        activate(needing, FREE)


def test_wait_holds_a_game_in_play_only():
    assert wait(playing(), FREE) == WAITING
    assert wait(playing(), TERMINATED) == WAITING
    with pytest.raises(GameError, match="has not started"):
        wait(forming(), FREE)
    with pytest.raises(GameError, match="in preparation"):
        wait(playing(), PREPARATION)


def test_terminate_any_game_not_completed():
    for status, standing in ((forming(), PREPARATION), (playing(), FREE), (playing(), WAITING)):
        assert terminate(status, standing).state is GameState.TERMINATED


@pytest.mark.parametrize("command", [form, wait, terminate,
                                     lambda s, st: activate(s, st)[0]])
def test_a_completed_game_cannot_be_changed(command):
    done = replace(playing(), phase=GameStage.COMPLETED)
    with pytest.raises(GameError, match="completed"):
        command(done, FREE)


def test_the_listing_stays_through_the_state_changes():
    unlisted = Standing(listed=False)
    assert not wait(playing(), unlisted).listed and not terminate(playing(), unlisted).listed
