"""A change in flight (`judge.runtime.journal`), stopped at each step a crash can stop it at, is completed
by the next read: the status, the results log and the mails always agree, and no mail goes twice."""
from __future__ import annotations

import os

import pytest

from judge.runtime import journal
from judge.runtime.game_files import read_game
from judge.runtime.commit import write_outcome
from judge.runtime.spool import Spool
from judge.status import parse_status, write_status
from judge.status.model import PhaseMode
from judge.runtime.store import GameStore
from tests.support.faults import TICK_AT, everyone_ordered, started, write_config
from tests.support.master import process

pytestmark = pytest.mark.faults

MAILS = [("m1.crash.test", b"Subject: one\r\n\r\nfirst\r\n"), ("m2.crash.test", b"Subject: two\r\n\r\n2\r\n")]


class Stop(Exception):
    """The crash, at a chosen step."""


@pytest.fixture
def game(tmp_path):
    config = write_config(tmp_path)
    store = GameStore(config.paths.games)
    started(store, "g")
    everyone_ordered(store, "g")
    return store, Spool(tmp_path / "outbox").create()


def processed(store):
    """The status text before and the outcome of processing g (without saving it)."""
    from judge.game.process import on_process
    with store.locked("g") as folder:
        text, status, m = read_game(folder)
    new, events = on_process(status, m, TICK_AT)
    return text, m, new, events


def delivered(outbox: Spool):
    return sorted((item.id, Spool.read(item)) for item in outbox.waiting())


@pytest.mark.parametrize("step", ["status", "results", "deliver"])
def test_a_change_stopped_at_any_step_is_completed_by_the_next_read(game, monkeypatch, step):
    store, outbox = game
    text, m, new, events = processed(store)

    def put(mails):
        for key, raw in mails:
            outbox.put(raw, key)

    with store.locked("g") as folder:
        if step == "status":
            monkeypatch.setattr(type(folder), "write_status", _raise)
        elif step == "results":
            monkeypatch.setattr(type(folder), "append_results", _raise)
        with pytest.raises(Stop):
            write_outcome(folder, text, m, new, events, mails=MAILS,
                   deliver=put if step != "deliver" else _raise)
        monkeypatch.undo()
        assert journal.pending(store.root) == ["g"]
    with store.locked("g") as folder:
        journal.replay(folder, put)
        reference = game_files_of(store)
    assert journal.pending(store.root) == []
    assert reference["results"].count("Subject: Diplomacy results g S1901M\n") == 1
    assert delivered(outbox) == sorted(MAILS)
    with store.locked("g") as folder:
        journal.replay(folder, put)  # nothing left to do, nothing done twice
    assert delivered(outbox) == sorted(MAILS)


def _raise(*args, **kwargs):
    raise Stop


def game_files_of(store):
    return {p.name: p.read_text() for p in (store.root / "g").iterdir() if p.is_file() and
            not p.name.startswith(".")}


def test_a_half_written_results_record_is_cut_back(game):
    store, _ = game
    with store.locked("g") as folder:
        journal.write(folder, "x", "PHASE S1901M\nA\nB\n", ())
        with open(folder.path / "results", "a") as handle:
            handle.write("PHASE S19")  # a crash in the middle of the append
        folder.write_status("x")
        journal.replay(folder)
    assert (store.root / "g" / "results").read_text() == "PHASE S1901M\nA\nB\n"


def test_a_half_written_lists_entry_is_cut_back_and_written_once(game):
    """A Crystal Ball change's locked lists are added to the `lists` file DPjudge kept before
    once, whatever part of them a crash had written."""
    store, _ = game
    with store.locked("g") as folder:
        (folder.path / "lists").write_text("KEPT\n")
        journal.write(folder, "x", "", (), lists="SPRING 1902 MOVEMENT ORDERS\n")
        with open(folder.path / "lists", "a") as handle:
            handle.write("SPRING 19")  # a crash in the middle of the append
        folder.write_status("x")
        journal.replay(folder)
    assert (store.root / "g" / "lists").read_text() == "KEPT\nSPRING 1902 MOVEMENT ORDERS\n"


def test_without_an_outbox_the_mails_wait_for_the_next_cycle(game):
    store, outbox = game
    text, m, new, events = processed(store)
    with store.locked("g") as folder:
        write_outcome(folder, text, m, new, events, mails=MAILS)  # no deliver: `judge process`, a mail
    assert journal.pending(store.root) == ["g"] and outbox.waiting() == []
    with store.locked("g") as folder:
        folder.write_status(folder.read_status() + "\n")  # the game moves on (a mail, say)
        journal.replay(folder, lambda mails: [outbox.put(raw, key) for key, raw in mails])
    assert delivered(outbox) == sorted(MAILS) and journal.pending(store.root) == []


def test_a_status_edited_by_hand_in_between_drops_the_change(game, caplog):
    store, outbox = game
    with store.locked("g") as folder:
        journal.write(folder, "the after text", "PHASE X\n", MAILS)
        folder.write_status(folder.read_status().replace("RULE DEFAULT_UNORDERED", "RULE NO_PRESS"))
        journal.replay(folder, lambda mails: [outbox.put(raw, key) for key, raw in mails])
    assert "changed by hand" in caplog.text and outbox.waiting() == []
    assert not (store.root / "g" / "results").exists()


def test_the_mails_of_a_game_renamed_since_are_still_sent(game):
    store, outbox = game
    text, m, new, events = processed(store)
    with store.locked("g") as folder:
        write_outcome(folder, text, m, new, events, mails=MAILS)
    os.rename(store.root / "g", store.root / "h")
    journal.replay_orphan(store.root, "g", lambda mails: [outbox.put(raw, key) for key, raw in mails])
    assert delivered(outbox) == sorted(MAILS) and journal.pending(store.root) == []


def test_judge_process_leaves_a_game_whose_processing_fails_in_await(game, monkeypatch):
    store, _ = game
    from judge.app import master

    def bug(*args, **kwargs):
        raise RuntimeError("an adjudicator bug")
    monkeypatch.setattr(master, "on_process", bug)
    from judge.app.processing import ProcessingFailed
    with pytest.raises(ProcessingFailed) as failed:
        process(store, "g", TICK_AT, force=True)
    assert isinstance(failed.value.__cause__, RuntimeError)
    files = game_files_of(store)
    assert parse_status(files["status"]).phase_mode is PhaseMode.AWAIT
    assert "results" not in files and journal.pending(store.root) == []


def test_a_receipt_is_written_with_its_change_and_read_once_the_change_is_made(game, monkeypatch):
    """A mail's receipt stopped in the journal before the status was written: the next read of
    the game (the inbox runner's, before it runs a mail against it) completes the change and
    writes the receipt, so a receipt found always goes with its change made."""
    store, _ = game
    text, m, new, events = processed(store)
    with store.locked("g") as folder:
        monkeypatch.setattr(type(folder), "write_status", _raise)
        with pytest.raises(Stop):
            write_outcome(folder, text, m, new, events, receipt=("receipt-abc", b"the replies"))
        monkeypatch.undo()
    assert journal.read_receipt(store.root, "receipt-abc") is None  # not before its change
    with store.locked("g") as folder:
        assert journal.replay(folder) == "receipt-abc"
    assert journal.read_receipt(store.root, "receipt-other") is None
    assert journal.read_receipt(store.root, "receipt-abc") == b"the replies"
    assert game_files_of(store)["status"] == write_status(new)
    assert journal.pending(store.root) == []


def test_the_daemon_prunes_receipts_with_the_done_mails(tmp_path):
    from datetime import UTC, datetime

    from judge.runtime.daemon import KEEP_DONE, Daemon
    config = write_config(tmp_path)
    config.paths.games.mkdir(exist_ok=True)
    now = datetime(2025, 3, 1, tzinfo=UTC)
    journal.write_receipt(config.paths.games, "old", b"x")
    journal.write_receipt(config.paths.games, "new", b"y")
    old = (now - KEEP_DONE).timestamp() - 1
    os.utime(config.paths.games / journal.RECEIPTS / "old", (old, old))
    os.utime(config.paths.games / journal.RECEIPTS / "new", (old + 2, old + 2))
    Daemon(config, clock=lambda: now).prune()
    assert journal.read_receipt(config.paths.games, "old") is None
    assert journal.read_receipt(config.paths.games, "new") == b"y"
