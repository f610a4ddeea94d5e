"""SET ADDRESS, SET PASSWORD, SET WAIT and SET MAP as use cases, without a door: each changes
the seat of the one asking, and the game decides when it may."""
from __future__ import annotations

from dataclasses import replace

import pytest

from judge.app.refusal import Refusal
from judge.app.seat_settings import (
    password_settable,
    set_address,
    set_password,
    set_picture,
    set_wait,
)
from judge.types import JUDGEKEEPER, MASTER
from tests.support.games import D, H, game, in_hand, running


def test_a_player_s_mail_goes_to_the_addresses_given(standard):
    changed = set_address(in_hand(standard, running(standard)), "FRANCE",
                          ("a@example.org", "b@example.org"))
    assert changed.status.power("FRANCE").address == ("a@example.org", "b@example.org")


def test_the_master_s_mail_goes_to_one_address(standard):
    status = running(standard)
    changed = set_address(in_hand(standard, status), MASTER, ("gm@example.org",))
    assert changed.status.master.email == "gm@example.org"
    with pytest.raises(Refusal, match="one address"):
        set_address(in_hand(standard, status), MASTER, ("a@example.org", "b@example.org"))
    with pytest.raises(Refusal, match="one address"):
        set_address(in_hand(standard, status), JUDGEKEEPER, ("a@example.org",))


def test_a_password_is_kept_as_hashed_and_a_controlled_power_has_none(standard):
    status = running(standard)
    changed = set_password(in_hand(standard, status), "ITALY", "new-hash")
    assert changed.status.power("ITALY").password == "new-hash"
    assert set_password(in_hand(standard, status), MASTER, "gm-hash").status.password == "gm-hash"
    controlled = status.with_power(replace(status.power("ITALY"), control=("FRANCE",)))
    with pytest.raises(Refusal, match="controlled by FRANCE"):
        set_password(in_hand(standard, controlled), "ITALY", "new-hash")
    with pytest.raises(Refusal, match="judgekeeper's password"):
        password_settable(JUDGEKEEPER)


def test_a_power_that_owes_orders_sets_its_wait_flag_before_the_deadline(standard):
    status = game(standard)
    assert set_wait(in_hand(standard, status), "FRANCE", True).status.power("FRANCE").wait
    with pytest.raises(Refusal, match="deadline has passed"):
        set_wait(in_hand(standard, status, now=D + H), "FRANCE", True)


def test_a_real_time_game_never_waits(standard):
    with pytest.raises(Refusal, match="REAL_TIME"):
        set_wait(in_hand(standard, game(standard, "RULE REAL_TIME")), "FRANCE", True)


def test_the_master_has_no_seat_to_set(standard):
    with pytest.raises(Refusal, match="SET MAP is for a player"):
        set_picture(in_hand(standard, running(standard)), MASTER, ["PNG"])


def test_a_picture_is_one_the_judge_draws(standard):
    status = running(standard)
    assert set_picture(in_hand(standard, status), "FRANCE", ["svg"]).status.power(
        "FRANCE").picture == "SVG"
    with pytest.raises(Refusal, match="SET MAP takes one of"):
        set_picture(in_hand(standard, status), "FRANCE", ["GIF"])
