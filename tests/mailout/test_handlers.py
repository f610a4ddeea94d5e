"""Each kind of event has exactly one handler, checked when the mail layer is imported."""
from __future__ import annotations

import pytest

from judge import events as ev
from judge import notices
from judge.mailout.game_mail import Handler, Occasion, handler_table
from judge.mailout.mailings import EVENT_KINDS, HANDLERS


def test_every_kind_of_event_has_its_handler():
    assert set(HANDLERS) == set(EVENT_KINDS)
    assert {ev.PhaseResults, notices.Press, notices.OrdersStored} <= set(EVENT_KINDS)


def test_a_kind_of_event_without_a_handler_is_refused():
    without = [h for h in HANDLERS.values() if h.kind is not ev.Reminder]
    with pytest.raises(TypeError, match="no handler of Reminder events"):
        handler_table(without, EVENT_KINDS)


def test_two_handlers_of_one_kind_are_refused():
    with pytest.raises(TypeError, match="two handlers of Reminder events"):
        handler_table([*HANDLERS.values(), HANDLERS[ev.Reminder]], EVENT_KINDS)


def test_a_handler_of_something_that_is_no_event_is_refused():
    stray = Handler(str, lambda mail, text, occasion: [])
    with pytest.raises(TypeError, match="a handler of str"):
        handler_table([*HANDLERS.values(), stray], EVENT_KINDS)


def test_a_handler_refuses_another_kind_of_event(mailer):
    with pytest.raises(TypeError, match="GameFull event given to the Reminder handler"):
        HANDLERS[ev.Reminder].mailings(mailer, ev.GameFull("jigdy"), Occasion(()))
