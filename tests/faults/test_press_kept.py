"""A press mail's messages are kept (`press.json`) in the journal entry of its receipt: stopped at
any step, the mail run again keeps each message once and is answered from its receipt; the status
file is left byte for byte; the file keeps the newest `[limits] press_kept_per_game`."""
from __future__ import annotations

import json
from dataclasses import replace

import pytest

from judge.mailout.envelope import raw_key
from judge.runtime import journal
from judge.runtime.inbox import MailHandler
from judge.runtime.press_file import PRESS_FILE, newest_first
from judge.runtime.store import GameDir, GameStore
from tests.support.faults import NOW, mail, player, power_of, started, write_config

pytestmark = pytest.mark.faults


class Killed(Exception):
    pass


def killed(*args, **kwargs):
    raise Killed


def press_mail(store: GameStore, n: int = 1, text: str = "Hello") -> bytes:
    _, initial = power_of(store, "g", 0)
    other, _ = power_of(store, "g", 1)
    return mail(player(0).email, f"SIGNON {initial}g pw0\nPRESS TO {other}\n{text} {n}\nENDPRESS", n)


def bodies(store: GameStore) -> list[str]:
    return [k.body[0] for k in reversed(list(newest_first(GameDir(store.root / "g"))))]


@pytest.fixture
def judge(tmp_path):
    config = write_config(tmp_path)
    store = GameStore(config.paths.games)
    started(store, "g")
    return config, store


def test_a_press_mail_keeps_its_message_and_leaves_the_status_byte_for_byte(judge):
    config, store = judge
    status = store.root / "g" / "status"
    status.write_bytes(status.read_bytes() + b"\n\n")  # a layout the judge would not write
    before = status.read_bytes()
    MailHandler(config)(press_mail(store), NOW)
    assert status.read_bytes() == before
    assert bodies(store) == ["Hello 1"]
    assert journal.pending(store.root) == []


@pytest.mark.parametrize("step", ["press", "receipt"])
def test_a_press_mail_stopped_at_any_step_keeps_its_message_once(judge, monkeypatch, step):
    """Killed after the journal entry (the commit point), before the press was kept or before
    its receipt was written: the mail run again completes the entry as it reads the game and is
    answered from the receipt, so the message is kept once and mailed once."""
    config, store = judge
    raw = press_mail(store)
    target = (journal.press_file, "keep") if step == "press" else (journal, "write_receipt")
    monkeypatch.setattr(*target, killed)
    with pytest.raises(Killed):
        MailHandler(config)(raw, NOW)
    monkeypatch.undo()
    assert journal.pending(store.root) == ["g"]
    replies = [bytes(m) for m in MailHandler(config)(raw, NOW)]
    assert bodies(store) == ["Hello 1"] and journal.pending(store.root) == []
    assert journal.read_receipt(store.root, raw_key(raw, "receipt")) is not None
    assert [bytes(m) for m in MailHandler(config)(raw, NOW)] == replies
    assert bodies(store) == ["Hello 1"]


def test_an_entry_completed_twice_keeps_its_messages_once(judge):
    config, store = judge
    MailHandler(config)(press_mail(store, 1), NOW)
    records = [json.loads(line) for line in (store.root / "g" / PRESS_FILE).read_text().splitlines()]
    with store.locked("g") as game:
        entry = journal.write(game, None, "", (), press=(records, 10))
        journal.complete(game, dict(entry))
        journal.complete(game, dict(entry))
    assert bodies(store) == ["Hello 1"]


def test_the_oldest_messages_go_past_the_limit(judge):
    config, store = judge
    handler = MailHandler(replace(config, limits=replace(config.limits, press_kept_per_game=3)))
    for n in range(1, 6):
        handler(press_mail(store, n), NOW)
    assert [(k.number, k.body[0]) for k in newest_first(GameDir(store.root / "g"))] == \
        [(5, "Hello 5"), (4, "Hello 4"), (3, "Hello 3")]


def test_a_kept_file_that_cannot_be_read_holds_up_nothing(judge):
    config, store = judge
    (store.root / "g" / PRESS_FILE).write_bytes(b"\xff\xfe not UTF-8\n")
    MailHandler(config)(press_mail(store), NOW)
    assert journal.pending(store.root) == [] and bodies(store) == ["Hello 1"]
