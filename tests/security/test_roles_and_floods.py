"""Master-only commands stay the Master's, and a flood of mail gets few answers."""
from __future__ import annotations

import time
from datetime import timedelta

import pytest

from judge.commands.auth import Level
from judge.commands.dispatch import REGISTRY
from judge.commands.registry import Stage
from judge.runtime import inbox
from tests.support.commands import NOW
from tests.support.mail import mail

pytestmark = pytest.mark.security

MASTER_ONLY = sorted({(c.call_words()[0], c.arity[0] if c.arity else 0) for c in REGISTRY.commands
                      if c.level >= Level.MASTER and c.stage & Stage.AFTER})
PLAYER_SIGNONS = [("chloe@example.fr", "Fvienna paris7"), ("kibitz@example.org", "kibitz@vienna w4tch"),
                  ("mapper@example.org", "Fvienna w4tch")]


def test_the_master_only_commands_are_known():
    names = {word for word, _ in MASTER_ONLY}
    assert {"PROCESS", "PROCESS!", "ROLLBACK", "ROLLFORWARD", "DUMMY", "REVIVE", "MORPH", "WAIT",
            "TERMINATE", "ACTIVATE", "FORM", "PREVIEW", "OFFICIAL", "REVEAL"} <= names


@pytest.mark.parametrize("word, arity", MASTER_ONLY)
@pytest.mark.parametrize("sender, signon", PLAYER_SIGNONS[:2])
def test_a_player_cannot_use_a_master_command(vienna, word, arity, sender, signon):
    before, results = vienna.text("vienna"), vienna.store.root / "vienna"
    files = sorted(p.name for p in results.iterdir())
    line = " ".join([word] + ["ITALY"] * arity)
    sent = vienna.send(mail(sender, f"SIGNON {signon}", line))
    assert sent.failed and f"only the Master may use {REGISTRY.find(word.split(), True).name}" in sent.text
    assert vienna.text("vienna") == before and sorted(p.name for p in results.iterdir()) == files
    assert not sent.events


@pytest.mark.parametrize("line", ["SET DEADLINE 2025-03-01 18:00", "SET ZONE Asia/Tokyo",
                                  "RESIGN Gvienna ber1in", "PRESS FROM M TO E", "SIGNON Mvienna paris7"])
def test_a_player_cannot_act_for_the_master_or_another_power(vienna, line):
    before = vienna.text("vienna")
    sent = vienna.send(mail("chloe@example.fr", "SIGNON Fvienna paris7", line, "text", "ENDPRESS"))
    assert sent.failed and vienna.text("vienna") == before


# -- floods -------------------------------------------------------------------------------------
def test_a_flood_from_one_sender_gets_few_replies_but_its_orders_are_kept(handler):
    limit = handler.settings.signed_replies_per_window  # signed on: a password holder's limit
    answered = 0
    for n in range(limit + 5):
        order = "A PAR - BUR" if n % 2 else "A PAR - PIC"
        mails = handler(mail("chloe@example.fr", "SIGNON Fvienna paris7", order, number=n),
                        NOW + timedelta(seconds=n))
        answered += bool(mails)
    assert answered == limit
    assert handler.read("vienna").power("FRANCE").orders == (order,)  # the last mail's


@pytest.mark.parametrize("headers", [("Auto-Submitted: auto-replied",), ("Precedence: bulk",),
                                     ("List-Id: <spam.example>",), ("X-Loop: judge@example.org",)])
def test_robots_and_loops_get_no_answer_at_all(handler, headers):
    assert all(handler(mail("bot@example.net", "LIST", headers=headers, number=n), NOW) == []
               for n in range(5))


def test_a_bounce_gets_no_answer(handler):
    raw = mail("chloe@example.fr", "LIST").replace(b"Return-Path: <chloe@example.fr>", b"Return-Path: <>")
    assert handler(raw, NOW) == []


@pytest.mark.parametrize("raw", [
    mail("bot@example.net", "LIST", headers=("Auto-Submitted: auto-generated",)),
    mail("chloe@example.fr", "LIST").replace(b"Return-Path: <chloe@example.fr>", b"Return-Path: <>"),
    mail("judge@example.org", "LIST"),
    mail("Chloe <chloe@example.fr>, Bea <bea@example.fr>", "LIST"),
], ids=["robot", "bounce", "own", "no-one-sender"])
def test_mail_dropped_by_its_headers_has_no_body_parsed_nor_game_read(handler, monkeypatch, raw):
    """A flood of robots' mail costs the worker its headers only: the rest is never built."""
    def past_the_headers(*args, **kwargs):
        raise AssertionError("read past the headers")
    monkeypatch.setattr(inbox, "parse_rest", past_the_headers)
    monkeypatch.setattr(inbox, "carry_out", past_the_headers)
    assert handler.run(raw, NOW) == (None, [])


def test_a_huge_mail_is_read_in_bounded_time(handler):
    lines = ["SIGNON Fvienna paris7"] + ["A PAR - BUR"] * 200_000
    started = time.perf_counter()
    mails = handler(mail("chloe@example.fr", *lines), NOW)
    assert time.perf_counter() - started < 20
    assert "only its start was read" in mails[0].get_content()
