"""CREATE and RENAME as use cases, without a door: the names taken and the sender's games come in
as values, as the door read them."""
from __future__ import annotations

import pytest

from judge.app.game_names import CreationLimits, Creator, creatable, create, rename
from judge.app.refusal import Refusal
from judge.game.standing import GameState, Standing
from judge.notices import GameCreated
from tests.support.games import forming

LIMITS = CreationLimits(forming=5, per_day=10)


def test_a_free_name_may_be_created():
    creatable("newgame", frozenset({"other"}), Creator(forming=4, created=9), LIMITS)


def test_a_name_taken_is_refused():
    with pytest.raises(Refusal, match="a game named 'demo' already exists"):
        creatable("demo", frozenset({"demo"}), Creator(0, 0), LIMITS)


def test_as_many_games_not_yet_started_as_the_judge_allows_refuse_another():
    with pytest.raises(Refusal, match="you are the Master of 5 games not yet started"):
        creatable("newgame", frozenset(), Creator(forming=5, created=0), LIMITS)


def test_as_many_games_created_in_a_day_as_the_judge_allows_refuse_another():
    with pytest.raises(Refusal, match="you have created 10 games in the last 24 hours"):
        creatable("newgame", frozenset(), Creator(forming=0, created=10), LIMITS)


def test_a_game_created_without_form_is_in_preparation(standard):
    created = create(forming(), standard, forms=False, listed=False, master="anne@example.org")
    assert created.standing == Standing(GameState.PREPARATION, False)
    assert created.status == forming()


def test_a_game_created_with_form_is_forming(standard):
    created = create(forming(), standard, forms=True, listed=True, master="anne@example.org")
    assert created.standing == Standing(None, True)


def test_a_solitaire_game_is_private(standard):
    assert create(forming("RULE SOLITAIRE"), standard, True, True, "anne@example.org").status.private == "SOLITAIRE"


def test_the_judgekeeper_and_the_maps_notify_addresses_are_told(standard):
    created = create(forming(), standard, True, True, "anne@example.org")
    assert created.events == (GameCreated("demo", "anne@example.org", "standard", False, standard.notify),)


def test_rename_gives_the_game_its_new_name():
    assert rename(forming(), "demo", "newname", frozenset()).name == "newname"


def test_a_rename_cut_short_after_the_status_was_written_is_done_again():
    assert rename(forming(name="newname"), "demo", "newname", frozenset()).name == "newname"


@pytest.mark.parametrize("new, taken", [("demo", frozenset()), ("other", frozenset({"other"}))])
def test_rename_to_its_own_name_or_a_name_taken_is_refused(new, taken):
    with pytest.raises(Refusal, match=f"a game named '{new}' already exists"):
        rename(forming(), "demo", new, taken)
