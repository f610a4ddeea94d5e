"""Game directories: locking across threads and processes, atomic writes, snapshots, results."""
from __future__ import annotations

import errno
import multiprocessing
import os
import threading
import time
import tracemalloc

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import judge.runtime.store
from judge.runtime.store import STALE_TMP_SECONDS, GameStore, atomic_write, steps_below


@pytest.fixture
def store(tmp_path):
    s = GameStore(tmp_path / "games")
    s.create("demo", "GAME demo\n")
    return s


def test_create_and_read(store):
    assert store.names() == ["demo"]
    with store.locked("demo") as game:
        assert game.read_status() == "GAME demo\n"


def test_create_twice_fails(store):
    with pytest.raises(FileExistsError):
        store.create("demo", "GAME demo\n")


@pytest.mark.parametrize("name", ["Demo", "a b", "../x", "", "x" * 201])
def test_bad_game_names(tmp_path, name):
    with pytest.raises(ValueError):
        GameStore(tmp_path).create(name, "")


def test_unknown_game(store):
    with pytest.raises(LookupError):
        with store.locked("nosuch"):
            pass


def test_atomic_write_leaves_no_temp_files(tmp_path):
    target = tmp_path / "status"
    atomic_write(target, b"one")
    atomic_write(target, b"two")
    assert target.read_bytes() == b"two" and [p.name for p in tmp_path.iterdir()] == ["status"]


def test_snapshots_and_rollback_source(store):
    with store.locked("demo") as game:
        game.snapshot("S1901M", "before spring\n")
        game.snapshot("F1901M", "before fall\n")
        assert game.snapshots() == ["S1901M", "F1901M"]
        assert game.read_snapshot("S1901M") == "before spring\n"
        with pytest.raises(LookupError):
            game.read_snapshot("W1901A")


def test_results_log_appends(store):
    with store.locked("demo") as game:
        game.append_results("Spring 1901")
        game.append_results("Fall 1901\n")
        assert game.read_results() == "Spring 1901\nFall 1901\n"


def test_lock_serialises_threads(store):
    inside, overlaps = [], []

    def work():
        with store.locked("demo"):
            if inside:
                overlaps.append(True)
            inside.append(1)
            time.sleep(0.01)
            inside.pop()

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not overlaps


def test_threads_exclude_each_other_on_a_lock_made_again_after_it_was_dropped(store):
    with store.locked("demo"):
        pass  # no one holds it now: the next taker makes it afresh
    test_lock_serialises_threads(store)


def test_the_store_keeps_no_lock_of_a_game_no_one_holds(tmp_path):
    store = GameStore(tmp_path)
    names = [f"g{n}" for n in range(400)]
    for name in names:
        (tmp_path / name).mkdir()
    tracemalloc.start()
    try:
        for name in names:
            with store.locked(name):
                pass
        mine = tracemalloc.Filter(True, judge.runtime.store.__file__)
        kept = sum(s.size for s in tracemalloc.take_snapshot().filter_traces([mine]).statistics("filename"))
    finally:
        tracemalloc.stop()
    assert kept < 40 * len(names)  # a lock kept for every game took about 110 bytes a game


def _hold_lock(root, ready, release):
    with GameStore(root).locked("demo"):
        ready.set()
        release.wait(5)


def test_lock_excludes_other_processes(store):
    ctx = multiprocessing.get_context("fork")
    ready, release = ctx.Event(), ctx.Event()
    other = ctx.Process(target=_hold_lock, args=(store.root, ready, release))
    other.start()
    assert ready.wait(5)
    got = threading.Event()

    def take():
        with store.locked("demo"):
            got.set()

    taker = threading.Thread(target=take)
    taker.start()
    assert not got.wait(0.2)  # blocked while the other process holds it
    release.set()
    assert got.wait(5)
    taker.join()
    other.join()


def test_the_state_file_is_empty_until_written_and_removed_when_emptied(store):
    with store.locked("demo") as game:
        assert game.read_state() == "" and not game.state_path.exists()
        game.write_state("STATE waiting\n")
        assert game.read_state() == "STATE waiting\n"
        game.write_state("")
        assert game.read_state() == "" and not game.state_path.exists()
        game.write_state("")  # nothing to remove
        assert game.snapshots() == []  # the state file is no snapshot


def test_create_with_a_state_file(tmp_path):
    store = GameStore(tmp_path / "games")
    store.create("hidden", "GAME hidden\n", "STATE preparation\n")
    with store.locked("hidden") as game:
        assert game.read_state() == "STATE preparation\n"
    store.create("plain", "GAME plain\n")
    assert not (tmp_path / "games" / "plain" / "state").exists()


@pytest.mark.parametrize("moment", ["write", "fsync", "replace"])
def test_a_write_the_disk_refuses_leaves_the_old_content_and_no_temporary_file(tmp_path,
                                                                               monkeypatch,
                                                                               moment):
    target = tmp_path / "status.S1901M"
    atomic_write(target, b"before")

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")
    if moment == "write":
        real_open = open
        monkeypatch.setattr(judge.runtime.store, "open", lambda *a, **k: Refusing(real_open(*a, **k)),
                            raising=False)
    else:
        monkeypatch.setattr(os, moment, full)
    with pytest.raises(OSError):
        atomic_write(target, b"after")
    assert target.read_bytes() == b"before"
    assert [p.name for p in tmp_path.iterdir()] == ["status.S1901M"]


class Refusing:
    """A file whose writes the full disk refuses."""

    def __init__(self, handle):
        self.handle = handle

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.handle.close()

    def write(self, data):
        raise OSError(errno.ENOSPC, "No space left on device")


def test_only_stale_temporary_files_go_from_the_games_folders(store):
    root = store.root
    (root / ".journal").mkdir()
    stale = [root / "demo" / ".status.S1901M.7.8.tmp", root / ".journal" / ".demo.json.7.8.tmp",
             root / ".cycle.json.7.8.tmp"]
    fresh = root / "demo" / ".status.7.9.tmp"
    for path in [*stale, fresh]:
        path.write_bytes(b"half")
    for path in stale:
        os.utime(path, (1000, 1000))
    os.utime(fresh, (1000 + STALE_TMP_SECONDS, 1000 + STALE_TMP_SECONDS))
    removed = store.remove_stale_tmp(now=1000 + STALE_TMP_SECONDS + 1)
    assert sorted(removed) == sorted(stale) and fresh.exists()
    assert (root / "demo" / "status").exists()


@settings(max_examples=300, deadline=None)
@given(top=st.lists(st.sampled_from(["a", "b", "..", "x y"]), max_size=3),
       below=st.lists(st.sampled_from(["a", "b", "..", ".", "c.d", "x y"]), max_size=4),
       absolute=st.booleans(), text=st.booleans())
def test_steps_below_a_folder_are_the_parts_of_its_relative_path(top, below, absolute, text):
    """The names a file is reached by, one folder at a time, are pathlib's own, and a folder
    outside the root is refused as pathlib refuses it."""
    root = Path("/" if absolute else ".", *top)
    folder = Path("/" if absolute else ".", *below)
    try:
        expected: list[str] | type[ValueError] = list(folder.relative_to(root).parts)
    except ValueError:
        expected = ValueError
    try:
        found: list[str] | type[ValueError] = steps_below(root, str(folder) if text else folder)
    except ValueError:
        found = ValueError
    assert found == expected
