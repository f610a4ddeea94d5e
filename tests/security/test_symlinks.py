"""No path inside the judge's folders is followed through a symlink, for reading or writing: a game's
folder and its files, the journal and receipts, the spools and their folders, the reply history.
Whoever can plant a link there (a local user, a restored backup) never makes the judge read or
write a file outside its folders; the refusal is logged. The configured folders themselves (games,
spool) may be symlinks: that is the judgekeeper's choice."""
from __future__ import annotations

import logging
import os
import threading
from email import message_from_bytes, policy
from pathlib import Path

import pytest

from judge.runtime.config import Config, JudgeSection, PathsSection
from judge.runtime.inbox import MailHandler, pipe_mail
from judge.runtime.sender_history import HISTORY_FOLDER, history_name
from judge.runtime.spool import Spool
from judge.runtime.store import GameStore
from tests.support.commands import GAMES, NOW, Judge
from tests.support.mail import JUDGE_ADDRESS, KEEPER, mail

pytestmark = pytest.mark.security

ORDERS = ("SIGNON Fvienna paris7", "A PAR - BUR", "F BRE - MAO", "A MAR - SPA")
KEPT = "the keeper's own notes\n"


def listing(folder: Path) -> dict[str, bytes]:
    """Every file below `folder` with its bytes: what must not change."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder outside the judge's, with a file of the keeper's in it."""
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "notes.txt").write_text(KEPT)
    return folder


@pytest.fixture
def store(tmp_path: Path) -> GameStore:
    store = GameStore(tmp_path / "games")
    store.create("vienna", (GAMES / "vienna.status").read_text())
    return store


def refused_in_log(caplog: pytest.LogCaptureFixture, name: str) -> bool:
    return any("refused" in r.getMessage() and name in r.getMessage() and "symlink" in
               r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR)


# -- a game's folder and files --------------------------------------------------------------------
def test_a_game_folder_that_is_a_symlink_is_never_used(tmp_path, outside, caplog):
    (outside / "status").write_text((GAMES / "vienna.status").read_text())
    before = listing(outside)
    judge = Judge(tmp_path / "games")
    judge.store.root.mkdir()
    (judge.store.root / "vienna").symlink_to(outside)
    sent = judge.send(mail("chloe@example.fr", *ORDERS))
    assert sent.failed and "France" not in sent.text
    assert listing(outside) == before
    assert refused_in_log(caplog, "vienna")


@pytest.mark.parametrize("name", ["status", "state", "results", "status.S1901M"])
def test_a_game_file_that_is_a_symlink_is_never_read(store, outside, name):
    path = store.root / "vienna" / name
    path.unlink(missing_ok=True)
    path.symlink_to(outside / "notes.txt")
    read = {"status": "read_status", "state": "read_state", "results": "read_results"}
    with store.locked("vienna") as game, pytest.raises(OSError):
        if name in read:
            getattr(game, read[name])()
        else:
            game.read_snapshot("S1901M")


@pytest.mark.parametrize("name", ["results", ".lock"])
def test_a_game_file_that_is_a_symlink_is_never_written_through(store, outside, name):
    (store.root / "vienna" / name).unlink(missing_ok=True)
    (store.root / "vienna" / name).symlink_to(outside / "notes.txt")
    with pytest.raises(OSError):
        with store.locked("vienna") as game:
            game.append_results("Spring 1901: the keeper's notes are overwritten\n")
    assert listing(outside) == {"notes.txt": KEPT.encode()}


def test_a_temporary_file_name_planted_as_a_symlink_is_not_written_through(store, outside):
    tmp = store.root / "vienna" / f".status.{os.getpid()}.{threading.get_ident()}.tmp"
    tmp.symlink_to(outside / "notes.txt")
    with store.locked("vienna") as game:
        game.write_status("GAME vienna\nPHASE FORMING\n")
    status = store.root / "vienna" / "status"
    assert not status.is_symlink() and status.read_text() == "GAME vienna\nPHASE FORMING\n"
    assert listing(outside) == {"notes.txt": KEPT.encode()}
    assert not os.path.lexists(tmp)


@pytest.mark.parametrize("folder", [".receipts", ".journal"])
def test_the_journal_and_receipt_folders_are_never_followed(store, config, outside, folder):
    (store.root / folder).symlink_to(outside, target_is_directory=True)
    handler = MailHandler(config)
    with pytest.raises(OSError):  # the mail is tried again later, once the keeper has looked
        handler(mail("chloe@example.fr", *ORDERS), NOW)
    assert listing(outside) == {"notes.txt": KEPT.encode()}


# -- the spools and the reply history ---------------------------------------------------------------
def spool_config(tmp_path: Path) -> Config:
    return Config(judge=JudgeSection(id="TEST", address=JUDGE_ADDRESS, keeper=KEEPER),
                  paths=PathsSection(games=tmp_path / "games", maps=tmp_path / "maps",
                                     spool=tmp_path / "spool"))


def test_an_inbox_that_is_a_symlink_is_not_written_to(tmp_path, outside, caplog):
    config = spool_config(tmp_path)
    config.paths.spool.mkdir()
    (config.paths.spool / "inbox").symlink_to(outside, target_is_directory=True)
    assert pipe_mail(config, mail("chloe@example.fr", "LIST"), None, NOW, err=lambda _: None) == 75
    assert listing(outside) == {"notes.txt": KEPT.encode()}
    assert refused_in_log(caplog, "inbox")


@pytest.mark.parametrize("folder", ["inbox/done", "outbox/.ids", "outbox"])
def test_a_spool_folder_that_is_a_symlink_is_not_written_to(tmp_path, outside, folder):
    config = spool_config(tmp_path)
    (config.paths.spool / folder).parent.mkdir(parents=True)
    (config.paths.spool / folder).symlink_to(outside, target_is_directory=True)
    raw = mail("chloe@example.fr", "LIST")
    assert pipe_mail(config, raw, None, NOW, err=lambda _: None) == 0
    assert listing(outside) == {"notes.txt": KEPT.encode()}
    inbox = Spool(config.paths.spool / "inbox")
    kept = inbox.waiting() + inbox.claimed()
    assert [Spool.read(item) for item in kept] == [raw]  # not lost: the daemon tries it again


def test_a_spooled_mail_that_is_a_symlink_is_not_read(tmp_path, outside):
    inbox = Spool(tmp_path / "spool" / "inbox").create()
    item = inbox.put(b"From: chloe@example.fr\r\n\r\nLIST\r\n")
    item.path.unlink()
    item.path.symlink_to(outside / "notes.txt")
    with pytest.raises(OSError):
        Spool.read(inbox.claim(item))


def test_a_reply_history_file_that_is_a_symlink_is_not_written_through(config, handler, outside):
    folder = config.paths.spool / HISTORY_FOLDER
    folder.mkdir(parents=True)
    (folder / history_name("chloe@example.fr")).symlink_to(outside / "notes.txt")
    with pytest.raises(OSError):
        handler(mail("chloe@example.fr", "LIST"), NOW)
    assert listing(outside) == {"notes.txt": KEPT.encode()}


# -- the judgekeeper's own symlinks ---------------------------------------------------------------------
def test_the_configured_games_and_spool_folders_may_be_symlinks(tmp_path):
    real = tmp_path / "srv"
    (real / "games").mkdir(parents=True)
    (real / "spool").mkdir()
    config = spool_config(tmp_path)
    config.paths.games.symlink_to(real / "games", target_is_directory=True)
    config.paths.spool.symlink_to(real / "spool", target_is_directory=True)
    GameStore(config.paths.games).create("vienna", (GAMES / "vienna.status").read_text())
    assert pipe_mail(config, mail("chloe@example.fr", *ORDERS), None, NOW) == 0
    replies = [message_from_bytes(p.read_bytes(), policy=policy.default)
               for p in (real / "spool" / "outbox").glob("*.eml")]
    assert [str(m["To"]) for m in replies] == ["chloe@example.fr"]
    assert "A PAR - BUR" in (real / "games" / "vienna" / "status").read_text()


def test_the_log_says_when_a_configured_folder_is_a_symlink(tmp_path):
    from judge.runtime.store import symlinked_root
    (tmp_path / "srv").mkdir()
    (tmp_path / "games").symlink_to(tmp_path / "srv", target_is_directory=True)
    assert symlinked_root(tmp_path / "srv") is None
    assert "followed, as configured; no symlink inside it is" in symlinked_root(tmp_path / "games")
