"""Bounded fan-out: one mail makes a few, never a crowd.

A stranger can CREATE a game, JOIN it and choose the addresses of his seat: a player's mail goes to
a few addresses only, every copy of a reply costs the sender a reply of his limit, and all the mails
answering one incoming mail together reach a bounded number of addresses.
"""
from __future__ import annotations

import logging
from dataclasses import replace
from datetime import timedelta

import pytest

from judge.commands.session import Settings
from judge.runtime.config import Config
from judge.runtime.inbox import MailHandler
from tests.support.commands import GAMES, NOW
from tests.support.mail import mail

pytestmark = pytest.mark.security

CROWD = tuple(f"victim{n}@crowd.test" for n in range(1500))


def to_of(mails) -> list[str]:
    return [m["To"] for m in mails]


def with_limits(config: Config, **limits: int) -> MailHandler:
    from judge.limits import Limits

    handler = MailHandler(replace(config, limits=Limits(**limits)))
    handler.store.create("vienna", (GAMES / "vienna.status").read_text())
    return handler


def hand_edited(handler: MailHandler, power: str, addresses: tuple[str, ...]) -> str:
    """The vienna game with `power`'s ADDRESS line written by hand; the file's text."""
    path = handler.store.root / "vienna" / "status"
    old = next(line for line in path.read_text().splitlines()
               if line.startswith("ADDRESS ") and power in line)
    text = path.read_text().replace(old, "ADDRESS " + ",".join(addresses))
    path.write_text(text)
    return text


# -- attack 2: one mail makes 1,500 ------------------------------------------------------------
def test_a_stranger_cannot_make_one_mail_into_a_crowd(handler):
    """The attack as found: CREATE, JOIN, SET ADDRESS to 1,500, then sign on from elsewhere."""
    handler(mail("mallory@evil.test", "CREATE crowd mpw1", "map standard", "FORM"), NOW)
    handler(mail("mallory@evil.test", "JOIN crowd jpw1", number=1), NOW)
    seat = handler.read("crowd").powers[0].name
    set_address = handler(mail("mallory@evil.test", f"SIGNON {seat.lower()}@crowd jpw1",
                               "SET ADDRESS " + ",".join(CROWD), number=2), NOW)
    mails = handler(mail("other@evil.test", f"SIGNON {seat.lower()}@crowd jpw1", "LIST crowd",
                         number=3), NOW + timedelta(minutes=1))
    assert 1 <= len(mails) <= 5
    assert "at most" in set_address[0].get_content()


def test_set_address_takes_a_few_addresses_and_names_the_limit(vienna):
    few = Settings().addresses_per_player
    chosen = ",".join(f"chloe{n}@example.fr" for n in range(few))
    taken = vienna.send(mail("chloe@example.fr", "SIGNON Fvienna paris7", f"SET ADDRESS {chosen}"))
    assert not taken.failed
    assert vienna.status("vienna").power("FRANCE").address == tuple(chosen.split(","))
    too_many = chosen + ",chloe.extra@example.fr"
    before = vienna.text("vienna")
    refused = vienna.send(mail("chloe@example.fr", "SIGNON Fvienna paris7",
                               f"SET ADDRESS {too_many}", number=1))
    assert refused.failed
    assert f"at most {few} addresses" in refused.prose and f"you gave {few + 1}" in refused.prose
    assert vienna.text("vienna") == before


def test_the_same_address_twice_counts_once(vienna):
    few = Settings().addresses_per_player
    again = ",".join(["chloe@example.fr"] * (few + 2))
    sent = vienna.send(mail("chloe@example.fr", "SIGNON Fvienna paris7", f"SET ADDRESS {again}"))
    assert not sent.failed
    assert vienna.status("vienna").power("FRANCE").address == ("chloe@example.fr",)


def test_an_overlong_address_line_on_file_mails_its_first_addresses_only(handler, caplog):
    few = handler.settings.addresses_per_player
    text = hand_edited(handler, "chloe@example.fr", CROWD)
    with caplog.at_level(logging.WARNING, logger="judge.mail"):
        reply = handler(mail("other@example.net", "SIGNON Fvienna paris7", "LIST vienna"), NOW)
        press = handler(mail("ben@example.co.uk", "SIGNON Evienna lond0n", "PRESS TO F",
                             "Hello France.", "ENDPRESS", number=1), NOW)
    assert to_of(reply) == ["other@example.net", *CROWD[:few]]
    assert sorted(to_of(press)) == sorted(["ben@example.co.uk", *CROWD[:few]])
    assert "FRANCE" in caplog.text and f"only the first {few}" in caplog.text
    assert (handler.store.root / "vienna" / "status").read_text() == text


def test_an_overlong_address_line_survives_a_change_of_the_game(handler):
    hand_edited(handler, "chloe@example.fr", CROWD)
    handler(mail("chloe@example.fr", "SIGNON Fvienna paris7", "A PAR - PIC"), NOW)
    france = handler.read("vienna").power("FRANCE")
    assert france.orders is not None and "A PAR - PIC" in france.orders
    assert france.address == CROWD


def test_the_cycles_mail_goes_to_the_first_addresses_of_an_overlong_line(tmp_path, caplog):
    from tests.support.cycle import Judge as Folder
    from tests.support.games import NOW as STARTED

    folder = Folder(tmp_path)
    folder.start("crowd", ["TIMING NEXT 1D"], STARTED)
    path = folder.root / "games" / "crowd" / "status"
    text = path.read_text().replace("ADDRESS player4@example.org", "ADDRESS " + ",".join(CROWD))
    path.write_text(text)
    folder.take_outbox()
    with caplog.at_level(logging.WARNING):
        folder.check(STARTED + timedelta(days=2))
    reached = {m["To"] for m in folder.take_outbox()}
    few = Settings().addresses_per_player
    assert reached & set(CROWD) == set(CROWD[:few])
    crowded = next(b.name for b in folder.status("crowd").powers if b.address == CROWD)
    assert crowded in caplog.text and f"only the first {few}" in caplog.text


def test_copies_spend_the_senders_replies(handler):
    copies = ("chloe@example.fr", "chloe@home.example", "chloe@work.example")
    hand_edited(handler, "chloe@example.fr", copies)
    per_reply = 1 + len(copies)
    answered = [handler(mail("other@example.net", "SIGNON Fvienna paris7", "LIST vienna",
                             number=n), NOW + timedelta(seconds=n)) for n in range(30)]
    sent = [len(mails) for mails in answered]
    limit = handler.settings.signed_replies_per_window  # the mails give a right password
    whole = limit // per_reply
    assert sum(sent) == limit and sent[:whole] == [per_reply] * whole


def test_every_copy_of_a_reply_counts_against_the_senders_limit(config):
    handler = with_limits(config, signed_replies_per_sender=7, addresses_per_player=4)
    copies = tuple(f"chloe{n}@example.fr" for n in range(4))
    hand_edited(handler, "chloe@example.fr", copies)
    first = handler(mail("other@example.net", "SIGNON Fvienna paris7", "LIST vienna"), NOW)
    assert to_of(first) == ["other@example.net", *copies]  # 1 + 4 = 5 of 7
    second = handler(mail("other@example.net", "SIGNON Fvienna paris7", "LIST vienna", number=1),
                     NOW + timedelta(minutes=1))
    assert to_of(second) == ["other@example.net", copies[0]]  # the 2 left: the sender's first
    third = handler(mail("other@example.net", "SIGNON Fvienna paris7", "LIST vienna", number=2),
                    NOW + timedelta(minutes=2))
    assert third == []
    later = handler(mail("other@example.net", "SIGNON Fvienna paris7", "LIST vienna", number=3),
                    NOW + timedelta(minutes=61))
    assert len(later) == 5


def test_the_mails_answering_one_mail_reach_a_bounded_number_of_addresses(config, caplog):
    handler = with_limits(config, recipients_per_mail=4)
    with caplog.at_level(logging.WARNING, logger="judge.mail"):
        mails = handler(mail("joe@blow.com", "SIGNON Mvienna kr4k3n", "BROADCAST", "Hello all.",
                             "ENDPRESS"), NOW)
    addresses = {m["To"] for m in mails}
    assert len(addresses) == 4 and "joe@blow.com" in addresses  # the sender's reply first
    assert "4" in caplog.text and "not sent" in caplog.text


def test_the_bound_keeps_the_first_addresses_and_counts_each_address_once():
    from judge.mailout.audience import Mailing, bounded
    from judge.mailout.render import Rendered

    words = Rendered("s", "b")
    kept, dropped = bounded([Mailing(("Sender@x.test",), words),
                             Mailing(("a@x.test", "sender@x.test", "b@x.test"), words),
                             Mailing(("a@x.test", "c@x.test"), words)], 3)
    assert [m.recipients for m in kept] == [("Sender@x.test",), ("a@x.test", "sender@x.test",
                                                                  "b@x.test"), ("a@x.test",)]
    assert dropped == 1
