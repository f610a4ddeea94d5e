"""What each reader saw of a kept press message: the truth for its sender and those who read it,
what they were told for the other readers, nothing for anyone else; the public reads true
broadcasts as their readers do; OFFICIAL press shows no sender or recipients."""
from __future__ import annotations

import pytest

from judge.game.press_kept import PUBLIC, Kept, from_record, page_of, seen_by, to_record
from judge.game.press_routing import PressRouting


def kept(to, shown_from, shown_to, readers, knowing=(), sender="FRANCE", official=None, number=1):
    return Kept(number, "SPRING 1901 MOVEMENT", "2026-03-01T13:00:00+00:00", sender,
                PressRouting(to, shown_from, shown_to, readers, knowing), ("Hi",), official)


FAKED = kept(("ENGLAND",), "GERMANY", ("ENGLAND", "ITALY"), ("ENGLAND",), ("MASTER", "TURKEY"))


def test_a_reader_sees_what_it_was_told():
    seen = seen_by(FAKED, "ENGLAND")
    assert seen is not None and not seen.truth
    assert (seen.shown_from, seen.shown_to, seen.true_from, seen.true_to) == \
        ("GERMANY", ("ENGLAND", "ITALY"), None, None)


@pytest.mark.parametrize("reader", ["FRANCE", "MASTER", "TURKEY"])
def test_the_sender_and_those_who_know_see_the_truth(reader):
    seen = seen_by(FAKED, reader)
    assert seen is not None and seen.truth and seen.sent == (reader == "FRANCE")
    assert (seen.true_from, seen.true_to) == ("FRANCE", ("ENGLAND",))


@pytest.mark.parametrize("reader", ["ITALY", "RUSSIA", PUBLIC])
def test_anyone_else_sees_nothing_of_private_press(reader):
    assert seen_by(FAKED, reader) is None


def test_a_fake_broadcast_is_not_public():
    faked = kept(("ENGLAND",), "FRANCE", None, ("ENGLAND",))
    assert seen_by(faked, PUBLIC) is None and seen_by(faked, "ENGLAND") is not None


def test_the_public_reads_a_broadcast_as_its_readers_do():
    grey = kept(None, None, None, ("ENGLAND", "ITALY"), ("MASTER",))
    assert seen_by(grey, PUBLIC) == seen_by(grey, "ENGLAND")
    assert seen_by(grey, PUBLIC).shown_from is None


def test_official_press_shows_no_sender_nor_recipients():
    official = kept(None, "MASTER", None, ("FRANCE",), sender="MASTER", official="Rules")
    seen = seen_by(official, "FRANCE")
    assert seen is not None and seen.official == "Rules" and seen.shown_from is None


def test_a_page_is_newest_first():
    messages = [kept(None, "FRANCE", None, ("ENGLAND",), number=n) for n in range(5, 0, -1)]
    first, older = page_of(messages, "ENGLAND", 0, 2)
    assert [s.number for s in first] == [5, 4] and older
    last, older = page_of(messages, "ENGLAND", 2, 2)
    assert [s.number for s in last] == [1] and not older


def test_a_record_reads_back_as_it_was_kept():
    assert from_record(to_record(FAKED)) == FAKED


@pytest.mark.parametrize("field, value", [("body", "text"), ("number", "1"), ("to", "ENGLAND")])
def test_a_damaged_record_is_refused(field, value):
    with pytest.raises(ValueError):
        from_record({**to_record(FAKED), field: value})
