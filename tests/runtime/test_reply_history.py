"""The memory of replies sent (the rate limit's history): a small file per sender, never fsynced."""
from __future__ import annotations

import io
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from judge.commands.session import Settings
from judge.runtime.sender_history import ReplyHistory, history_name, rewrite

NOW = datetime(2025, 1, 6, 12, 0, tzinfo=UTC)


@pytest.fixture
def history(tmp_path: Path) -> ReplyHistory:
    return ReplyHistory(tmp_path / "reply-history",
                        Settings(replies_per_window=3, reply_window=timedelta(hours=1)))


def test_a_sender_gets_the_limit_of_replies_in_a_window_then_more_once_it_has_passed(history):
    answers = [history.allow("chloe@example.fr", NOW + timedelta(minutes=n)) for n in range(5)]
    assert answers == [True, True, True, False, False]
    assert history.allow("chloe@example.fr", NOW + timedelta(minutes=61))


def test_each_sender_has_a_history_of_its_own(history):
    for n in range(3):
        history.allow("chloe@example.fr", NOW + timedelta(minutes=n))
    assert history.allow("dave@example.org", NOW + timedelta(minutes=3))
    assert sorted(p.name for p in history.folder.iterdir()) == \
        sorted([history_name("chloe@example.fr"), history_name("dave@example.org")])


def test_a_reply_reads_and_writes_its_own_senders_file_only(history):
    for n in range(200):
        history.allow(f"player{n}@example.org", NOW)
    other = history.folder / history_name("player7@example.org")
    other.write_text("not a time\n")
    assert history.allow("chloe@example.fr", NOW)
    assert other.read_text() == "not a time\n"


def test_the_history_is_not_fsynced(history, monkeypatch):
    def refuse(fd: int) -> None:
        raise AssertionError("a reply waited for the disk")
    monkeypatch.setattr(os, "fsync", refuse)
    assert history.allow("chloe@example.fr", NOW)


def test_a_reply_denied_or_granted_again_leaves_the_senders_file_untouched(history):
    assert history.grant("chloe@example.fr", NOW, 3, key="reply-1") == 3
    path = history.folder / history_name("chloe@example.fr")
    os.utime(path, ns=(0, 0))
    text = path.read_text()
    assert history.grant("chloe@example.fr", NOW, 2, key="reply-1") == 2  # recorded before
    assert not history.allow("chloe@example.fr", NOW + timedelta(minutes=1))  # over the limit
    assert path.stat().st_mtime_ns == 0 and path.read_text() == text
    assert history.allow("chloe@example.fr", NOW + timedelta(minutes=61))
    assert path.stat().st_mtime_ns != 0


def test_the_history_folders_are_made_again_when_gone(history):
    assert history.allow("chloe@example.fr", NOW)
    for name in os.listdir(history.folder):
        os.unlink(history.folder / name)
    os.rmdir(history.folder)
    assert history.allow("chloe@example.fr", NOW)
    assert (history.folder / history_name("chloe@example.fr")).read_text().strip() == NOW.isoformat()


def test_a_line_a_crash_cut_short_is_left_out(history):
    history.folder.mkdir(parents=True)
    (history.folder / history_name("chloe@example.fr")).write_text(
        f"{NOW.isoformat()}\n{NOW.isoformat()}\n2025-01-06T12:0")
    assert history.allow("chloe@example.fr", NOW)
    assert not history.allow("chloe@example.fr", NOW)


def test_prune_forgets_the_senders_not_answered_within_the_window(history):
    history.allow("chloe@example.fr", NOW)
    history.allow("dave@example.org", NOW)
    old = history.folder / history_name("dave@example.org")
    hours_ago = (datetime.now(UTC) - timedelta(hours=2)).timestamp()
    os.utime(old, (hours_ago, hours_ago))
    assert history.prune(datetime.now(UTC)) == 1
    assert [p.name for p in history.folder.iterdir()] == [history_name("chloe@example.fr")]


class Recording(io.StringIO):
    def __init__(self, text: str):
        super().__init__(text)
        self.cuts: list[int] = []

    def truncate(self, size: int | None = None) -> int:
        self.cuts.append(self.tell() if size is None else size)
        return super().truncate(size)


@pytest.mark.parametrize("old, new", [("a long line\n" * 5, "short\n"), ("short\n", "a longer one\n")])
def test_a_history_file_is_rewritten_in_place_never_cut_to_nothing_first(old, new):
    handle = Recording(old)
    rewrite(handle, new)
    assert handle.getvalue() == new and 0 not in handle.cuts


def test_each_copy_of_a_reply_is_one_of_the_limit_the_first_copies_first(history):
    assert history.grant("chloe@example.fr", NOW, 2) == 2
    assert history.grant("chloe@example.fr", NOW + timedelta(minutes=1), 5) == 1
    assert history.grant("chloe@example.fr", NOW + timedelta(minutes=2), 1) == 0
    assert not history.allow("chloe@example.fr", NOW + timedelta(minutes=3))
    assert history.grant("chloe@example.fr", NOW + timedelta(minutes=61), 5) == 3


def test_replies_to_mail_with_a_right_password_have_their_own_higher_limit(tmp_path):
    history = ReplyHistory(tmp_path, Settings(replies_per_window=2, signed_replies_per_window=4))
    assert [history.allow("chloe@example.fr", NOW) for _ in range(3)] == [True, True, False]
    assert [history.allow("chloe@example.fr", NOW, signed=True) for _ in range(3)] == \
        [True, True, False]
