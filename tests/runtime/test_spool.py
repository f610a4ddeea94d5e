"""The durable queues: arrival order, claim/done, three failures to bad/, crash recovery, ids."""
from __future__ import annotations

import errno
import os
import threading
import time

import pytest

import judge.runtime.spool
from judge.runtime.spool import FolderSync, Spool, SpoolError, safe_id
from tests.support.durability import folder_syncs as durable_folders


@pytest.fixture
def spool(tmp_path):
    return Spool(tmp_path / "inbox").create()


def test_put_stores_the_bytes_and_leaves_no_temporary_file(spool):
    item = spool.put(b"raw mail\r\n")
    assert spool.read(item) == b"raw mail\r\n"
    assert [p.name for p in spool.root.iterdir() if p.name.endswith(".tmp")] == []


def test_waiting_lists_in_arrival_order(spool):
    ids = [spool.put(f"mail {n}".encode()).id for n in range(20)]
    assert [item.id for item in spool.waiting()] == ids


def test_claim_renames_to_bak_and_done_keeps_it_out_of_the_queue(spool):
    item = spool.put(b"x")
    claimed = spool.claim(item)
    assert claimed.path.suffix == ".bak" and spool.waiting() == [] and spool.claimed() == [claimed]
    spool.done(claimed)
    assert spool.waiting() == [] and spool.claimed() == [] and len(spool.finished()) == 1


def test_claiming_twice_fails(spool):
    item = spool.put(b"x")
    spool.claim(item)
    with pytest.raises(FileNotFoundError):
        spool.claim(item)


def test_third_failure_moves_the_mail_to_bad(spool):
    item = spool.put(b"x")
    for expected_failures in (1, 2):
        item = spool.retry(spool.claim(item))
        assert item.failures == expected_failures and spool.waiting() == [item]
    bad = spool.retry(spool.claim(item))
    assert bad.path.parent == spool.bad_dir and spool.waiting() == []
    assert spool.failed() == [bad] and spool.read(bad) == b"x"


def test_fail_moves_at_once_to_the_named_folder(tmp_path):
    outbox = Spool(tmp_path / "outbox", bad="failed").create()
    failed = outbox.fail(outbox.claim(outbox.put(b"x", "m1")))
    assert failed.path.parent == tmp_path / "outbox" / "failed"


def test_release_puts_a_claimed_mail_back_without_a_failure(spool):
    item = spool.release(spool.claim(spool.put(b"x")))
    assert item.failures == 0 and spool.waiting() == [item]


def test_recover_puts_crashed_work_back_as_a_failure(spool):
    spool.claim(spool.put(b"first"))
    second = spool.put(b"second")
    recovered = Spool(spool.root).recover()  # a new process after the crash
    assert [item.failures for item in recovered] == [1]
    assert [spool.read(item) for item in spool.waiting()] == [b"first", b"second"]
    assert spool.waiting()[1] == second


def test_a_mail_that_crashes_the_worker_three_times_ends_in_bad(spool):
    spool.put(b"poison")
    for _ in range(3):
        for item in spool.waiting():
            spool.claim(item)
        Spool(spool.root).recover()
    assert spool.waiting() == [] and len(spool.failed()) == 1


def test_recover_removes_stale_temporary_files_only(spool):
    stale, fresh = spool.root / ".a.tmp", spool.root / ".b.tmp"
    stale.write_bytes(b"half")
    fresh.write_bytes(b"half")
    os.utime(stale, (1, 1))
    spool.recover()
    assert not stale.exists() and fresh.exists()


def test_putting_a_known_id_again_does_nothing_wherever_it_is(spool):
    assert spool.put(b"one", "game-S1901M-results") is not None
    assert spool.put(b"two", "game-S1901M-results") is None
    spool.done(spool.claim(spool.waiting()[0]))
    assert spool.put(b"three", "game-S1901M-results") is None
    assert [spool.read(i) for i in spool.finished()] == [b"one"] and spool.waiting() == []


def test_ids_that_could_escape_the_folder_are_refused(spool):
    with pytest.raises(SpoolError):
        spool.put(b"x", "../../etc/passwd")


def test_safe_id_keeps_message_ids_readable():
    assert safe_id("<results.S1901M.test@judge.test>") == "results.S1901M.test@judge.test"
    assert safe_id("<a/b c@x>") == "a_b_c@x"


def test_prune_forgets_old_done_mail(spool):
    old = spool.done(spool.claim(spool.put(b"old", "old")))
    new = spool.done(spool.claim(spool.put(b"new", "new")))
    assert spool.prune(new.arrival_ns) == 1
    assert spool.finished() == [new] and not old.path.exists()
    assert spool.put(b"old again", "old") is not None  # forgotten ids are new again


@pytest.fixture
def folder_syncs(monkeypatch, tmp_path):
    """The folders the operating system is asked to fsync, in order (not the files)."""
    return durable_folders(monkeypatch, tmp_path)


def test_put_many_puts_each_in_order_with_one_fsync_of_each_folder(spool, folder_syncs):
    spool.claim(spool.put(b"first", "first"))  # the markers' folder made
    folder_syncs.clear()
    items = spool.put_many([(f"mail {n}".encode(), f"id{n}") for n in range(5)])
    assert [item.id for item in spool.waiting()] == [item.id for item in items] == \
        [f"id{n}" for n in range(5)]
    assert [spool.read(item) for item in items] == [f"mail {n}".encode() for n in range(5)]
    assert folder_syncs == [".ids", "inbox"]
    assert [p.name for p in spool.root.iterdir() if p.name.endswith(".tmp")] == []


def test_put_many_skips_the_ids_known_and_those_given_twice(spool):
    spool.done(spool.claim(spool.put(b"old", "id0")))
    items = spool.put_many([(b"again", "id0"), (b"new", "id1"), (b"twice", "id1")])
    assert items[0] is None and items[2] is None and spool.read(items[1]) == b"new"
    assert spool.put_many([(b"again", "id1")]) == [None]


def test_put_many_of_known_ids_only_writes_nothing(spool, folder_syncs):
    spool.put(b"x", "id0")
    folder_syncs.clear()
    assert spool.put_many([(b"x", "id0")]) == [None] and folder_syncs == []


def test_done_many_moves_each_with_one_fsync_of_each_folder(spool, folder_syncs):
    claimed = [spool.claim(spool.put(f"mail {n}".encode())) for n in range(5)]
    folder_syncs.clear()
    done = spool.done_many(claimed)
    assert spool.claimed() == [] and [item.id for item in spool.finished()] == \
        [item.id for item in done] == [item.id for item in claimed]
    assert folder_syncs == ["done", "inbox"]


def test_folder_sync_callers_one_after_another_each_get_a_sync(tmp_path, folder_syncs):
    sync = FolderSync(tmp_path)
    for _ in range(3):
        sync.sync()
    assert folder_syncs == [tmp_path.name] * 3


def test_folder_sync_callers_arriving_during_a_sync_share_the_next_one(tmp_path, monkeypatch):
    started, release, synced = threading.Event(), threading.Event(), []

    def slow_sync(fd):
        synced.append(fd)
        if len(synced) == 1:
            started.set()
            assert release.wait(10)
    monkeypatch.setattr(os, "fsync", slow_sync)
    sync = FolderSync(tmp_path)
    first = threading.Thread(target=sync.sync)
    first.start()
    assert started.wait(10)
    later = [threading.Thread(target=sync.sync) for _ in range(4)]
    for thread in later:
        thread.start()
    time.sleep(0.2)
    assert all(thread.is_alive() for thread in later)  # the sync running began before they came
    release.set()
    for thread in [first, *later]:
        thread.join(10)
    assert len(synced) == 2


def test_folder_sync_a_failed_sync_fails_its_caller_and_serves_nobody(tmp_path, monkeypatch):
    results = []

    def failing_once(fd):
        results.append("tried")
        if len(results) == 1:
            raise OSError(5, "Input/output error")
    monkeypatch.setattr(os, "fsync", failing_once)
    sync = FolderSync(tmp_path)
    with pytest.raises(OSError):
        sync.sync()
    sync.sync()
    assert results == ["tried", "tried"]


def test_put_without_an_id_fsyncs_the_file_and_the_folder(spool, monkeypatch, folder_syncs):
    files = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (files.append(fd), real(fd)))
    spool.put(b"raw mail")
    assert folder_syncs == ["inbox"] and len(files) == 2  # the file's, then the folder's


@pytest.mark.parametrize("id", [None, "known-id"])
def test_a_put_the_disk_refuses_leaves_no_temporary_file(spool, monkeypatch, id):
    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError):
        spool.put(b"raw mail\r\n", id)
    monkeypatch.undo()
    assert [p.name for p in spool.root.iterdir() if p.name.endswith(".tmp")] == []
    assert spool.waiting() == []
    assert spool.put(b"raw mail\r\n", id) is not None  # once there is room, it can be put


def test_the_keeper_is_told_of_each_mail_in_bad_once(spool):
    first = spool.fail(spool.claim(spool.put(b"one")))
    assert spool.untold() == [first]
    spool.told(first)
    second = spool.fail(spool.claim(spool.put(b"two")))
    assert Spool(spool.root).untold() == [second]  # a new process: the markers are on disk


def test_a_mail_put_back_from_bad_and_failing_again_is_told_again(spool):
    bad = spool.fail(spool.claim(spool.put(b"one")))
    spool.told(bad)
    back = bad.path.rename(spool.root / bad.path.name)  # the judgekeeper puts it back by hand
    assert spool.untold() == []
    again = spool.fail(spool.claim(judge.runtime.spool.item_at(back)))
    assert spool.untold() == [again]


def test_the_mail_in_bad_before_the_markers_counts_as_told(tmp_path):
    spool = Spool(tmp_path / "inbox")
    spool.root.mkdir()
    spool.bad_dir.mkdir()
    (spool.bad_dir / "00000000000000000001-3-old.eml").write_bytes(b"old")
    spool.create()  # the judge upgraded: its keeper heard of that one then
    assert spool.untold() == []
