"""How far one orders mail reaches into the judge (`tests/support/module_trace.py`): the modules
whose functions run while the inbox runner carries it out, warm, and the calls that go back up a
layer. The aim is 15 modules; today's count is held so that it cannot grow unseen, and no call
goes back up: the shell reads ahead what the commands need (`session.ReadAhead`)."""
from __future__ import annotations

from tests.support.module_trace import orders_mail_trace

MODULES_AT_MOST = 51
UP_A_LAYER: set[tuple[str, str]] = set()


def test_an_orders_mail_crosses_no_more_modules_than_counted_and_goes_up_no_new_way(tmp_path):
    trace = orders_mail_trace(tmp_path)
    assert len(trace.modules) <= MODULES_AT_MOST, sorted(trace.modules)
    assert "judge.runtime.inbox" in trace.modules and "judge.commands.orders" in trace.modules
    assert trace.upward <= UP_A_LAYER
