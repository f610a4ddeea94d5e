"""A results mail's picture kept as its SVG (`envelopes(later=True)`) and made by the outbox sender
(`with_pictures`): what is sent is byte for byte the mail the picture made at once gives (but for
the MIME boundary, drawn at random whenever a mail is written), and the mail without a picture
when it cannot be made."""
from __future__ import annotations

import re
from dataclasses import replace
from email import message_from_bytes, policy
from datetime import UTC, datetime

import pytest

from judge.identity import JudgeSection
from judge.mailout.envelope import PICTURE_AS, PictureParts, envelopes, with_pictures
from judge.mailout.mailings import Mailer

NOW = datetime(2025, 2, 10, 18, 0, tzinfo=UTC)
JUDGE = JudgeSection(id="TEST", address="judge@example.org", keeper="keeper@example.org")
BOUNDARY = re.compile(rb"={15}\d+==")


class Encoder:
    """A stand-in for the PNG and PDF encoder: the bytes it makes name the picture and format (so a
    mail it had a part of shows it)."""

    def __call__(self, drawn, kind: str) -> bytes | None:
        return f"{kind} of {drawn.stem}: {len(drawn.svg)}".encode() * 40


class DrawingEncoder(Encoder):
    """The encoder a batch is given, keeping each picture it was asked to draw: drawing is the
    costly work a batch exists to do once."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []

    def __call__(self, drawn, kind: str) -> bytes | None:
        self.calls.append((drawn.stem, kind))
        return super().__call__(drawn, kind)


@pytest.fixture
def results(env, status, standard):
    from judge.game.schedule import on_process
    after, events = on_process(status, standard, NOW, force=True)
    austria = after.power("AUSTRIA")  # two addresses: both want the PDF
    after = after.with_power(replace(austria, picture="PDF"))
    mails = Mailer(env, after, standard, pictures=True).for_events(events, now=NOW)
    return next(m for m in mails if m.rendered.subject.startswith("Diplomacy results"))


def same_boundary(raw: bytes) -> bytes:
    return BOUNDARY.sub(b"BOUNDARY", raw)


def test_the_sent_mail_is_the_one_made_with_its_picture_at_once(results):
    now_made = envelopes(JUDGE, results, now=NOW, key="k", draw=Encoder(), default_kind="png")
    kept = envelopes(JUDGE, results, now=NOW, key="k", later=True, default_kind="png")
    assert len(kept) == len(now_made) > 2
    kinds = set()
    for at_once, later in zip(now_made, kept):
        stored = bytes(later)
        assert PICTURE_AS.encode() in stored and b"application/gzip" in stored
        sent = with_pictures(stored, Encoder())
        assert same_boundary(sent) == same_boundary(bytes(at_once))
        assert PICTURE_AS.encode() not in sent
        kinds.add(at_once.get_payload()[1].get_content_type())
    assert kinds == {"image/png", "application/pdf"}


def test_an_svg_is_kept_compressed_and_sent_as_it_was_drawn(results):
    [mail] = envelopes(JUDGE, results._replace(recipients=("ben@example.co.uk",)), now=NOW,
                       key="k", later=True, default_kind="svg")
    stored = bytes(mail)
    assert PICTURE_AS.encode() in stored and b"image/svg+xml" not in stored
    assert len(stored) < len(results.picture.picture.svg) / 2  # (compressed: less to write)
    sent = with_pictures(stored, Encoder())  # an SVG is sent as it was drawn, not encoded
    [at_once] = envelopes(JUDGE, results._replace(recipients=("ben@example.co.uk",)), now=NOW,
                          key="k", draw=lambda drawn, kind: drawn.svg.encode(), default_kind="svg")
    assert same_boundary(sent) == same_boundary(bytes(at_once))


def test_a_picture_that_cannot_be_made_leaves_the_mail_as_it_is_without_one(results):
    plain = envelopes(JUDGE, results._replace(picture=None), now=NOW, key="k")
    kept = envelopes(JUDGE, results, now=NOW, key="k", later=True, default_kind="png")
    assert [with_pictures(bytes(m), lambda drawn, kind: None) for m in kept] == [bytes(m) for m in plain]


def test_none_keeps_nothing_for_later(results):
    kept = envelopes(JUDGE, results, now=NOW, key="k", later=True, default_kind="none")
    written = [bytes(m) for m in kept]
    plain = [raw for raw in written if not message_from_bytes(raw, policy=policy.default).is_multipart()]
    assert plain and all(PICTURE_AS.encode() not in raw for raw in plain)


def test_a_mail_without_a_picture_for_later_is_sent_as_it_is(results):
    plain = envelopes(JUDGE, results._replace(picture=None), now=NOW, key="k")[0]
    quoting = bytes(plain).replace(b"\n\n", f"\n\n{PICTURE_AS}: png\n".encode(), 1)
    assert with_pictures(bytes(plain), Encoder()) == bytes(plain)
    assert with_pictures(quoting, Encoder()) == quoting


@pytest.mark.parametrize("body", ["Plain words.\n", "Ünïcode words, and a line " + "long " * 30 + "\n"])
def test_a_mail_written_with_its_part_later_is_the_mail_made_multipart(results, body):
    """`PictureLater` writes the text mail and the part's bytes as the email package writes the
    mail made multipart: byte for byte but the boundary it draws."""
    from judge.mailout.envelope import PictureLater, _attach, build_message, part_for_later
    part = part_for_later(results.picture.picture, "png")
    made = dict(judge=JUDGE, to="ben@example.co.uk", subject="Diplomacy results", body=body, now=NOW, key="k")
    later = build_message(**made, made_as=PictureLater)
    later.later = bytes(part)
    multipart = build_message(**made)
    _attach(multipart, part)
    assert same_boundary(bytes(later)) == same_boundary(bytes(multipart))
    assert with_pictures(bytes(later), lambda drawn, kind: None) == bytes(build_message(**made))


def test_a_batch_makes_and_writes_each_picture_once_for_all_its_readers(results):
    now_made = envelopes(JUDGE, results, now=NOW, key="k", draw=Encoder(), default_kind="png")
    kept = envelopes(JUDGE, results, now=NOW, key="k", later=True, default_kind="png")
    encoder = DrawingEncoder()
    batch = PictureParts(encoder)
    sent = [with_pictures(bytes(mail), batch) for mail in kept]
    assert [same_boundary(s) for s in sent] == [same_boundary(bytes(m)) for m in now_made]
    stem = results.picture.picture.stem
    assert sorted(encoder.calls) == [(stem, "pdf"), (stem, "png")]


def test_a_batch_lets_a_picture_go_after_later_pictures(results):
    """The mails of one picture come together: a batch keeps the last few pictures, not all it sent."""
    encoder = DrawingEncoder()
    batch = PictureParts(encoder, keep=2)
    drawn = results.picture.picture
    others = [replace(drawn, svg=f"{drawn.svg}<!-- {n} -->", stem=f"other{n}") for n in range(3)]
    for picture in [drawn, drawn, *others[:1], drawn, *others[1:], drawn]:
        assert batch.part(picture, "png") is not None
    assert encoder.calls.count((drawn.stem, "png")) == 2 and len(encoder.calls) == 5


def test_a_picture_made_now_is_written_in_each_mail_as_a_part_made_for_that_mail(results):
    """The part a mailing's mails share (made and folded once) writes each mail as the mail made
    multipart with a part of its own would be, but for the boundary; each mail reads back with
    its reader's picture and its words."""
    from judge.mailout.envelope import attach_picture, build_message, picture_part
    mails = envelopes(JUDGE, results, now=NOW, key="k", draw=Encoder(), default_kind="png")
    assert len(mails) > 2
    for mail in mails:
        to = str(mail["To"])
        kind = results.picture.kinds.get(to.lower(), "png").lower()
        alone = build_message(JUDGE, to=to, subject=results.rendered.subject,
                              body=results.rendered.body, now=NOW, key=f"k-{to.lower()}")
        data = Encoder()(results.picture.picture, kind)
        attach_picture(alone, data, results.picture.picture.stem, kind)
        for writer in (policy.default, policy.SMTP):
            assert same_boundary(mail.as_bytes(policy=writer)) \
                == same_boundary(alone.as_bytes(policy=writer))
        read = message_from_bytes(bytes(mail), policy=policy.default)
        assert [p.get_content() for p in read.iter_attachments()] == [data]
        assert read.get_body(("plain",)).get_content() == results.rendered.body
        assert bytes(picture_part(data, results.picture.picture.stem, kind)) in bytes(mail)
