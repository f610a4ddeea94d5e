"""The idle index as the daemon keeps it between cycles (`judge.runtime.idle_index.KeptIndex`): with
its inotify watch and heap of due times, or looking at every game's files where there is no watch,
a cycle finds every hand edit and every change the judge made, and reads a game when it is due;
after a start the index on disk is trusted unless the judge's code changed."""
from __future__ import annotations

import json
import os
import shutil
import sys
from dataclasses import replace
from datetime import timedelta

import pytest

from judge.game.deadlines import current_deadline
from judge.runtime import idle_index as idle
from judge.runtime.cycle import run_cycle
from judge.status import write_status
from judge.timing import format_deadline
from tests.support.games import NOW

H, M = timedelta(hours=1), timedelta(minutes=1)
LINUX = sys.platform.startswith("linux")


class Daemon:
    """Cycles as the daemon runs them: one kept index from one to the next."""

    def __init__(self, judge, watch: bool):
        self.judge = judge
        self.kept = idle.KeptIndex(watch=watch)

    def cycle(self, at):
        return run_cycle(self.judge.store, self.judge.config, at, kept=self.kept)

    def read(self, at) -> list[str]:
        return self.cycle(at).opened

    def times_read(self, game, start, end) -> list:
        """Cycles every hour (no outage yet) from `start` until past `end`: when `game` was read."""
        found, at = [], start
        while at < end + H:
            if game in self.read(at):
                found.append(at)
            at += H
        return found


def first_cycle(start, due):
    """The first hourly cycle from `start` at or after `due`: the one its reminder is sent at."""
    return start + -((start - due) // H) * H


def started(judge, name):
    judge.start(name, ["TIMING NEXT 3D WARN 4H"], NOW)


@pytest.fixture(params=[True, False], ids=["watch", "stat"])
def daemon(request, judge):
    started(judge, "calm")
    started(judge, "still")
    kept = Daemon(judge, request.param)
    assert kept.read(NOW + H) == ["calm", "still"]
    assert kept.cycle(NOW + H + 20 * M).unread == 2
    assert (kept.kept.watch is not None) == (request.param and LINUX)
    yield kept
    kept.kept.close()


def hand_edit(judge, name, change, replace_file: bool):
    status = judge.status(name)
    path = judge.store.root / name / "status"
    text = write_status(change(status))
    if replace_file:  # as an editor that writes a new file and renames it
        (path.parent / "status.new").write_text(text)
        os.replace(path.parent / "status.new", path)
    else:  # in place, the same file
        with open(path, "r+") as handle:
            handle.truncate(0)
            handle.write(text)


@pytest.mark.parametrize("replace_file", [True, False], ids=["replaced", "in-place"])
def test_a_hand_edited_deadline_is_found_at_the_next_cycle(daemon, replace_file):
    judge = daemon.judge
    later = current_deadline(judge.status("calm")) + 24 * H
    hand_edit(judge, "calm", lambda s: replace(s, deadline=format_deadline(later)), replace_file)
    start = NOW + 2 * H
    assert daemon.times_read("calm", start, later - 4 * H) == [start, first_cycle(start, later - 4 * H)]


def test_a_state_file_written_by_hand_is_found(daemon):
    (daemon.judge.store.root / "still" / "state").write_text("LISTED no\n")
    assert daemon.read(NOW + 2 * H) == ["still"]


def test_a_game_folder_added_or_removed_is_found(daemon):
    root = daemon.judge.store.root
    shutil.copytree(root / "calm", root / "copy")
    assert daemon.read(NOW + 2 * H) == ["copy"]
    assert daemon.cycle(NOW + 3 * H).unread == 3
    shutil.rmtree(root / "still")
    gone = daemon.cycle(NOW + 4 * H)
    assert gone.opened == [] and gone.unread == 2
    assert "still" not in idle.load_index(root, daemon.kept.kept[1].signature).entries
    os.rename(root / "copy", root / "moved")
    assert daemon.read(NOW + 5 * H) == ["moved"]
    assert sorted(idle.load_index(root, daemon.kept.kept[1].signature).entries) == ["calm", "moved"]


def test_a_game_the_judge_changed_is_read_and_due_at_its_time(daemon):
    judge = daemon.judge
    later = current_deadline(judge.status("calm")) + 24 * H
    judge.mail_in("calm", lambda s: replace(s, deadline=format_deadline(later)), NOW + H)  # the judge's writer
    start = NOW + 2 * H
    assert daemon.times_read("calm", start, later - 4 * H) == [start, first_cycle(start, later - 4 * H)]


def test_a_damaged_index_file_or_another_cycle_is_followed(daemon):
    judge = daemon.judge
    (judge.store.root / idle.INDEX_FILE).write_text("{broken")
    assert daemon.cycle(NOW + 2 * H).unread == 0
    run_cycle(judge.store, judge.config, NOW + 3 * H, fresh=True)  # `judge check` in another process
    assert daemon.cycle(NOW + 4 * H).unread == 2


def test_an_earlier_now_reads_every_game(daemon):
    assert daemon.cycle(NOW).unread == 0


def test_a_held_game_is_reported_at_every_cycle(judge):
    started(judge, "late")
    daemon = Daemon(judge, True)
    deadline = current_deadline(judge.status("late"))
    daemon.cycle(deadline - 2 * H)
    outage = daemon.cycle(deadline + 2 * H)  # no cycle for four hours: the game is held
    assert outage.held == ("late",)
    for k in range(1, 3):
        assert any(line.startswith("late: held since") for line in daemon.cycle(deadline + 2 * H + k * 20 * M).lines)


def test_a_started_daemon_trusts_the_index_unless_the_judge_changed(judge, monkeypatch):
    started(judge, "calm")
    started(judge, "still")
    Daemon(judge, True).cycle(NOW + H)
    assert Daemon(judge, True).cycle(NOW + 2 * H).unread == 2  # a restart: nothing read
    monkeypatch.setattr(idle, "judge_identity", lambda: "another release")
    assert Daemon(judge, True).cycle(NOW + 3 * H).unread == 0  # an upgrade: every game read
    assert Daemon(judge, True).cycle(NOW + 4 * H).unread == 2


def test_the_judges_identity_follows_its_code(monkeypatch, tmp_path):
    package = tmp_path / "judge"
    (package / "game").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    module = package / "game" / "schedule.py"
    module.write_text("# a module of the judge\n")
    monkeypatch.setattr(idle.judge, "__file__", str(package / "__init__.py"))
    idle.judge_identity.cache_clear()
    try:
        before = idle.judge_identity()
        assert idle.judge_identity() == before
        idle.judge_identity.cache_clear()
        module.write_text("# the module changed\n")
        assert idle.judge_identity() != before
    finally:
        idle.judge_identity.cache_clear()


@pytest.mark.parametrize("stamp", [(1, 2, 3, 4), (2**64 - 1, 0, -5 * 10**9, 10**18, 7, 8, 9)])
def test_an_entry_is_kept_whole_through_its_file(tmp_path, stamp):
    index = idle.Index("sig")
    index.note("g", idle.Entry.of(stamp, NOW, idle.FOREVER))
    index.note("h", idle.Entry.of(stamp[:4], NOW - H, NOW + 3 * H))
    idle.save_index(tmp_path, index)
    loaded = idle.load_index(tmp_path, "sig").entries
    assert loaded == index.entries
    assert (loaded["h"].read, loaded["h"].quiet) == (NOW - H, NOW + 3 * H)
    assert loaded["g"].quiet == idle.FOREVER and loaded["g"].skips(stamp, NOW + 1000 * 24 * H)
    assert not loaded["h"].skips(stamp[:4], NOW + 3 * H) and loaded["h"].skips(stamp[:4], NOW)
    assert not loaded["h"].skips((1, 2, 3, 5), NOW)


@pytest.mark.parametrize("packed", ["zz", "00" * 20, 5])
def test_a_damaged_entry_makes_a_new_index(tmp_path, packed):
    (tmp_path / idle.INDEX_FILE).write_text(f'{{"signature":"sig","games":{{"g":{json.dumps(packed)}}}}}')
    assert idle.load_index(tmp_path, "sig").entries == {}


def test_without_inotify_the_daemon_looks_at_every_game(judge, monkeypatch):
    def unavailable():
        raise idle.inotify.Unavailable("no inotify here")
    monkeypatch.setattr(idle.inotify, "Inotify", unavailable)
    started(judge, "calm")
    daemon = Daemon(judge, True)
    assert daemon.read(NOW + H) == ["calm"]
    assert daemon.kept.watch is None and daemon.cycle(NOW + 2 * H).unread == 1
    (judge.store.root / "calm" / "state").write_text("LISTED no\n")
    assert daemon.read(NOW + 3 * H) == ["calm"]
