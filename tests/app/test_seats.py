"""JOIN, TAKEOVER and RESIGN as use cases, without a door: the game's state closes it, the last
seat starts the game, a resigned power is taken over, an observer just leaves."""
from __future__ import annotations

from dataclasses import replace

import pytest

from judge.app.game_in_hand import GameInHand
from judge.app.refusal import Refusal
from judge.app.seats import (
    dummy,
    join_game,
    leave,
    master_resigns,
    new_master,
    revive,
    take_over,
    watch,
    watcher_kind,
)
from judge.game.rules import rules_in_force
from judge.game.standing import GameState, game_state
from judge.notices import MasterChanged
from judge.status.model import Dppd, GameStage, GameStatus, PlayerHistory, PowerStatus
from tests.support.games import NOW, forming, player, running


def in_hand(m, status: GameStatus, state: GameState | None = None) -> GameInHand:
    return GameInHand("demo", status, m, rules_in_force(status, m), state or game_state(status),
                      NOW)


@pytest.mark.parametrize("state, why", [(GameState.PREPARATION, "in preparation: JOIN waits"),
                                        (GameState.TERMINATED, "terminated: JOIN is refused")])
def test_a_closed_game_takes_no_join(standard, state, why):
    with pytest.raises(Refusal, match=why):
        join_game(in_hand(standard, forming(), state), player(1), "hash", (), None)


def test_the_last_join_starts_the_game(standard):
    status = running(standard, players=len(standard.powers) - 1)
    seated = join_game(in_hand(standard, status), player(99), "hash", ("p@example.org",), None)
    assert seated.joined.remaining == 0 and not seated.status.forming


def test_a_resigned_power_is_taken_over_and_a_playing_one_is_not(standard):
    status = running(standard)
    resigned = leave(in_hand(standard, status), "FRANCE", by_master=False)
    assert resigned.left is None and resigned.status.power("FRANCE").player.resigned
    taken = take_over(in_hand(standard, resigned.status), "FRANCE", player(7), "hash", ())
    assert taken.status.power("FRANCE").player.current == player(7)
    with pytest.raises(Refusal):
        take_over(in_hand(standard, status), "ENGLAND", player(8), "hash", ())


def test_an_observer_leaves_without_a_trace(standard):
    status = running(standard)
    watcher = PowerStatus(name="LOUD", kind="OBSERVER", player=PlayerHistory(player(9)))
    left = leave(in_hand(standard, status.with_power(watcher)), "LOUD", by_master=False)
    assert left.left == "OBSERVER" and left.status == status


def test_the_master_s_dummy_waits_for_the_game_to_start_and_resign_makes_it_vacant(standard):
    with pytest.raises(Refusal, match="once the game has started"):
        dummy(in_hand(standard, forming()), "FRANCE")
    made = dummy(in_hand(standard, running(standard)), "FRANCE")
    assert made.status.power("FRANCE").player.dummy
    vacated = master_resigns(in_hand(standard, made.status), "FRANCE")
    assert vacated.undummied and vacated.status.power("FRANCE").player.resigned


def test_the_master_s_resign_of_a_played_power_resigns_its_player(standard):
    resigned = master_resigns(in_hand(standard, running(standard)), "ITALY")
    assert not resigned.undummied and resigned.status.power("ITALY").player.resigned


def test_a_watcher_takes_a_kind_the_game_knows_and_a_free_name(standard):
    status = running(standard)
    assert watcher_kind(status, "obs") == "OBSERVER" and watcher_kind(status, "MONITOR") == "MONITOR"
    with pytest.raises(Refusal, match="not a kind of player"):
        watcher_kind(status, "SPY")
    seated = watch(in_hand(standard, status), "LOUD", "OBSERVER", player(9), "hash", ("o@x.org",))
    assert seated.status.power("LOUD").kind == "OBSERVER"
    assert seated.status.power("LOUD").address == ("o@x.org",)
    for taken in ("LOUD", "FRANCE", "EF", "MASTER", "JK"):
        with pytest.raises(Refusal):
            watch(in_hand(standard, seated.status), taken, "OBSERVER", player(9), "hash", ())


def test_a_game_over_takes_no_watcher(standard):
    over = replace(running(standard), phase=GameStage.COMPLETED)
    with pytest.raises(Refusal, match="game 'demo' is over"):
        watch(in_hand(standard, over), "LOUD", "OBSERVER", player(9), "hash", ())


def test_revive_gives_a_resigned_power_back_to_its_last_player(standard):
    status = running(standard)
    before = status.power("FRANCE").player
    resigned = leave(in_hand(standard, status), "FRANCE", by_master=False).status
    revived = revive(in_hand(standard, resigned), "FRANCE", "new-hash").status.power("FRANCE")
    assert revived.player.current == before.current and not revived.player.resigned
    assert revived.player.handovers == before.handovers and revived.password == "new-hash"


def test_revive_undoes_only_a_resignation(standard):
    with pytest.raises(Refusal, match="FRANCE has no resignation to undo"):
        revive(in_hand(standard, running(standard)), "FRANCE", "new-hash")


def test_a_new_master_takes_the_game_over_by_address(standard):
    status = running(standard)
    taken = new_master(in_hand(standard, status), "heir@example.org").status
    assert taken.master.email == "heir@example.org"
    assert taken.powers == status.powers


def test_the_old_master_and_the_new_are_told(standard):
    status = replace(running(standard), master=Dppd("NO-ID", "Old@Example.org", ""))
    told = new_master(in_hand(standard, status), "heir@example.org").events
    assert told == (MasterChanged("demo", ("old@example.org",), "heir@example.org"),)
