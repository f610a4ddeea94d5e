"""A mail's effect and its replies, when the inbox worker dies between the two.

The worker is killed (SIGKILL, from inside) at the worst instant of a mail's processing: its game is
written, none of its replies is in the outbox yet, the mail is still claimed. The worker started
again processes the mail again. Whatever the command, the games, the outbox and the inbox must then
be exactly those of a worker never killed: the effect applied once, every reply and notice queued
once, with the words of the first processing (not those of a second look at a game already
changed: "you already joined", "wrong password").
"""
from __future__ import annotations

import signal
from collections import Counter
from pathlib import Path

import pytest

from judge.game import join
from judge.runtime.commit import run
from judge.runtime.commit import new_game
from judge.runtime.spool import Spool
from judge.runtime.store import GameStore
from tests.support.faults import (
    NOW,
    everyone_ordered,
    mail,
    mails_in,
    outbox_mails,
    player,
    power_of,
    start,
    started,
    work,
    write_config,
)

pytestmark = pytest.mark.faults


def forming(store: GameStore, name: str, players: int) -> None:
    new_game(store, name, "standard", "gm@crash.test", "gmpw", ["RULE DEFAULT_UNORDERED"])
    for n in range(players):
        run(store, name, lambda s, m, n=n: join(s, m, NOW, player(n), f"pw{n}"))


def orders_mail(store: GameStore, n: int) -> str:
    from tests.support.faults import _units
    power, initial = power_of(store, "g", n)
    return f"SIGNON {initial}g pw{n}\n" + "\n".join(f"{unit} H" for unit in _units(store, "g", power))


def press(store: GameStore) -> str:
    _, initial = power_of(store, "g", 0)
    _, other = power_of(store, "g", 1)
    return f"SIGNON {initial}g pw0\nPRESS TO {other}\nMeet me in Tyrolia.\nENDPRESS"


def password(store: GameStore) -> str:
    _, initial = power_of(store, "g", 0)
    return f"SIGNON {initial}g pw0\nSET PASSWORD fresh0"


def last_orders(store: GameStore) -> str:
    """The last orders of a REAL_TIME game: the phase is processed by the mail."""
    power, _ = power_of(store, "g", 0)
    everyone_ordered(store, "g", but=(power,))
    return orders_mail(store, 0)


MASTER = "gm@crash.test"
SCENARIOS = {  # name: (the judge's games, the mail's text, its sender)
    "orders": (lambda store: started(store, "g"), lambda store: orders_mail(store, 0), 0),
    "press": (lambda store: started(store, "g"), press, 0),
    "set-password": (lambda store: started(store, "g"), password, 0),
    "join-the-last-seat": (lambda store: forming(store, "g", 6), lambda store: "JOIN g pw6", 6),
    "orders-that-process": (lambda store: started(store, "g", "RULE REAL_TIME"), last_orders, 0),
    "create": (lambda store: None, lambda store: "CREATE newg secret\nFORM", MASTER),
    "rename": (lambda store: forming(store, "g", 0), lambda store: "RENAME g h gmpw", MASTER),
    "wait": (lambda store: started(store, "g"), lambda store: "SIGNON Mg gmpw\nWAIT", MASTER),
}


def judge_with_one_mail(root: Path, scenario: str):
    config = write_config(root)
    store = GameStore(config.paths.games)
    make, body, sender = SCENARIOS[scenario]
    make(store)
    text = body(store)
    address = sender if isinstance(sender, str) else player(sender).email
    Spool(config.paths.spool / "inbox", bad="bad").create().put(mail(address, text, 1))
    return config


def everything(config) -> dict[str, bytes]:
    """Every file of every game (status, state, results, snapshots, journals...), by path."""
    root = Path(config.paths.games)
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and not p.name.endswith(".lock")}


def inbox_places(config) -> list[str]:
    folder = Path(config.paths.spool) / "inbox"
    return sorted("claimed" if p.suffix == ".bak" else p.parent.name if p.parent != folder
                  else "waiting" for p in folder.rglob("*") if p.suffix in (".eml", ".bak")
                  and not p.name.startswith("."))


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_killed_after_the_game_write_before_the_replies(scenario, tmp_path):
    config = judge_with_one_mail(tmp_path / "judge", scenario)
    before = everything(config)
    killed = start(config, "mail", NOW, JUDGE_TEST_KILL_BEFORE_QUEUE=str(tmp_path / "replies"))
    output = killed.communicate(timeout=120)[0].decode()
    assert killed.returncode == -signal.SIGKILL, output
    written, replies = everything(config), mails_in(tmp_path / "replies")
    assert replies, "the mail is answered"
    assert written != before or scenario == "press", "killed after the game was written"
    assert outbox_mails(config) == [] and inbox_places(config) == ["claimed"]

    work(config, "mail", NOW, None)  # the worker started again
    assert inbox_places(config) == ["done"]
    assert everything(config) == written, "the mail's effect applied a second time"
    assert Counter(outbox_mails(config)) == Counter(replies), "a reply lost, doubled or changed"


def test_a_rename_cut_short_before_the_folder_moved_is_done_by_the_mail_run_again(tmp_path,
                                                                                   monkeypatch):
    """Killed between the status (with the new name) and the folder's move: no receipt yet, so
    the mail run again moves the folder, and answers as the first run would have."""
    from judge.runtime import commit as writer
    from judge.runtime.inbox import MailHandler

    config = write_config(tmp_path)
    store = GameStore(config.paths.games)
    forming(store, "g", 0)
    raw = mail(MASTER, "RENAME g h gmpw", 1)

    class Killed(Exception):
        pass

    def killed(*args):
        raise Killed
    monkeypatch.setattr(writer, "rename", killed)
    with pytest.raises(Killed):
        MailHandler(config)(raw, NOW)
    monkeypatch.undo()
    assert store.names() == ["g"]
    replies = MailHandler(config)(raw, NOW)
    assert store.names() == ["h"]
    assert any("is now called 'h'" in m.get_content() for m in replies)


def test_a_mail_whose_change_stopped_in_its_journal_is_answered_from_its_receipt(tmp_path,
                                                                                 monkeypatch):
    """Killed after the journal entry (the change's commit point) but before the status was
    written: the mail run again completes its own change as it reads the game, and is answered
    from its receipt, not carried out a second time (the password changed by the first run
    would refuse the second)."""
    from judge.runtime.inbox import MailHandler, unpack
    from judge.runtime.journal import read_receipt
    from judge.mailout.envelope import raw_key
    from judge.runtime.store import GameDir

    config = write_config(tmp_path)
    store = GameStore(config.paths.games)
    started(store, "g")
    raw = mail(player(0).email, password(store), 1)

    class Killed(Exception):
        pass

    def killed(*args):
        raise Killed
    monkeypatch.setattr(GameDir, "write_status", killed)
    with pytest.raises(Killed):
        MailHandler(config)(raw, NOW)
    monkeypatch.undo()
    before = everything(config)
    assert any(name.startswith(".journal/") for name in before)
    replies = [bytes(m) for m in MailHandler(config)(raw, NOW)]
    assert not any(name.startswith(".journal/") for name in everything(config))
    receipt = read_receipt(store.root, raw_key(raw, "receipt"))
    assert receipt is not None and [bytes(m) for m in unpack(receipt)] == replies
    assert replies and not any(b"wrong password" in m for m in replies)
    assert [bytes(m) for m in MailHandler(config)(raw, NOW)] == replies
