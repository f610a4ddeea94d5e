"""The Master's commands: state, PROCESS / PROCESS! / PREVIEW, ROLLBACK / ROLLFORWARD, RESIGN /
DUMMY / REVIVE a power, REVEAL, MORPH."""
from __future__ import annotations

from judge.notices import PasswordSet, StateChanged, VictoryChanged
from judge.mailout.mailings import Mailer
from judge.runtime.cycle import tick_game
from judge.events import (
    DeadlineSet,
    Dummied,
    GameStarted,
    PhaseResults,
    Preview,
    Resigned,
    RolledBack,
)
from judge.game.deadlines import current_deadline
from judge.passwords import verify
from judge.status.model import GameStage
from tests.support.commands import LATE, MAPS, TEMPLATES, eml


def test_master_commands_need_the_master(vienna):
    sent = vienna.send("master_by_player.eml")
    assert sent.failed and "only the Master may use PROCESS" in sent.text


def test_form_a_forming_game(judge):
    judge.add("forming")
    assert "Game 'forming' is forming." in judge.send("master_form.eml").text


def test_activate_starts_a_forming_game(judge):
    judge.add("almost", rules=("START_MASTER",))
    sent = judge.send("master_activate.eml")
    assert "has started: the phase is SPRING 1901 MOVEMENT" in sent.text
    assert sent.events_of(GameStarted)
    assert str(judge.status("almost").phase) == "SPRING 1901 MOVEMENT"
    assert (judge.store.root / "almost" / "status.FORMING").is_file()


def test_activate_a_game_waiting_for_replacements(vienna):
    sent = vienna.send(eml("master_activate.eml", (b"Malmost gmpass", b"Mvienna kr4k3n")))
    assert sent.failed and "waits for replacements of ITALY" in sent.text


def state_file(judge, name: str) -> str:
    path = judge.store.root / name / "state"
    return path.read_text() if path.exists() else ""


def test_wait_holds_the_game(judge):
    judge.add("vienna", need=())
    sent = judge.send("master_wait.eml")
    assert "Game 'vienna' is waiting: its deadline is ignored" in sent.text
    assert state_file(judge, "vienna") == "STATE waiting\n"
    assert sent.events_of(StateChanged) == [StateChanged("vienna", "waiting")]
    before = judge.text("vienna")
    assert tick_game(judge.store, "vienna", LATE).events == ()  # past the deadline: no late notice
    assert judge.text("vienna") == before
    assert "is already waiting" in judge.send("master_wait.eml").text


def test_activate_after_wait_sets_a_fresh_deadline_once_the_old_one_passed(judge):
    judge.add("vienna", need=())
    judge.send("master_wait.eml")
    sent = judge.send(eml("master_activate.eml", (b"Malmost gmpass", b"Mvienna kr4k3n")), LATE)
    assert "Game 'vienna' is active in SPRING 1902 MOVEMENT" in sent.text
    assert state_file(judge, "vienna") == "" and not (judge.store.root / "vienna" / "state").exists()
    assert sent.events_of(StateChanged) == [StateChanged("vienna", "active")]
    assert sent.events_of(DeadlineSet)[0].deadline > LATE
    assert current_deadline(judge.status("vienna")) > LATE


def test_activate_after_wait_leaves_the_replacements_to_find(vienna):
    vienna.send("master_wait.eml")
    sent = vienna.send(eml("master_activate.eml", (b"Malmost gmpass", b"Mvienna kr4k3n")))
    assert "no longer held; it still waits for replacements of ITALY" in sent.text


def test_wait_is_for_a_game_in_play(judge):
    judge.add("forming")
    sent = judge.send(eml("master_wait.eml", (b"Mvienna kr4k3n", b"Mforming gmpass")))
    assert sent.failed and "has not started: it has no deadline to hold" in sent.text


def test_terminate_ends_the_game(vienna):
    sent = vienna.send("master_terminate.eml")
    assert "Game 'vienna' is terminated: nothing is processed any more." in sent.text
    assert state_file(vienna, "vienna") == "STATE terminated\n"
    assert sent.events_of(StateChanged) == [StateChanged("vienna", "terminated")]
    assert "is terminated: PROCESS! is refused" in vienna.send("master_process_force.eml").text
    orders = vienna.send("orders.eml")
    assert orders.failed and "game 'vienna' is terminated: orders is refused" in orders.text
    assert "is terminated: TAKEOVER is refused" in vienna.send("takeover.eml").text
    assert "Game 'vienna' is terminated." in vienna.send("list_game.eml").text


def test_activate_brings_a_terminated_game_back(vienna):
    vienna.send("master_terminate.eml")
    sent = vienna.send(eml("master_activate.eml", (b"Malmost gmpass", b"Mvienna kr4k3n")))
    assert "no longer held; it still waits for replacements of ITALY" in sent.text
    assert state_file(vienna, "vienna") == ""


def test_a_completed_game_keeps_its_state(judge):
    judge.add("done", fixture="vienna", phase=GameStage.COMPLETED)
    sent = judge.send(eml("master_terminate.eml", (b"Mvienna", b"Mdone")))
    assert sent.failed and "completed: its state cannot be changed by TERMINATE" in sent.text
    assert state_file(judge, "done") == ""


def test_set_unlisted_hides_the_game(vienna):
    sent = vienna.send("set_unlisted.eml")
    assert "Game 'vienna' is unlisted: LIST does not show it" in sent.text
    assert state_file(vienna, "vienna") == "LISTED no\n"
    assert sent.events_of(StateChanged) == [StateChanged("vienna", "unlisted")]
    assert "vienna" not in vienna.send("list_all.eml").text
    assert "Unlisted: LIST does not show it." in vienna.send("list_game.eml").text  # by its name
    for_master = vienna.send(eml("list_all.eml", (b"sam@example.net", b"joe@blow.com")))
    assert "needs ITALY (unlisted)" in for_master.text
    for_keeper = vienna.send(eml("list_all.eml", (b"sam@example.net", b"keeper@example.net")))
    assert "needs ITALY (unlisted)" in for_keeper.text


def test_set_listed_shows_the_game_again(vienna):
    vienna.send("set_unlisted.eml")
    sent = vienna.send(eml("set_unlisted.eml", (b"SET UNLISTED", b"SET LISTED")))
    assert "Game 'vienna' is listed: it shows in LIST." in sent.text
    assert state_file(vienna, "vienna") == ""
    assert "needs ITALY" in vienna.send("list_all.eml").text


def test_set_unlisted_is_for_the_master(vienna):
    sent = vienna.send(eml("set_unlisted.eml", (b"Mvienna kr4k3n", b"Fvienna paris7")))
    assert sent.failed and "only the Master may use SET UNLISTED" in sent.text


def test_create_without_form_leaves_the_game_in_preparation(judge):
    sent = judge.send("create_plain.eml")
    assert "It is in preparation, hidden from the world" in sent.text
    assert state_file(judge, "plain") == "STATE preparation\nSEATS 7\n"
    assert "plain" not in judge.send("list_all.eml").text
    assert "there is no game 'plain'" in judge.send(eml("list_game.eml", (b"vienna", b"plain"))).text
    for_master = judge.send(eml("list_all.eml", (b"sam@example.net", b"gm@example.org")))
    assert "preparation yours to FORM or ACTIVATE" in for_master.text
    join = judge.send(eml("join.eml", (b"JOIN forming", b"JOIN plain")))
    assert join.failed and "game 'plain' is in preparation: JOIN waits" in join.text


def test_a_game_in_preparation_may_be_purged(judge):
    judge.send("create_plain.eml")
    sent = judge.send(eml("purge.eml", (b"PURGE empty gmpass", b"PURGE plain pw1")))
    assert "Game 'plain' has been purged." in sent.text and not judge.store.exists("plain")


def test_form_takes_the_game_out_of_preparation(judge):
    judge.send("create_plain.eml")
    sent = judge.send(eml("master_form.eml", (b"Mforming gmpass", b"Mplain pw1")))
    assert "Game 'plain' is forming: players join with JOIN plain password." in sent.text
    assert state_file(judge, "plain") == "SEATS 7\n"
    assert "plain" in judge.send("list_all.eml").text
    assert not judge.send(eml("join.eml", (b"JOIN forming", b"JOIN plain"))).failed


def test_activate_starts_a_game_in_preparation(judge):
    judge.send("create_plain.eml")
    sent = judge.send(eml("master_activate.eml", (b"Malmost gmpass", b"Mplain pw1")))
    assert "Game 'plain' has started: the phase is SPRING 1901 MOVEMENT" in sent.text
    assert sent.events_of(GameStarted) and state_file(judge, "plain") == ""


def test_create_unlisted(judge):
    sent = judge.send("create_unlisted.eml")
    assert "It is forming" in sent.text and "It is unlisted" in sent.text
    assert state_file(judge, "quiet") == "LISTED no\nSEATS 7\n"
    assert "quiet" not in judge.send("list_all.eml").text
    assert not judge.send(eml("join.eml", (b"JOIN forming", b"JOIN quiet"))).failed


def test_a_broken_state_file_is_refused(vienna):
    (vienna.store.root / "vienna" / "state").write_text("STATE paused\n")
    sent = vienna.send("master_wait.eml")
    assert sent.failed and "the state file of game 'vienna' has errors" in sent.text
    # the sender is not known to be the Master yet: the problems go to him and the judgekeeper
    # from the cycle, never into a reply
    assert "paused" not in sent.text and "vienna/state:1" not in sent.text
    assert "vienna" not in vienna.send("list_all.eml").text


def test_process_refused_while_orders_are_missing(vienna):
    before = vienna.text("vienna")
    sent = vienna.send("master_process.eml")
    assert sent.failed and "not ready for processing: orders are missing from" in sent.text
    assert "PROCESS! processes it now, the missing orders defaulted." in sent.prose
    assert vienna.text("vienna") == before


def test_process_force(vienna):
    sent = vienna.send("master_process_force.eml")
    assert "SPRING 1902 MOVEMENT was processed." in sent.text
    status = vienna.status("vienna")
    assert str(status.phase) != "SPRING 1902 MOVEMENT"
    assert sent.events_of(PhaseResults)
    assert (vienna.store.root / "vienna" / "status.S1902M").read_text() .startswith("GAME vienna")
    assert "Subject: Diplomacy results vienna S1902M\n" in (vienna.store.root / "vienna" / "results").read_text()


def test_process_after_orders_in_the_same_mail_sees_them(judge):
    judge.add("vienna", need=())
    judge.send("set_nowait.eml")
    others = b"GERMANY\r\nA MUN H\r\nITALY\r\nA VEN H\r\nRUSSIA\r\nA WAR H"
    assert not judge.send(eml("orders_master.eml", (b"GERMANY\r\nA MUN H\r\nA RUH - BEL", others)))\
        .failed
    sent = judge.send("master_process_after_orders.eml")
    assert sent.outcome("5 order lines for ENGLAND").ok and not sent.failed, sent.text
    assert "SPRING 1902 MOVEMENT was processed." in sent.text
    assert str(judge.status("vienna").phase) != "SPRING 1902 MOVEMENT"


def test_preview_changes_nothing(vienna):
    before = vienna.text("vienna")
    sent = vienna.send("master_preview.eml")
    assert "The preview is on its way to the Master." in sent.text
    assert sent.events_of(Preview) and vienna.text("vienna") == before


def test_rollback_and_rollforward(vienna):
    vienna.send("master_process_force.eml")
    vienna.send("master_process_force.eml")
    after_two = vienna.status("vienna").phase
    sent = vienna.send("master_rollback_phase.eml")
    assert "Game 'vienna' is back in SPRING 1902 MOVEMENT." in sent.text
    rolled = sent.events_of(RolledBack)[0]
    assert rolled.restored_orders and not rolled.forward
    assert vienna.status("vienna").power("FRANCE").orders is not None  # RESTORE
    sent = vienna.send("master_rollforward.eml")
    assert sent.events_of(RolledBack)[0].forward and vienna.status("vienna").phase != after_two


def test_rollback_without_snapshots(vienna):
    sent = vienna.send("master_rollback.eml")
    assert sent.failed and "no phase to roll back to" in sent.text


def test_the_master_resigns_a_player(vienna):
    sent = vienna.send("master_resign.eml")
    assert "GERMANY has been resigned." in sent.text
    assert vienna.status("vienna").power("GERMANY").player.resigned
    assert sent.events_of(Resigned)[0].by_master


def test_dummy(vienna):
    sent = vienna.send("master_dummy.eml")
    assert vienna.status("vienna").power("GERMANY").player.dummy and sent.events_of(Dummied)


def test_resign_undummies_a_dummy(judge):
    judge.add("winter")
    sent = judge.send("master_undummy.eml")
    assert "RUSSIA is no longer a dummy" in sent.text
    russia = judge.status("winter").power("RUSSIA")
    assert russia.player.resigned and russia.control == ()
    assert [n.power for n in judge.status("winter").need] == ["RUSSIA"]


def test_revive_gives_the_power_back(vienna):
    sent = vienna.send("master_revive.eml")
    italy = vienna.status("vienna").power("ITALY")
    assert italy.player.current.email == "elena@example.it" and verify("roma5", italy.password)
    assert italy.player.handovers == () and vienna.status("vienna").need == ()
    assert sent.events_of(PasswordSet)[0].password == "roma5"


def test_revive_needs_a_resignation(vienna):
    assert "FRANCE has no resignation to undo" in vienna.send("master_revive_none.eml").text


def test_reveal_is_for_completed_no_reveal_games(judge):
    judge.add("vienna")
    assert "REVEAL is for NO_REVEAL games" in judge.send("master_reveal.eml").text
    judge.add("done", fixture="vienna", rules=("NO_REVEAL",), phase=GameStage.COMPLETED)
    sent = judge.send(eml("master_reveal.eml", (b"Mvienna", b"Mdone")))
    assert "The players of game 'done' are revealed." in sent.text


def test_morph_a_line(vienna):
    sent = vienna.send("morph_line.eml")
    assert "1 map line added" in sent.text
    assert vienna.status("vienna").morphs == ("VICTORY 17",)


def test_a_morph_that_changes_the_victory_count_is_announced(vienna):
    sent = vienna.send("morph_line.eml")
    assert "The supply centers needed to win are now 17 (were 18): everyone is told." in sent.prose
    assert sent.events_of(VictoryChanged) == [VictoryChanged("vienna", 1902, 18, 17)]
    mails = Mailer(TEMPLATES, vienna.status("vienna"), MAPS.get("standard")).for_events(sent.events)
    [notice] = [m for m in mails if "needed to win" in " ".join(m.rendered.body.split())]
    assert "supply centers needed to win in 1902 are now 17 (they were 18)" in \
        " ".join(notice.rendered.body.split())
    assert "chloe@example.fr" in notice.recipients


def test_a_morph_that_keeps_the_victory_count_is_not_announced(vienna):
    sent = vienna.send(eml("morph_line.eml", (b"VICTORY 17", b"VICTORY 18")))
    assert not sent.failed and not sent.events_of(VictoryChanged)


def test_morph_block(vienna):
    sent = vienna.send("morph_block.eml")
    assert vienna.status("vienna").morphs == ("VICTORY 16", "UNPLAYED ITALY")
    assert sent.outcome("STATUS").ok


def test_morph_lines_are_checked_against_the_map(vienna):
    before = vienna.text("vienna")
    sent = vienna.send("morph_bad.eml")
    assert sent.failed and "the map does not accept these lines" in sent.text
    assert vienna.text("vienna") == before
    unclosed = vienna.send("morph_unclosed.eml")
    assert unclosed.failed and "END MORPH must close" in unclosed.text


def test_morph_is_for_the_master(vienna):
    assert "only the Master may use MORPH" in vienna.send("morph_player.eml").text
