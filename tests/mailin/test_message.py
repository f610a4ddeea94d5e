"""Reading a raw message: sender, body part, charsets, line rules, and mail never to answer."""
from __future__ import annotations

from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

import pytest

import judge.mailin.message as message_module
from judge.mailin.message import command_lines, parse_headers, parse_rest, read_message, reply_headers


def mail(body="signon fgame pw\nA PAR - BUR\n", **headers) -> bytes:
    msg = EmailMessage()
    msg["From"] = headers.pop("From", "Player <Player@Example.ORG>")
    msg["To"] = "judge@example.org"
    msg["Subject"] = "orders"
    msg["Message-ID"] = "<1@example.org>"
    for name, value in headers.items():
        msg[name.replace("_", "-")] = value
    msg.set_content(body)
    return bytes(msg)


def test_sender_is_lower_case_from_address():
    assert read_message(mail()).sender == "player@example.org"


def test_reply_to_wins_over_from():
    assert read_message(mail(Reply_To="Other <other@example.org>")).sender == "other@example.org"


def test_lines_keep_their_case_and_blank_lines():
    lines = read_message(mail("SIGNON Fgame pw\nPRESS TO E\nHello There\n\nBye\n")).lines
    assert lines[:3] == ("SIGNON Fgame pw", "PRESS TO E", "Hello There") and "" in lines


def test_comment_lines_are_removed():
    assert command_lines("// CREATE x y\n  // note\nLIST\n")[0] == ["LIST", ""]


def test_alternate_line_separator():
    lines, *_ = command_lines("\\\\; signon Egame passwd;f lon - eng;press to f;This means war!!")
    assert lines == ["signon Egame passwd", "f lon - eng", "press to f", "This means war!!"]


def test_br_endings_stripped_when_every_line_has_one():
    assert command_lines("LIST<br>\nSUMMARY game<BR />\n")[0] == ["LIST", "SUMMARY game", ""]
    assert command_lines("LIST<br>\nSUMMARY game\n")[0][0] == "LIST<br>"


def test_quoted_lines_and_signature_are_ignored():
    lines, *_ = command_lines("LIST\n> old quoted LIST\n-- \nJane, player since 1990\n")
    assert lines == ["LIST"]


def test_signoff_ends_the_commands():
    lines, signed_off, _ = command_lines("LIST\nSIGNOFF\nA PAR - BUR\n")
    assert lines == ["LIST"] and signed_off


def test_first_plain_part_of_multipart():
    msg = EmailMessage()
    msg["From"] = "p@example.org"
    msg.set_content("LIST\n")
    msg.add_alternative("<p>SUMMARY</p>", subtype="html")
    incoming = read_message(bytes(msg))
    assert incoming.lines[0] == "LIST" and not incoming.html_only


def test_html_only_is_stripped_to_text_and_flagged():
    msg = EmailMessage()
    msg["From"] = "p@example.org"
    msg.set_content("<html><style>p{}</style><p>LIST</p><p>SUMMARY&nbsp;game</p></html>", subtype="html")
    incoming = read_message(bytes(msg))
    assert incoming.html_only
    assert [line for line in incoming.lines if line] == ["LIST", "SUMMARY game"]


@pytest.mark.parametrize("charset, text", [("iso-8859-1", "PRESS\nDéjà vu\n"), ("utf-8", "PRESS\nΓειά\n")])
def test_charsets(charset, text):
    msg = EmailMessage()
    msg["From"] = "p@example.org"
    msg.set_content(text, charset=charset, cte="quoted-printable")
    assert read_message(bytes(msg)).lines[1] == text.split("\n")[1]


def test_undecodable_garbage_never_fails():
    raw = b"From: p@example.org\nContent-Type: text/plain; charset=x-unknown\n\nLIST \xff\xfe\n"
    assert read_message(raw).lines[0].startswith("LIST")


def test_malformed_headers_never_abort():
    raw = b"From: =?utf-8?q?broken\nSubject: =?bogus?x?zz?=\nMessage-ID: <<<\n\nLIST\n"
    incoming = read_message(raw)
    assert incoming.lines[0] == "LIST"


def test_size_cap():
    incoming = read_message(mail("LIST\n" + "x" * 70000 + "\n"))
    assert incoming.truncated


@pytest.mark.parametrize("headers, envelope, reason", [
    ({}, "", "a bounce"),
    ({"From": "MAILER-DAEMON@example.org"}, None, "a bounce"),
    ({"Auto_Submitted": "auto-replied"}, None, "Auto-Submitted: auto-replied"),
    ({"Precedence": "bulk"}, None, "Precedence: bulk"),
    ({"List_Id": "<dip.example.org>"}, None, "mailing-list mail"),
    ({"X_Loop": "judge@example.org"}, None, "our own mail (X-Loop)"),
])
def test_mail_never_answered(headers, envelope, reason):
    assert read_message(mail(**headers), envelope, our_loop="judge@example.org").automatic == reason


def test_ordinary_mail_may_be_answered():
    assert read_message(mail(Auto_Submitted="no"), "p@example.org", "judge@example.org").automatic == ""


def test_reply_headers():
    incoming = read_message(mail(References="<0@example.org>"))
    assert reply_headers(incoming) == {"In-Reply-To": "<1@example.org>",
                                       "References": "<0@example.org> <1@example.org>"}


def test_a_message_already_parsed_is_read_as_its_bytes_are(monkeypatch):
    raw = mail("SIGNON Fgame pw\nA PAR - BUR\n", Reply_To="Other <other@example.org>")
    parsed = message_from_bytes(raw, policy=policy.default)
    expected = read_message(raw, "player@example.org", "judge@example.org")
    monkeypatch.setattr(message_module, "message_from_bytes", lambda *a, **k: pytest.fail("parsed again"))
    assert read_message(raw, "player@example.org", "judge@example.org", parsed=parsed) == expected


# Found by the fuzz run at full size: Python's email parser raises IndexError on this Content-Type
# while it reads the message, so the whole mail could not be read.
BROKEN_TYPE = b"Content-Type: ;0*\r\n"


def test_a_content_type_the_email_package_fails_on_is_read_as_text():
    incoming = read_message(b"From: player@example.org\r\n" + BROKEN_TYPE + b"\r\nLIST g\r\n")
    assert incoming.sender == "player@example.org" and incoming.lines[0] == "LIST g"


def test_a_part_whose_content_type_the_email_package_fails_on_is_read_as_text():
    raw = (b"From: player@example.org\r\nContent-Type: multipart/mixed; boundary=XX\r\n\r\n"
           b"--XX\r\n" + BROKEN_TYPE + b"\r\nLIST g\r\n--XX--\r\n")
    assert read_message(raw).lines == ("LIST g",)


def test_the_mail_handler_answers_a_mail_with_a_broken_content_type(make_config):
    from judge.runtime.inbox import MailHandler
    from tests.support.faults import NOW
    config = make_config()
    raw = b"From: player@example.org\r\n" + BROKEN_TYPE + b"Subject: s\r\n\r\nLIST\r\n"
    replies = MailHandler(config)(raw, NOW)
    assert [str(m["To"]) for m in replies] == ["player@example.org"]


REPLIES = Path(__file__).parent / "replies"


@pytest.mark.parametrize("client", sorted(p.stem for p in REPLIES.glob("*.eml")))
def test_a_reply_is_read_up_to_the_mail_it_quotes(client):
    incoming = read_message((REPLIES / f"{client}.eml").read_bytes())
    assert [line for line in incoming.lines if line] == ["SIGNON Fbeta pw1", "A PAR - BUR", "F BRE - MAO"]
    assert not incoming.signed_off


@pytest.mark.parametrize("client, first", [
    ("gmail", "On Fri, 27 Nov 2026 at 19:00, Diplomacy Judge <judge@judge.test> wrote:"),
    ("gmail_wrapped", "On Fri, Nov 27, 2026 at 7:00 PM Diplomacy Judge of the beta game <"),
    ("apple_mail", "> On 27 Nov 2026, at 19:00, Diplomacy Judge <judge@judge.test> wrote:"),
    ("outlook_original", "-----Original Message-----"),
    ("outlook_headers", "From: Diplomacy Judge <judge@judge.test>"),
    ("french", "Le ven. 27 nov. 2026 à 19:00, Diplomacy Judge <judge@judge.test> a écrit :"),
    ("spanish", "El vie, 27 nov 2026 a las 19:00, Diplomacy Judge (<judge@judge.test>) escribió:"),
    ("italian", ("Il giorno ven 27 nov 2026 alle ore 19:00 Diplomacy Judge <judge@judge.test> "
                 "ha scritto:")),
])
def test_the_line_where_reading_stopped_is_kept(client, first):
    assert read_message((REPLIES / f"{client}.eml").read_bytes()).quoted_from == first


def test_a_quoted_html_reply_without_an_attribution_is_quoted_text():
    incoming = read_message((REPLIES / "html_blockquote.eml").read_bytes())
    assert incoming.html_only and not incoming.quoted_from


def test_text_that_only_looks_like_a_header_is_read():
    lines, _, quoted_from = command_lines(
        "PRESS TO E\nOn Tuesday we move.\nFrom: France, with love\nTo: England\nSubject: peace"
        "\nBcc: all\nENDPRESS\n")
    assert quoted_from == "" and lines[-3:] == ["Bcc: all", "ENDPRESS", ""]


def test_a_signoff_before_the_quote_is_what_ended_the_mail():
    _, signed_off, quoted_from = command_lines("LIST\nSIGNOFF\nOn Fri, X wrote:\n> LIST\n")
    assert signed_off and quoted_from == ""


def test_a_long_line_that_starts_like_an_attribution_is_read_quickly():
    body = ("On " + "a b" * 20000 + "\n") * 2
    assert command_lines(body)[2] == ""


def test_raw_latin1_mail_without_mime_headers_keeps_its_accents():
    raw = b"From: p@example.org\nSubject: press\n\nPRESS TO ALL\nperch\xe8 no?\nENDPRESS\n"
    assert read_message(raw).lines[1] == "perch\u00e8 no?"


def test_raw_utf8_mail_without_mime_headers_is_read_as_utf8():
    raw = "From: p@example.org\nSubject: press\n\nPRESS TO ALL\nperchè no?\n".encode()
    assert read_message(raw).lines[1] == "perch\u00e8 no?"


def test_a_short_header_is_parsed_once_and_a_long_one_each_time_it_is_read():
    subject = "=?iso-8859-1?q?Ordres_=E0_jour?="
    long_subject = "orders " + "x" * message_module.KEPT_HEADER_CHARS
    for text in (subject, long_subject):
        raw = (f"From: Fr <fr@x.test>\nSubject: {text}\nContent-Type: text/plain\n\nA PAR H\n").encode()
        first, again = message_module.parse(raw), message_module.parse(raw)
        assert str(first["Subject"]) == str(again["Subject"]) == \
            ("Ordres à jour" if text == subject else long_subject)
        assert (first["Subject"] is again["Subject"]) == (text == subject)
        assert read_message(raw).subject == str(first["Subject"])


def forwarded() -> bytes:
    inner = mail("LIST g\n")
    return (b"From: p@example.org\r\nContent-Type: message/rfc822\r\n\r\n" + inner)


@pytest.mark.parametrize("raw", [
    mail(), mail("PRESS TO ALL\nperch\u00e8 no?\nENDPRESS\n"),
    b"From: p@example.org\nSubject: press\n\nPRESS TO ALL\nperch\xe8 no?\nENDPRESS\n",
    b"From: player@example.org\r\n" + BROKEN_TYPE + b"\r\nLIST g\r\n",
    b"From: player@example.org\r\nContent-Type: multipart/mixed; boundary=XX\r\n\r\n"
    b"--XX\r\n" + BROKEN_TYPE + b"\r\nLIST g\r\n--XX--\r\n",
    b"From: player@example.org\r\nContent-Type: text/plain; charset=utf-8\r\n"
    b"Content-Transfer-Encoding: base64\r\n\r\nTElTVCBnCg==\r\n",
    forwarded(),
], ids=["plain", "utf8", "latin1-raw", "broken-type", "multipart", "base64", "forwarded"])
def test_a_mail_read_from_its_header_parse_reads_as_when_parsed_whole(raw):
    assert read_message(raw, parsed=parse_rest(raw, parse_headers(raw))) == read_message(raw)


def test_a_text_mail_is_parsed_once_for_its_headers_and_its_body():
    raw = mail()
    heads = parse_headers(raw)
    assert parse_rest(raw, heads) is heads
