"""Every header the judge writes is built from its own values: nothing a mail brings in (a subject,
a message id, a display name, a Master's OFFICIAL subject), however often it is encoded, becomes a
header line of its own or a recipient. Each hostile mail goes the whole way: the handler, the
outbox (its stored bytes read back and parsed), and the outbox sender talking to a real relay on
loopback, whose envelope recipients are checked."""
from __future__ import annotations

import base64
import logging
import re
from email import message_from_bytes, policy
from email.parser import BytesHeaderParser

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from judge.runtime.config import JudgeSection, SmtpOutSection
from judge.mailout.envelope import build_message, envelopes
from judge.mailout.audience import Mailing
from judge.mailout.render import Rendered
from judge.runtime.outbox import OutboxSender
from judge.runtime.spool import Spool, outbox_id
from tests.support.commands import GAMES, NOW
from tests.support.transport import LOOPBACK, Relay, free_port

pytestmark = pytest.mark.security

VICTIM = "v@v.test"
SMUGGLED = f"x\r\nBcc: {VICTIM}"  # short: an OFFICIAL subject has at most 60 characters
CHLOE, BEN, MASTER = "chloe@example.fr", "ben@example.co.uk", "joe@blow.com"
# The headers the judge writes; anything else in a stored mail was smuggled in.
JUDGE_HEADERS = {"from", "to", "subject", "date", "message-id", "in-reply-to", "references",
                 "auto-submitted", "x-loop", "content-type", "content-transfer-encoding",
                 "mime-version", "x-judge-envelope-to"}
ONCE = ("from", "to", "subject", "date", "message-id")
JUDGE = JudgeSection(id="TEST", address="judge@example.org", keeper="keeper@example.net")


# -- the attacker's encodings ----------------------------------------------------------------------
def q_word(text: str) -> str:
    safe = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!*+-/")
    coded = "".join(c if c in safe else "_" if c == " " else
                    "".join(f"={b:02X}" for b in c.encode()) for c in text)
    return f"=?utf-8?q?{coded}?="


def b_word(text: str) -> str:
    return f"=?utf-8?b?{base64.b64encode(text.encode()).decode()}?="


def encoded(text: str, kind: str, times: int) -> str:
    for _ in range(times):
        text = q_word(text) if kind == "q" else b_word(text)
    return text


PAYLOADS = {
    **{f"{kind}x{times}": encoded(SMUGGLED, kind, times) for kind in "qb" for times in (1, 2, 3)},
    "q then b": b_word(q_word(SMUGGLED)),
    "cc and to": q_word(f"x\r\nCc: {VICTIM}\r\nTo: {VICTIM}"),
    "b then q": q_word(b_word(SMUGGLED)),
    "word in text": "orders " + q_word(q_word(SMUGGLED)) + " tail",
    "raw crlf": SMUGGLED,
    "raw lf": SMUGGLED.replace("\r\n", "\n"),
    "raw cr": SMUGGLED.replace("\r\n", "\r"),
    "nul and controls": "x\x00\x07\x08\x0b\x0c\x1b[2J\x7f\x85\u2028Bcc: " + VICTIM,
    "folded": f"x\r\n Bcc: {VICTIM}\r\n\tCc: {VICTIM}",
    "folded word": "x\r\n " + q_word(q_word(SMUGGLED)),
}


# -- hostile mails, one per header the judge copies or derives -----------------------------------
def raw_mail(*, sender: str = CHLOE, from_line: str = "", subject: str = "orders",
             message_id: str = "<hostile@x.test>", extra: tuple[str, ...] = (),
             lines: tuple[str, ...] = ("SIGNON Fvienna paris7",)) -> bytes:
    head = [f"Return-Path: <{sender}>", f"From: {from_line or sender}", "To: judge@example.org",
            f"Subject: {subject}", f"Message-ID: {message_id}", "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=UTF-8", *extra]
    return ("\r\n".join(head) + "\r\n\r\n" + "\r\n".join(lines) + "\r\n").encode("utf-8")


def official(payload: str) -> bytes:
    """The Master's OFFICIAL subject is a body line: what reaches it is the text as written (one
    line of it, control characters as spaces)."""
    first = payload.replace("\r", "\n").split("\n")[0]
    return raw_mail(sender=MASTER, lines=("SIGNON Mvienna kr4k3n", f"OFFICIAL {first}", "BROADCAST",
                                          "Hear ye.", "ENDBROADCAST"))


CARRIERS = {
    "Subject": lambda p: raw_mail(subject=p),
    "References": lambda p: raw_mail(extra=(f"References: <a@x.test> {p} <b@x.test>",)),
    "In-Reply-To": lambda p: raw_mail(extra=(f"In-Reply-To: {p}",)),
    "Message-ID": lambda p: raw_mail(message_id=p),
    "Message-ID word": lambda p: raw_mail(message_id=f"<{p}@x.test>"),
    "From name": lambda p: raw_mail(from_line=f"{p} <{CHLOE}>"),
    "Reply-To name": lambda p: raw_mail(extra=(f"Reply-To: {p} <{CHLOE}>",)),
    "OFFICIAL": official,
}


# -- the path every mail takes ---------------------------------------------------------------------
@pytest.fixture(scope="module")
def relay():
    server = Relay(free_port()).start()
    yield server
    server.stop()


def stored_mails(handler, raw: bytes, outbox: Spool) -> list[bytes]:
    """The mails the judge queues for `raw`, as the outbox holds them."""
    for message in handler(raw, NOW):
        outbox.put(bytes(message), outbox_id(message))
    return [Spool.read(item) for item in outbox.waiting()]


def head_lines(raw: bytes) -> list[bytes]:
    """The header lines of raw mail bytes, each folded header joined to its first line."""
    head = raw.replace(b"\r\n", b"\n").split(b"\n\n", 1)[0]
    lines: list[bytes] = []
    for line in head.split(b"\n"):
        if line[:1] in (b" ", b"\t") and lines:
            lines[-1] += line
        else:
            lines.append(line)
    return lines


def judge_built(raw: bytes, allowed: set[str] = JUDGE_HEADERS) -> None:
    """Only the judge's headers, those it writes once written once, no recipient beyond To, no
    control character: in the raw bytes and in the mail parsed back."""
    names = [line.split(b":", 1)[0].strip().lower().decode() for line in head_lines(raw)]
    assert set(names) <= allowed, names
    assert all(names.count(name) == 1 for name in ONCE), names
    assert "bcc" not in names and "cc" not in names
    assert all(32 <= byte < 127 for line in head_lines(raw) for byte in line.replace(b"\t", b" "))
    again = message_from_bytes(raw, policy=policy.default)
    assert {k.lower() for k in again.keys()} <= allowed
    assert [len(again.get_all(name, [])) for name in ONCE] == [1] * len(ONCE)
    assert len(again["To"].addresses) == 1 and VICTIM not in str(again["To"])
    for name, value in again.items():
        assert str(value).isprintable(), (name, value)


def sent_through(relay: Relay, outbox: Spool) -> list:
    before = len(relay.received)
    OutboxSender(outbox, SmtpOutSection(host=LOOPBACK, port=relay.port), JUDGE,
                 timeout=10).drain(0.0)
    return relay.received[before:]


@pytest.mark.parametrize("payload", sorted(PAYLOADS), ids=str)
@pytest.mark.parametrize("carrier", sorted(CARRIERS), ids=str)
def test_no_header_from_input_adds_a_header_or_a_recipient(handler, tmp_path, relay, carrier,
                                                           payload):
    outbox = Spool(tmp_path / "outbox", bad="failed").create()
    stored = stored_mails(handler, CARRIERS[carrier](PAYLOADS[payload]), outbox)
    # A sender's name that holds a line break makes the sender unreadable: such mail is not
    # answered. Any other is, and only ever to the game's own people.
    assert stored or carrier.endswith(" name") and payload not in ("qx2", "qx3", "bx2", "bx3")
    intended = []
    for raw in stored:
        judge_built(raw)
        intended.append(message_from_bytes(raw, policy=policy.default)["To"].addresses[0].addr_spec)
    people = re.findall(r"[\w.+-]+@[\w.-]+", (GAMES / "vienna.status").read_text())
    assert set(intended) <= set(people)
    received = sent_through(relay, outbox)
    assert sorted(r.rcpt_tos[0] for r in received) == sorted(intended)
    for mail in received:
        assert len(mail.rcpt_tos) == 1 and VICTIM not in mail.rcpt_tos
        judge_built(mail.raw, JUDGE_HEADERS - {"x-judge-envelope-to"})


def test_a_double_encoded_subject_is_shown_as_text_never_decoded_again(handler, tmp_path):
    outbox = Spool(tmp_path / "outbox", bad="failed").create()
    [raw] = stored_mails(handler, raw_mail(subject=encoded(SMUGGLED, "q", 2)), outbox)
    subject = str(message_from_bytes(raw, policy=policy.default)["Subject"])
    assert subject.startswith("Re: = ?utf-8?q?x=0D=0ABcc") and "\n" not in subject
    assert b"=?utf-8?q?x=0D=0ABcc" not in raw  # nothing a reader could decode into a line break


@pytest.mark.parametrize("from_line", ['"v@v.test" <chloe@example.fr>',
                                       "=?utf-8?q?v=40v.test?= <chloe@example.fr>",
                                       "=?utf-8?q?v@v.test_<v@v.test>?= <chloe@example.fr>"])
def test_an_address_in_a_display_name_is_a_name(handler, from_line):
    [reply] = handler(raw_mail(from_line=from_line), NOW)
    assert reply["To"] == CHLOE


@pytest.mark.parametrize("from_line", ["x: v@v.test;", f"{CHLOE}, {VICTIM}",
                                       f"x: {CHLOE}, {VICTIM};", f"{CHLOE},\r\n {VICTIM}"])
def test_a_sender_that_is_not_one_mailbox_is_not_answered(handler, from_line):
    assert handler(raw_mail(from_line=from_line), NOW) == []


def test_reply_threading_keeps_only_well_formed_message_ids(handler, tmp_path):
    outbox = Spool(tmp_path / "outbox", bad="failed").create()
    refs = " ".join(["<a@x.test>", "junk", "<b c@x.test>", "<=?utf-8?q?x?=@x.test>", "<d@x.test>"]
                    + [f"<old{n}@x.test>" for n in range(200)])
    [raw] = stored_mails(handler, raw_mail(extra=(f"References: {refs}",)), outbox)
    mail = message_from_bytes(raw, policy=policy.default)
    assert str(mail["In-Reply-To"]) == "<hostile@x.test>"
    kept = str(mail["References"]).split()
    assert kept[-1] == "<hostile@x.test>" and "<old199@x.test>" in kept
    assert "junk" not in kept and "<b" not in kept and not any("=?" in i for i in kept)
    assert len(str(mail["References"])) <= 1000


def test_a_message_id_that_is_not_one_is_not_copied(handler, tmp_path):
    outbox = Spool(tmp_path / "outbox", bad="failed").create()
    [raw] = stored_mails(handler, raw_mail(message_id="x@y.test Bcc: " + VICTIM), outbox)
    mail = message_from_bytes(raw, policy=policy.default)
    assert mail["In-Reply-To"] is None and mail["References"] is None
    assert mail["Auto-Submitted"] == "auto-replied"


# -- the outbox sender takes the recipient from the judge, never from the headers ---------------
def test_the_relay_envelope_is_the_judges_recipient_whatever_the_stored_headers_say(tmp_path,
                                                                                     relay):
    outbox = Spool(tmp_path / "outbox", bad="failed").create()
    message = build_message(JUDGE, to=CHLOE, subject="s", body="b\n", now=NOW, key="k")
    raw = bytes(message).replace(b"\nSubject:", f"\nBcc: {VICTIM}\nCc: {VICTIM}\n"
                                 f"Resent-To: {VICTIM}\nSubject:".encode())
    outbox.put(raw, outbox_id(message))
    [mail] = sent_through(relay, outbox)
    assert mail.rcpt_tos == [CHLOE]
    assert b"Bcc:" not in mail.raw and b"\nCc:" not in mail.raw and b"Resent-To" not in mail.raw


# -- the one function every header value passes through ---------------------------------------
PIECES = list("aZ @:<>?=_\r\n\t\x00\x1b\x7f\x85\u2028é☃") + \
    ["=?", "?=", "=?utf-8?q?", "=0D=0A", "Bcc: ", "\r\n ", "<a@b.test>"]
HOSTILE_TEXT = st.lists(st.sampled_from(PIECES), max_size=120).map("".join) | st.builds(
    encoded, st.text(max_size=40), st.sampled_from("qb"), st.integers(1, 3))


@settings(max_examples=200, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(subject=HOSTILE_TEXT, refs=HOSTILE_TEXT)
def test_any_text_makes_a_mail_that_reads_back_as_the_judge_wrote_it(subject, refs):
    message = build_message(JUDGE, to=CHLOE, subject=subject, body="b\n", now=NOW, key="k",
                            in_reply_to="<m@x.test>", references=refs)
    raw = bytes(message)
    judge_built(raw)
    again = message_from_bytes(raw, policy=policy.default)
    assert " ".join(str(again["Subject"]).split()) == str(message["Subject"])  # folding aside
    assert "=?" not in str(again["Subject"])
    judge_built(bytes(again))  # a receipt read back and queued again is still the judge's mail
    head = BytesHeaderParser(policy=policy.compat32).parsebytes(raw)
    assert head.get_all("To") == [CHLOE]


# -- non-ASCII addresses ----------------------------------------------------------------------
def test_set_address_refuses_a_non_ascii_address_clearly(handler):
    [reply] = handler(raw_mail(lines=("SIGNON Fvienna paris7", "SET ADDRESS jörg@exämple.test")),
                      NOW)
    assert "only plain ASCII addresses" in " ".join(reply.get_content().split())
    assert handler.read("vienna").power("FRANCE").address == (CHLOE,)
    judge_built(bytes(reply))


def test_a_non_ascii_sender_is_not_kept_nor_answered(handler):
    handler.store.create("forming", (GAMES / "forming.status").read_text())
    assert handler(raw_mail(sender="jörg@exämple.test", lines=("JOIN forming pw",)), NOW) == []
    status = handler.read("forming")
    assert not any("jörg" in a for b in status.powers for a in b.address)


def test_a_hand_written_non_ascii_address_gets_no_mail_and_breaks_none(handler, tmp_path, relay,
                                                                        caplog):
    text = (GAMES / "vienna.status").read_text().replace(
        "GAME vienna", "GAME wien").replace("ADDRESS chloe@example.fr",
                                            "ADDRESS jörg@exämple.test,chloe@example.fr")
    handler.store.create("wien", text)
    outbox = Spool(tmp_path / "outbox", bad="failed").create()
    press = raw_mail(sender=BEN, lines=("SIGNON Ewien lond0n", "PRESS TO F", "Hi.", "ENDPRESS"))
    with caplog.at_level(logging.WARNING, logger="judge.mailout"):
        stored = stored_mails(handler, press, outbox)
    for raw in stored:
        judge_built(raw)
    received = sent_through(relay, outbox)
    assert sorted(r.rcpt_tos[0] for r in received) == [BEN, CHLOE]
    assert "jörg@exämple.test" in caplog.text


def test_a_non_ascii_recipient_is_skipped_with_a_warning(caplog):
    mailing = Mailing(("jörg@exämple.test", CHLOE, "x\r\nBcc: v@v.test"), Rendered("s", "b\n"))
    with caplog.at_level(logging.WARNING, logger="judge.mailout"):
        mails = envelopes(JUDGE, mailing, now=NOW, key="k")
    assert [str(m["To"]) for m in mails] == [CHLOE]
    assert "jörg@exämple.test" in caplog.text


# -- passwords in the unprocessed portion -----------------------------------------------------
SECRETS = ("paris7", "n3wsecret", "j0inpw", "cr3atepw", "t4keover", "obs3rve", "purg3pw")


def test_the_unprocessed_portion_masks_every_password(handler):
    lines = ("NONSENSE", "SIGNON Fvienna paris7", "signon fvienna paris7", "SET PASSWORD n3wsecret",
             "JOIN vienna j0inpw", "CREATE newgame cr3atepw", "TAKEOVER ITALY@vienna t4keover",
             "OBSERVER spy@vienna obs3rve", "OBS spy@vienna obs3rve", "PURGE vienna purg3pw",
             "A PAR - BUR")
    mails = handler(raw_mail(lines=lines), NOW)
    assert mails
    for mail in mails:
        text = mail.get_content()
        assert "Unprocessed portion" in text and "A PAR - BUR" in text
        assert not any(secret in text for secret in SECRETS), text


def test_a_join_as_line_refused_is_echoed_masked(handler):
    [reply] = handler(raw_mail(lines=("OBS spy@nosuchgame obs3rve",)), NOW)
    assert "obs3rve" not in reply.get_content()
