"""The spool's id markers: a mail put twice is queued once, however full `done/` is, and a put that a
crash cut short between its marker and its message is put again, never lost."""
from __future__ import annotations

import statistics
import time

import pytest

from judge.runtime.spool import IDS_DIR, Spool

pytestmark = pytest.mark.faults


@pytest.fixture
def outbox(tmp_path):
    return Spool(tmp_path / "outbox", bad="failed").create()


def test_an_id_already_done_is_not_queued_again(outbox):
    item = outbox.put(b"one", "mail-1")
    outbox.done(outbox.claim(item))
    assert outbox.put(b"one again", "mail-1") is None
    assert outbox.waiting() == []


def test_a_marker_whose_mail_is_nowhere_lets_the_mail_be_put(outbox):
    outbox.put(b"first", "other")
    (outbox.root / IDS_DIR / "cut-short").touch()  # a crash after the marker, before the mail
    item = outbox.put(b"the mail", "cut-short")
    assert item is not None and Spool.read(item) == b"the mail"


def test_a_spool_from_before_the_markers_gets_them_at_its_first_put(tmp_path):
    old = Spool(tmp_path / "old").create()
    (old.done_dir / f"{time.time_ns():020d}-0-sent-long-ago.eml").write_bytes(b"x")
    (old.bad_dir / f"{time.time_ns():020d}-3-refused.eml").write_bytes(b"x")
    assert old.put(b"again", "sent-long-ago") is None
    assert old.put(b"again", "refused") is None
    assert old.put(b"new", "new") is not None


def _put_cost(spool: Spool, tag: str) -> float:
    """The median CPU time of a put, over rounds of puts (CPU, not wall: a loaded machine and a slow
    disk's fsyncs change wall time, not the work a put does)."""
    rounds = []
    for r in range(7):
        started = time.process_time()
        for n in range(20):
            spool.put(b"x", f"{tag}-{r}-{n}")
        rounds.append((time.process_time() - started) / 20)
    return statistics.median(rounds)


def test_a_put_costs_the_same_with_a_month_of_mail_done(tmp_path, outbox):
    for n in range(3000):
        (outbox.done_dir / f"{time.time_ns():020d}-0-old{n}.eml").write_bytes(b"x")
    outbox.put(b"first", "first")  # the markers made once
    empty = Spool(tmp_path / "empty", bad="failed").create()
    empty.put(b"first", "first")
    assert _put_cost(outbox, "new") < 2 * _put_cost(empty, "new") + 0.0005
    assert outbox.put(b"x", "old42") is None


def test_pruning_forgets_the_markers_too(outbox):
    item = outbox.put(b"x", "pruned")
    outbox.done(outbox.claim(item))
    assert outbox.prune(time.time_ns() + 1) == 1
    assert not (outbox.root / IDS_DIR / "pruned").exists()
    assert outbox.put(b"x", "pruned") is not None
