"""Real mail as clients send it: MIME structures, charsets, encodings, broken headers, robots."""
from __future__ import annotations

import pytest

from judge.commands.dispatch import HTML_NOTE
from judge.notices import Press
from judge.mailin.message import MAX_BODY_CHARS
from tests.support.commands import eml

STORED = ("A PAR - BUR", "A BUR - MUN", "F MAO - POR", "F BRE - ENG", "A SPA - GAS")


def test_multipart_alternative_reads_the_plain_part(vienna):
    sent = vienna.send("multipart_alternative.eml")
    assert vienna.status("vienna").power("FRANCE").orders == STORED
    assert sent.events_of(Press)[0].body == ("Cher Ben, à bientôt.",)
    assert "HTML" not in sent.text


def test_html_only_mail_is_read_as_text_and_the_reply_says_so(vienna):
    sent = vienna.send("html_only.eml")
    assert sent.reply.notes == (HTML_NOTE,)
    assert vienna.status("vienna").power("FRANCE").orders == STORED


def test_latin1_quoted_printable(vienna):
    sent = vienna.send("latin1_qp.eml")
    assert sent.events_of(Press)[0].body == ("Très cher ami, à bientôt. François vous salue.",)
    assert sent.reply.subject == "Presse pour l'Autriche"


def test_base64_utf8(vienna):
    sent = vienna.send("base64.eml")
    assert sent.events_of(Press)[0].body == ("Viele Grüße aus Paris — à tous!",)
    assert not vienna.status("vienna").power("FRANCE").wait


def test_an_unknown_charset_is_read_safely(vienna):
    sent = vienna.send("broken_charset.eml")
    body = sent.events_of(Press)[0].body[0]
    assert body.startswith("Caf") and "au lait" in body
    assert sent.outcome("STATUS").ok


def test_broken_headers_do_not_stop_the_commands(vienna):
    sent = vienna.send("broken_headers.eml")
    assert sent.reply.to == ("chloe@example.fr",) and sent.outcome("STATUS").ok


def test_attachments_are_not_read(vienna):
    sent = vienna.send("attachment.eml")
    assert vienna.status("vienna").power("FRANCE").orders == ("A PAR H",)
    assert vienna.status("vienna").power("FRANCE").password == "paris7"
    assert "fromattachment" not in sent.text


@pytest.mark.parametrize("eml_name", ["auto_reply.eml", "vacation_bulk.eml", "mailing_list.eml",
                                      "bounce.eml", "our_own.eml"])
def test_robots_get_no_answer_and_change_nothing(vienna, eml_name):
    before = vienna.text("vienna")
    sent = vienna.send(eml_name)
    assert sent.reply is None and sent.events == []
    assert vienna.text("vienna") == before


def test_a_one_megabyte_mail_is_cut_and_says_so(vienna):
    raw = eml("big_mail.eml") + b"All work and no play makes Jack a dull boy.\r\n" * 24000
    assert len(raw) > 1_000_000
    sent = vienna.send(raw)
    assert sent.reply.notes[0] == f"Your mail was longer than {MAX_BODY_CHARS} characters: only " \
                                  "its start was read."
    message = sent.events_of(Press)[0]
    assert sum(len(line) + 1 for line in message.body) <= MAX_BODY_CHARS


def test_the_alternate_line_separator(vienna):
    sent = vienna.send("alternate_separator.eml")
    assert sent.events_of(Press)[0].body == ("This means war!!",)
    assert vienna.status("vienna").power("FRANCE").orders == ("A PAR - BUR",)


def test_comments_and_the_signature_are_skipped(vienna):
    sent = vienna.send("comments_and_signature.eml")
    assert [o.command for o in sent.reply.outcomes] == ["SIGNON Fvienna ***", "STATUS"]


def test_signoff_ends_the_mail(vienna):
    sent = vienna.send("signoff.eml")
    assert vienna.status("vienna").power("FRANCE").password == "paris7"
    assert [o.command for o in sent.reply.outcomes] == ["SIGNON Fvienna ***", "STATUS"]


def test_quoted_lines_are_not_commands(vienna):
    sent = vienna.send("quoted_reply.eml")
    assert vienna.status("vienna").power("FRANCE").password == "paris7"
    assert "SET PASSWORD" not in sent.text
    # the line introducing the quote ends the reading (DPjudge reads it as an order)
    assert not sent.failed and "wrote:: " not in sent.text
    assert "where the mail it quotes begins: On Mon, the judge wrote:" in sent.prose


def test_a_reply_quoting_the_judge_keeps_its_orders_and_says_where_reading_stopped(vienna):
    sent = vienna.send("gmail_reply.eml")
    assert not sent.failed
    assert vienna.status("vienna").power("FRANCE").orders == STORED
    assert "stopped reading your mail where the mail it quotes begins: On Sun, 9 Feb 2025 at " \
        "12:00, Diplomacy Judge <judge@example.org> wrote:" in sent.prose


def test_a_raw_latin1_mail_keeps_the_accents_of_its_press(vienna):
    sent = vienna.send("latin1_raw.eml")
    assert sent.events_of(Press)[0].body == ("Perch\u00e8 no?",)
