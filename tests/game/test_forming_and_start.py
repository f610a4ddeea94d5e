"""FORMING: joining seats, POWER_CHOICE, START_MASTER, dummies and teams, the random assignment."""
from __future__ import annotations

import pytest

from judge.events import GameFull, GameStarted, PlayerLeft
from judge.game import GameError, join, resign, start_game
from judge.game.start import assign
from judge.status.model import Vacancy
from judge.types import Phase
from tests.support.games import NOW, forming, player, round_trip


def fill(status, m, count, first=0):
    events = []
    for n in range(first, first + count):
        status, events = join(status, m, NOW, player(n), f"pw{n}")
    return status, events


def test_players_join_as_numbered_seats(standard):
    s, events = fill(forming(), standard, 2)
    assert [b.name for b in s.powers] == ["POWER#1", "POWER#2"]
    assert events[0].remaining == 5
    text = round_trip(s)
    assert "POWER POWER#2\nPLAYER NO-ID|player1@example.org|Player_1\nADDRESS player1@example.org" in text


def test_a_seat_freed_while_forming_is_taken_again(standard):
    s, _ = fill(forming(), standard, 3)
    s, events = resign(s, standard, "POWER#2")
    assert isinstance(events[0], PlayerLeft) and [b.name for b in s.powers] == ["POWER#1", "POWER#3"]
    s, _ = join(s, standard, NOW, player(9), "pw")
    assert [b.name for b in s.powers] == ["POWER#1", "POWER#3", "POWER#2"]


def test_one_address_one_seat(standard):
    s, _ = fill(forming(), standard, 1)
    with pytest.raises(GameError, match="already plays"):
        join(s, standard, NOW, player(0), "pw")


def test_the_last_join_starts_the_game(standard):
    s, events = fill(forming(), standard, 7)
    started = events[-1]
    assert isinstance(started, GameStarted) and started.phase == Phase("SPRING", 1901, "MOVEMENT")
    assert sorted(a.power for a in started.assignments) == sorted(standard.powers)
    assert [b.name for b in s.powers] == sorted(standard.powers)
    assert s.power("FRANCE").owns == ("BRE", "MAR", "PAR") and len(s.power("RUSSIA").units) == 4
    round_trip(s)


def test_the_assignment_is_reproducible_from_the_status(standard):
    s, _ = fill(forming(), standard, 7)
    again, _ = fill(forming(), standard, 7)
    assert s == again
    other = assign(fill(forming(name="other"), standard, 6)[0], standard, "other|x")
    assert len(other) == 6


def test_start_master_holds_the_full_game(standard):
    s, events = fill(forming("RULE START_MASTER"), standard, 7)
    assert isinstance(events[-1], GameFull) and s.forming
    s, events = start_game(s, standard, NOW)
    assert isinstance(events[0], GameStarted) and not s.forming


def test_power_choice_keeps_the_chosen_power(standard):
    s = forming("RULE POWER_CHOICE")
    s, _ = join(s, standard, NOW, player(0), "pw", power="italy")
    assert s.powers[0].name == "ITALY"
    with pytest.raises(GameError, match="already taken"):
        join(s, standard, NOW, player(1), "pw", power="ITALY")
    s, _ = fill(s, standard, 6, first=1)
    assert s.power("ITALY").player.current == player(0)


def test_choosing_a_power_needs_power_choice(standard):
    with pytest.raises(GameError, match="POWER_CHOICE"):
        join(forming(), standard, NOW, player(0), "pw", power="ITALY")


def test_a_master_started_game_not_full_makes_dummies(standard):
    s, _ = fill(forming("RULE START_MASTER"), standard, 5)
    s, _ = start_game(s, standard, NOW)
    dummies = [b.name for b in s.powers if b.player.current is Vacancy.DUMMY]
    assert len(dummies) == 2


def test_team_dummies_need_no_player(standard):
    s = forming("TEAMS ENGLAND-FRANCE")
    s, events = fill(s, standard, 6)
    assert isinstance(events[-1], GameStarted)
    france = s.power("FRANCE")
    assert france.player.current is Vacancy.DUMMY and france.control == ("ENGLAND",)
    round_trip(s)


def test_the_first_deadline_is_doubled(standard):
    s, _ = fill(forming("TIMING NEXT 2D AT 18:00"), standard, 7)
    assert s.deadline == "202501101800"  # Monday noon + 4 days, at 18:00


def test_testing_map_begins_at_its_begin_with_its_dummy(testing):
    s, _ = fill(forming(map_name="testing"), testing, 3)
    assert s.phase == Phase("SPRING", 1902, "MOVEMENT")
    pirates = s.power("_PIRATES")
    assert pirates.player.current is Vacancy.DUMMY and pirates.control == ("EASTLAND",)
    assert "SC!" in s.power("SOUTHLAND").owns
    round_trip(s)


def test_observers_join_beside_the_powers(standard):
    from judge.game import observe
    s, _ = observe(forming(), standard, "kibitz", player("k"), "pw")
    s, _ = fill(s, standard, 7)
    assert s.power("KIBITZ").kind == "OBSERVER" and not s.forming
    assert s.powers[-1].name == "KIBITZ"
    with pytest.raises(GameError, match="ALLOW"):
        observe(s, standard, "rich", player("r"), "pw", kind="INVESTOR")
    round_trip(s)
