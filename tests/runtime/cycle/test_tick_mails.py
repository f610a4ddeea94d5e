"""A tick's mails are the same whether the cycle puts them in the outbox with the changes (the
daemon, `judge check`) or its caller makes them afterwards (`cycle_mails`)."""
from __future__ import annotations

from email import message_from_bytes, policy

from judge.runtime.cycle import cycle_mails, run_cycle
from judge.runtime.spool import open_spools
from judge.runtime.store import GameStore
from tests.support.faults import TICK_AT, everyone_ordered, started, write_config


def ticked(folder, *, outbox: bool) -> list[tuple[str, str, str, str]]:
    config = write_config(folder)
    store = GameStore(config.paths.games)
    started(store, "g")
    everyone_ordered(store, "g")
    spool = open_spools(config).outbox
    report = run_cycle(store, config, TICK_AT, outbox=spool if outbox else None)
    later, problems = cycle_mails(report, config)
    assert not problems
    queued = [message_from_bytes(spool.read(item), policy=policy.default) for item in spool.waiting()]
    return sorted((str(m["Message-ID"]).strip(), str(m["To"]), str(m["Subject"]),
                   m.get_body(("plain",)).get_content()) for m in [*queued, *later])


def test_the_mails_made_with_the_change_are_those_made_after_the_cycle(tmp_path):
    with_change = ticked(tmp_path / "with", outbox=True)
    afterwards = ticked(tmp_path / "after", outbox=False)
    assert len(with_change) >= 8 and with_change == afterwards
