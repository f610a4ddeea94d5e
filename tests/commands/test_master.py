"""The Master's commands: state, PROCESS / PROCESS! / PREVIEW, ROLLBACK / ROLLFORWARD, RESIGN /
DUMMY / REVIVE a power, REVEAL, MORPH."""
from __future__ import annotations

import pytest

from judge.commands.notices import PasswordSet
from judge.events import (
    Dummied,
    GameStarted,
    PhaseResults,
    Preview,
    Resigned,
    RolledBack,
)
from judge.status.model import GameStage
from tests.commands.conftest import eml

UNKEPT = ("needs a status directive for a game's state and listing (asked of the status file's "
          "owner)")


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


def test_wait_and_terminate_are_refused_until_the_state_can_be_kept(vienna):
    assert "cannot hold it" in vienna.send("master_wait.eml").text
    assert "cannot terminate it" in vienna.send("master_terminate.eml").text


@pytest.mark.xfail(reason=UNKEPT, strict=True)
def test_wait_holds_the_game(vienna):
    assert not vienna.send("master_wait.eml").failed


@pytest.mark.xfail(reason=UNKEPT, strict=True)
def test_terminate_ends_the_game(vienna):
    assert not vienna.send("master_terminate.eml").failed


@pytest.mark.xfail(reason=UNKEPT, strict=True)
def test_set_unlisted_hides_the_game(vienna):
    assert not vienna.send("set_unlisted.eml").failed


@pytest.mark.xfail(reason=UNKEPT, strict=True)
def test_create_without_form_leaves_the_game_in_preparation(judge):
    judge.send("create_plain.eml")
    assert "JOIN" not in judge.send(eml("list_all.eml")).text


def test_process_refused_while_orders_are_missing(vienna):
    before = vienna.text("vienna")
    sent = vienna.send("master_process.eml")
    assert sent.failed and "not ready for processing: orders are missing from" in sent.text
    assert vienna.text("vienna") == before


def test_process_force(vienna):
    sent = vienna.send("master_process_force.eml")
    assert "SPRING 1902 MOVEMENT was processed." in sent.text
    status = vienna.status("vienna")
    assert str(status.phase) != "SPRING 1902 MOVEMENT"
    assert sent.events_of(PhaseResults)
    assert (vienna.store.root / "vienna" / "status.S1902M").read_text() .startswith("GAME vienna")
    assert "SPRING 1902" in (vienna.store.root / "vienna" / "results").read_text().upper()


def test_process_waits_for_the_orders_in_the_same_mail(judge):
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
    assert italy.player.current.email == "elena@example.it" and italy.password == "roma5"
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
