"""JOIN, OBSERVE / MONITOR / ALLOWed types, TAKEOVER and RESIGN."""
from __future__ import annotations

from judge.notices import MasterChanged, Press
from judge.events import GameStarted, PlayerJoined, PlayerLeft, Resigned, TookOver
from judge.passwords import verify
from judge.status.model import Dppd, GameStage
from tests.support.commands import eml


def test_join_takes_the_next_seat(judge):
    judge.add("forming")
    sent = judge.send("join.eml")
    assert sent.outcome("JOIN").lines[0] == "You are now 'POWER#2' in game 'forming'."
    assert "JOIN forming ***" in sent.text and "s3cret" not in sent.text
    block = judge.status("forming").power("POWER#2")
    assert block.player.current == Dppd("NO-ID", "nora@example.net", "")
    assert block.address == ("nora@example.net",) and verify("s3cret", block.password)
    assert sent.events_of(PlayerJoined)[0].remaining == 5


def test_join_a_chosen_power_under_power_choice(judge):
    judge.add("forming")
    sent = judge.send("join_power.eml")
    assert sent.outcome("JOIN").lines[0] == "You are now 'FRANCE' in game 'forming'."
    assert verify("s3cret", judge.status("forming").power("FRANCE").password)


def test_join_a_chosen_power_needs_power_choice(judge):
    judge.add("forming", rules_off=frozenset({"POWER_CHOICE"}))  # RULE !POWER_CHOICE
    sent = judge.send("join_power.eml")
    assert sent.failed and "no POWER_CHOICE" in sent.text
    assert judge.status("forming").power("FRANCE") is None


def test_private_game_needs_the_privacy_password(judge):
    judge.add("forming", private="CLUB")
    refused = judge.send("join.eml")
    assert refused.failed and "is private" in refused.text
    wrong = judge.send("join_wrong_privacy.eml")
    assert wrong.failed and "wrong privacy password" in wrong.text
    assert judge.status("forming").power("POWER#2") is None
    assert not judge.send("join_private.eml").failed
    assert judge.status("forming").power("POWER#2") is not None


def test_the_last_join_starts_the_game(judge):
    judge.add("almost")
    sent = judge.send("join_last.eml")
    assert "The game has started" in sent.text
    status = judge.status("almost")
    assert str(status.phase) == "SPRING 1901 MOVEMENT" and status.deadline is not None
    assert sent.events_of(GameStarted)
    assert (judge.store.root / "almost" / "status.FORMING").is_file()


def test_join_refused_once_the_game_runs(vienna):
    sent = vienna.send("join_running.eml")
    assert sent.failed and "is not forming" in sent.text


def test_a_player_joins_once(judge):
    judge.add("forming")
    sent = judge.send("join_again.eml")
    assert sent.failed and "already plays POWER#1" in sent.text


def test_observe(vienna):
    sent = vienna.send("observe.eml")
    assert sent.outcome("OBSERVE").lines[0] == "You are now OBSERVER 'LOUDMOUTH' in game 'vienna'."
    block = vienna.status("vienna").power("LOUDMOUTH")
    assert block.kind == "OBSERVER" and verify("shh", block.password)
    assert block.address == ("sam@example.net",)


def test_observe_by_the_first_letters(vienna):
    assert not vienna.send("observe_short.eml").failed
    assert vienna.status("vienna").power("LOUDMOUTH").kind == "OBSERVER"


def test_monitor(vienna):
    sent = vienna.send("monitor.eml")
    assert "MONITOR 'NOSYPARKER'" in sent.text
    assert vienna.status("vienna").power("NOSYPARKER").kind == "MONITOR"


def test_other_types_need_allow(judge):
    judge.add("vienna")
    sent = judge.send("spy.eml")
    assert sent.failed and "SPY is not a kind of player" in sent.text
    judge.add("spies", fixture="vienna", allow=frozenset({"SPY", "MONITOR"}))
    sent = judge.send(eml("spy.eml", (b"@vienna", b"@spies")))
    assert not sent.failed and judge.status("spies").power("SPYSRUS").kind == "SPY"


def test_observer_names_may_not_look_like_powers(vienna):
    sent = vienna.send("observe_bad_name.eml")
    assert sent.failed and "cannot be a player's name" in sent.text
    taken = vienna.send("observe_taken_name.eml")
    assert taken.failed and "already taken" in taken.text


def test_an_observer_changes_role_with_its_password(judge):
    judge.add("vienna", fixture="forming")
    observer = judge.send("observe.eml")
    assert not observer.failed
    sam = (b"Nora Newbie <nora@example.net>", b"Sam <sam@example.net>")
    wrong = judge.send(eml("join.eml", sam, (b"JOIN forming s3cret", b"JOIN vienna s3cret")))
    assert wrong.failed and "give that role's password" in wrong.text
    right = judge.send(eml("join.eml", sam, (b"JOIN forming s3cret", b"JOIN vienna shh")))
    assert not right.failed
    status = judge.status("vienna")
    assert status.power("LOUDMOUTH") is None and verify("shh", status.power("POWER#2").password)


def test_takeover_a_vacant_power_signs_on(vienna):
    sent = vienna.send("takeover.eml")
    assert "You have taken over ITALY" in sent.outcome("TAKEOVER").lines[0]
    assert sent.outcome("PRESS").lines[0] == "Press sent to MASTER."
    italy = vienna.status("vienna").power("ITALY")
    assert italy.player.current.email == "nora@example.net" and verify("n3wpw", italy.password)
    assert vienna.status("vienna").need == ()
    assert sent.events_of(TookOver) and sent.events_of(Press)


def test_takeover_says_the_phase_the_deadline_and_the_units(vienna):
    lines = vienna.send("takeover.eml").outcome("TAKEOVER").lines
    assert lines[1] == "The game is in phase SPRING 1902 MOVEMENT."
    assert lines[2].startswith("The deadline is Monday 10 February 2025")
    assert lines[3] == "ITALY has " + ", ".join(
        str(u) for u in vienna.status("vienna").power("ITALY").units) + "."


def test_takeover_by_initial(vienna):
    assert not vienna.send("takeover_initial.eml").failed
    assert verify("n3wpw", vienna.status("vienna").power("ITALY").password)


def test_takeover_of_a_power_in_play_is_refused(vienna):
    before = vienna.text("vienna")
    sent = vienna.send("takeover_taken.eml")
    assert sent.failed and "FRANCE is not vacant" in sent.text
    assert vienna.text("vienna") == before


def test_takeover_of_the_master_role(vienna):
    sent = vienna.send("takeover_master.eml")
    assert "You are now the Master of game 'vienna'" in sent.text
    status = vienna.status("vienna")
    assert status.master.email == "nora@example.net" and verify("mine", status.password)
    assert sent.events_of(MasterChanged)[0].old_addresses == ("joe@blow.com",)


def test_takeover_of_the_master_role_needs_the_masters_password(vienna):
    before = vienna.text("vienna")
    sent = vienna.send("takeover_master_wrong.eml")
    assert sent.failed and "wrong password for MASTER" in sent.text
    assert vienna.text("vienna") == before


def test_resign_at_the_end_of_the_mail(vienna):
    sent = vienna.send("resign.eml")
    assert "you will be resigned at the end of this mail" in sent.outcome("RESIGN Gvienna").lines[0]
    assert sent.outcome("BROADCAST").lines[0] == "Broadcast sent."
    assert "You have resigned GERMANY" in sent.reply.outcomes[-1].lines[0]
    germany = vienna.status("vienna").power("GERMANY")
    assert germany.player.resigned and germany.password is None
    assert [n.power for n in vienna.status("vienna").need] == ["GERMANY", "ITALY"]
    assert sent.events_of(Resigned)


def test_a_mail_with_an_error_does_not_resign(vienna):
    sent = vienna.send("resign_broken.eml")
    assert sent.failed and "PRES TO M" in sent.text
    assert not vienna.status("vienna").power("GERMANY").player.resigned
    assert "Not done, as this mail had an error: the resignation of GERMANY." in sent.text


def test_the_master_never_resigns(vienna):
    sent = vienna.send("resign_master.eml")
    assert sent.failed and "the Master may never RESIGN" in sent.text


def test_resign_a_seat_while_forming(judge):
    judge.add("forming")
    sent = judge.send("resign_forming.eml")
    assert not sent.failed and sent.events_of(PlayerLeft)
    assert judge.status("forming").power("POWER#1") is None
    assert judge.status("forming").phase is GameStage.FORMING
