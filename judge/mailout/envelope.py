"""The envelope of every mail the judge sends: headers around a body text the caller gives.

The words of the body come from templates (another layer); this module only adds what a robot sender
must set: From with the judge's id, To, Subject, Date with a numeric offset, a Message-ID that is
deterministic when the caller gives a key (so a retried step builds the same mail, and the outbox,
keyed by that Message-ID, sends it once), In-Reply-To/References on replies, `Auto-Submitted`
(RFC 3834) and `X-Loop`, as UTF-8 text that any relay accepts (quoted-printable when not ASCII).
A mailing to several people becomes one mail per recipient (`envelopes`): no mail ever shows one
player's address to another.

Headers are built from values, never from decoded text: every value passes `header_text` (no line
break, control character or encoded word survives from input), the one recipient is a plain address
(`judge.mailin.message.plain_address`) and message ids copied from a mail are kept only when they
are well-formed. The recipient is also recorded in `ENVELOPE_TO`, which the outbox sender takes as
the relay's envelope (`outgoing`) and never sends: no header of the mail ever names a recipient.
"""
from __future__ import annotations

import gzip
import hashlib
import logging
import random
import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from email.message import EmailMessage
from email.parser import BytesParser
from email.policy import default
from email.utils import format_datetime, formataddr, make_msgid
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from judge.drawing.pictures import Picture
from judge.identity import JudgeSection
from judge.mailin.message import plain_address

if TYPE_CHECKING:
    from judge.mailout.audience import Mailing

log = logging.getLogger("judge.mailout")

AUTO_REPLIED = "auto-replied"  # an answer to a mail (RFC 3834 section 5)
AUTO_GENERATED = "auto-generated"  # unsolicited: results, reminders, notices, alerts
KEY_CHARS = re.compile(r"[^A-Za-z0-9_.=+-]")
ENVELOPE_TO = "X-Judge-Envelope-To"  # the recipient, for the outbox sender; never sent
# on a picture part kept as its SVG in the outbox: the format the outbox sender makes of it
# (`with_pictures`); never sent
PICTURE_AS = "X-Judge-Picture-As"
MAX_SUBJECT = 200  # characters of a subject: an incoming one may be of any length
MAX_REFERENCES = 900  # characters of References: the newest ids that fit (one folded header)
# A message id as the judge copies it: `<left@right>`, both sides dot-atom characters (no space,
# quote, comment or second `@`); one holding `=?` is dropped too, as a reader might take it for an
# encoded word.
ATEXT = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]"
MSG_ID = re.compile(rf"<{ATEXT}{{1,120}}@{ATEXT}{{1,120}}>")
# An id whose sides are dot-atoms (no dot at either end, none doubled): the ids the judge makes,
# which the email package folds as one word (`MessageIdField`)
WORDS = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
DOT_ATOM_ID = re.compile(rf"<{WORDS}(\.{WORDS})*@{WORDS}(\.{WORDS})*>")
THREADING = ("In-Reply-To", "References")  # the headers a mail may go without
# The headers of a judge's mail parsed as they are set (a display name may need quoting); the
# others, ASCII after `header_text`, read back as written: parsing them (a third of the cost of
# making a mail) is left out. A value that is not ASCII is parsed, to be encoded.
PARSED = ("From",)
MAX_HEADER = 998  # characters of any other header value (RFC 5322's line limit)
LINE_ENDS = (b"\r\n", b"\n", b"\r")


class _FoldedOnce:
    """A header field folded once for each policy that writes it: a field that many mails carry
    (their MIME fields, the judge's From) is the same text in each, and folding it again for every
    mail cost as much as writing the rest of its headers."""

    def fold(self, *, policy: Any) -> str:
        folds = self.__dict__.setdefault("_folds", {})
        if policy not in folds:
            folds[policy] = super().fold(policy=policy)  # type: ignore[misc]
        return folds[policy]


def shared_field(name: str, value: str) -> Any:
    """The field as setting it makes it (`default.header_factory`), folded once a policy."""
    made = type(default.header_factory(name, value))
    return type(made.__name__, (_FoldedOnce, made), {})(name, value)


# The fields of an ASCII text body, parsed once (reading a field held as text parses it each time,
# and writing a mail reads Content-Type more than once); header values never change once made.
PLAIN_TEXT_FIELDS = tuple((name, shared_field(name, value)) for name, value in (
    ("Content-Type", 'text/plain; charset="utf-8"'), ("Content-Transfer-Encoding", "7bit"),
    ("MIME-Version", "1.0")))


class MessageIdField(str):
    """A Message-ID field of one id of dot-atoms (`DOT_ATOM_ID`), written as the policy folds a parsed
    one: on the field's line when it fits, else alone on the next line, else (longer than any
    line) on the field's line all the same. Each mail's id is its own, so nothing can be parsed
    once for many mails, and parsing it to fold it cost half of writing a judge's mail."""

    name = "Message-ID"
    defects = ()

    def fold(self, *, policy: Any) -> str:
        limit, end = policy.max_line_length or sys.maxsize, policy.linesep
        if len(self.name) + 2 + len(self) > limit and 1 + len(self) <= limit:
            return f"{self.name}:{end} {self}{end}"
        return f"{self.name}: {self}{end}"


def judge_from(judge: JudgeSection) -> str:
    return formataddr((f"Judge {judge.id}", judge.address))


@lru_cache(maxsize=8)
def from_field(judge: JudgeSection) -> Any:
    """The From field of the judge's mails, parsed as setting it parses it (a display name may
    need quoting): the same for every mail a judge sends, and a header never changes once made,
    so it is parsed once (the address parser costs more than the rest of a mail's headers)."""
    return shared_field("From", header_text(judge_from(judge)))


def loop_token(judge: JudgeSection) -> str:
    """What goes in our `X-Loop` header, and what marks a mail as our own when it comes back."""
    return judge.address


def message_id(judge: JudgeSection, key: str | None = None) -> str:
    """`<key.judgeid@domain>` for a deterministic key, else a fresh unique id."""
    if key is None:
        return make_msgid(domain=judge.domain)
    cleaned = KEY_CHARS.sub("_", key)
    if len(cleaned) > 100:
        cleaned = cleaned[:60] + "." + hashlib.sha256(key.encode()).hexdigest()[:24]
    return f"<{cleaned}.{KEY_CHARS.sub('_', judge.id).lower()}@{judge.domain}>"


def header_text(value: str, limit: int = MAX_HEADER) -> str:
    """A value as the judge writes it in a header, whatever it came from: every control, format or
    separator character (CR, LF, NUL, escapes, bidirectional overrides) a space, runs of spaces one,
    and `=?` written `= ?`, so that no reader decodes an encoded word out of it (an incoming
    subject is already decoded once: the text shows as it was sent, never decoded again). The email
    package encodes what is not ASCII itself."""
    shown = value if value.isprintable() else "".join(c if c.isprintable() else " " for c in value)
    text = " ".join(shown.split())
    return text.replace("=?", "= ?")[:limit].rstrip()


def message_ids(text: str, limit: int = MAX_REFERENCES) -> list[str]:
    """The well-formed message ids in `text` (`MSG_ID`), the newest (last) that fit in `limit`
    characters; anything else is dropped."""
    found = [word for word in text.split() if MSG_ID.fullmatch(word) and "=?" not in word]
    kept: list[str] = []
    for word in reversed(found):
        if sum(len(w) + 1 for w in kept) + len(word) > limit:
            break
        kept.insert(0, word)
    return kept


def build_message(judge: JudgeSection, *, to: str, subject: str, body: str,
                  now: datetime, key: str | None = None, in_reply_to: str = "",
                  references: str = "", auto: str | None = None,
                  made_as: type[EmailMessage] = EmailMessage, author: Any = None) -> EmailMessage:
    """A plain-text mail from the judge to one reader, `to` a plain address (ValueError for any
    other; `envelopes` for several). `auto` defaults to auto-replied for a reply (when
    `in_reply_to` is given) and auto-generated otherwise. `in_reply_to` is written when it is one
    well-formed message id, and `references` then keeps only its well-formed ones. `author`: the
    From field as `from_field` parses it, when the caller made it (once for many mails)."""
    if not plain_address(to):
        raise ValueError(f"not a plain e-mail address: {to!r}")
    replied = [in_reply_to.strip()] if message_ids(in_reply_to) == [in_reply_to.strip()] else []
    thread = message_ids(" ".join([references] + replied)) if replied else []
    headers = {
        ENVELOPE_TO: to,
        "From": "" if author is not None else judge_from(judge),
        "To": to,
        "Subject": subject[:MAX_SUBJECT],
        "Date": date_text(now),
        "Message-ID": message_id(judge, key),
        "In-Reply-To": " ".join(replied),
        "References": " ".join(dict.fromkeys(thread)),
        "Auto-Submitted": auto or (AUTO_REPLIED if in_reply_to else AUTO_GENERATED),
        "X-Loop": loop_token(judge),
    }
    msg = made_as()
    for name, value in headers.items():
        if value or name not in THREADING:
            if name == "From" and author is not None:
                msg.set_raw(name, author)  # (a new mail has no From to count first)
                continue
            text = header_text(value)
            if name == "Message-ID" and DOT_ATOM_ID.fullmatch(text):
                msg.set_raw(name, MessageIdField(text))
            elif name in PARSED or not text.isascii():
                msg[name] = text
            else:  # (the header read back is this very text: kept as it is, without the parse)
                msg.set_raw(name, text)
    payload = plain_payload(body)
    if payload is not None:
        _set_plain_text(msg, payload)
    else:
        msg.set_content(body, charset="utf-8", cte="quoted-printable")
    return msg


@lru_cache(maxsize=16)
def date_text(now: datetime) -> str:
    """The Date field's text: the same for every mail of a mailing, or of a cycle."""
    return format_datetime(now.astimezone(UTC))


@lru_cache(maxsize=8)
def plain_payload(body: str) -> str | None:
    """An ASCII body of lines a relay takes as they are, as `set_content(body, charset="utf-8",
    cte="7bit")` sets it: the bytes' lines (as the package splits them), each ended by a line
    feed; None for any other body. The same for all the readers of a mailing."""
    if not (body.isascii() and _short_lines(body)):
        return None
    return b"\n".join(body.encode("ascii").splitlines()).decode("ascii") + "\n"


def _set_plain_text(msg: EmailMessage, payload: str) -> None:
    """`msg.set_content(body, charset="utf-8", cte="7bit")` on a new mail, the body's
    `plain_payload` given, to the byte: the same three fields in the same order and the same
    lines. The email package parses each field it sets several times over (half the cost of a
    mail); these values are fixed, so they are set as parsed once (`PLAIN_TEXT_FIELDS`)."""
    msg.set_payload(payload)
    for name, value in PLAIN_TEXT_FIELDS:
        msg.set_raw(name, value)


def envelopes(judge: JudgeSection, mailing: Mailing, *, now: datetime, key: str,
              in_reply_to: str = "", references: str = "", auto: str | None = None,
              draw: Draw | None = None, default_kind: str = "none",
              later: bool = False) -> list[EmailMessage]:
    """A mailing (recipients and rendered words) as one mail per recipient, each To: naming its
    own reader only: players never see each other's addresses (anonymous games). Each mail's
    Message-ID is made of `key` and its recipient, so a retried step builds the same mails and
    the outbox sends each of them once. A mailing with a picture gets it, made by `draw` in the
    format the recipient chose (else `default_kind`), as a second MIME part after the text;
    `later`: kept as its SVG, for the outbox sender to make (`part_for_later`; one part for
    all the mailing's readers of a format, written after each one's text: `PictureLater`)."""
    rendered, picture = mailing.rendered, mailing.picture
    mails = []
    kept: dict[str, bytes] = {}  # the picture kept for later, one part a format
    parts: dict[str, SharedPicture | None] = {}  # the picture made now, one part a format
    author = from_field(judge)
    for recipient in writable(mailing.recipients):
        kind = picture.kinds.get(recipient.lower(), default_kind).lower() if picture else "none"
        msg = build_message(judge, to=recipient, subject=rendered.subject, body=rendered.body,
                            now=now, key=f"{key}-{recipient.lower()}", in_reply_to=in_reply_to,
                            references=references, auto=auto,
                            made_as=PictureLater if later and kind != "none" else EmailMessage,
                            author=author)
        if picture is not None and isinstance(msg, PictureLater):
            if kind not in kept:
                kept[kind] = bytes(part_for_later(picture.picture, kind))
            msg.later = kept[kind]
        elif picture is not None and kind != "none" and draw is not None:
            if kind not in parts:
                data = draw(picture.picture, kind)
                parts[kind] = None if data is None else \
                    shared_picture(msg, picture_part(data, picture.picture.stem, kind))
            shared = parts[kind]
            if shared is not None:
                msg.make_mixed()
                msg.replace_header("Content-Type", shared.head)
                msg.attach(shared.part)
        mails.append(msg)
    return mails


@dataclass(frozen=True)
class SharedPicture:
    """A picture's part as the mails of a mailing carry it, one object for all of them (a mail
    is never changed once made), its fields parsed and folded once; and the Content-Type of
    those mails, its boundary drawn once (the mails' parts are the same text): making the part
    and drawing a boundary for each reader cost five times the rest of a mail."""

    part: EmailMessage
    head: Any


def shared_picture(text: EmailMessage, part: EmailMessage) -> SharedPicture:
    """The picture `part` shared by the mails whose text is `text`'s (`SharedPicture`)."""
    for name, value in list(part.items()):
        part.replace_header(name, shared_field(name, str(value)))
    boundary = _boundary(bytes(text) + bytes(part)).decode("ascii")
    return SharedPicture(part, shared_field("Content-Type",
                                            f'multipart/mixed; boundary="{boundary}"'))


# picture, format (png, pdf or svg) -> the file's bytes, None when it could not be made (the mail
# then goes without it); the runner's is judge.runtime.pictures.encoder
Draw = Callable[[Any, str], bytes | None]
PICTURE_TYPES = {"svg": ("image", "svg+xml"), "png": ("image", "png"), "pdf": ("application", "pdf")}


def attach_picture(msg: EmailMessage, data: bytes, stem: str, kind: str) -> None:
    """The picture after the text part, which stays as it was (headers and body, byte for byte):
    a reader of the text (jDip, Mapper, a filter) sees exactly what it saw without one."""
    _attach(msg, picture_part(data, stem, kind))


def _attach(msg: EmailMessage, part: EmailMessage) -> None:
    if msg.get_content_type() != "multipart/mixed":
        msg.make_mixed()
    msg.attach(part)


def picture_part(data: bytes, stem: str, kind: str) -> EmailMessage:
    """The picture as the MIME part a mail carries after its text."""
    maintype, subtype = PICTURE_TYPES[kind]
    part = EmailMessage()
    part.set_content(data, maintype=maintype, subtype=subtype, disposition="attachment",
                     filename=f"{KEY_CHARS.sub('_', stem)}.{kind}")
    return part


def part_for_later(drawn: Any, kind: str) -> EmailMessage:
    """The picture `drawn` kept for the outbox sender, which makes it in `kind` right before it
    sends the mail (`with_pictures`): a tick does not wait for pictures, and the outbox holds all
    it needs to make them. Kept as its SVG compressed, marked with the format (`PICTURE_AS`): a
    tenth of the SVG's size, and so of the time to write the mail and journal it."""
    part = EmailMessage()
    part.set_content(gzip.compress(drawn.svg.encode("utf-8"), mtime=0), maintype="application",
                     subtype="gzip", filename=f"{KEY_CHARS.sub('_', drawn.stem)}{KEPT_SUFFIX}")
    part[PICTURE_AS] = kind
    return part


KEPT_SUFFIX = ".svg.gz"


class PictureLater(EmailMessage):
    """A mail whose picture is kept for later (`part_for_later`): made as the text mail it is,
    and written (`as_bytes`, `bytes()`) with the picture's part after its text, as `_attach`
    would put it there. The part's bytes are made once for all the mailing's readers of a format,
    and no multipart message is made and written again for each of them."""

    later = b""  # the picture's part, as a mail writes it

    def as_bytes(self, unixfrom: bool = False, policy: Any = None) -> bytes:
        written = super().as_bytes(unixfrom, policy)
        return with_part(written, self.later) if self.later else written


def with_part(raw: bytes, part: bytes) -> bytes:
    """A single-part mail's bytes with `part` (a MIME part's bytes) after its text, exactly as
    the mail made multipart (`_attach`) is written: its Content- fields move to the text part,
    and a multipart head takes their place after the others (`_text_only` undoes it)."""
    head, _, body = raw.partition(b"\n\n")
    fields = _fields((head + b"\n").splitlines(keepends=True))
    moved = [f for f in fields if f[0].lower().startswith(b"content-")]
    kept = [f for f in fields if not f[0].lower().startswith(b"content-")]
    boundary = _boundary(raw + part)
    delimiter = b"\n--" + boundary
    return b"".join([*(line for f in kept for line in f),
                     b'Content-Type: multipart/mixed; boundary="' + boundary + b'"\n',
                     delimiter, b"\n", *(line for f in moved for line in f), b"\n", body,
                     delimiter, b"\n", part, delimiter, b"--\n"])


def _boundary(text: bytes) -> bytes:
    """A MIME boundary in the form the email package draws them, found nowhere in `text`."""
    while True:
        boundary = f"{'=' * 15}{random.randrange(sys.maxsize):019d}==".encode("ascii")
        if boundary not in text:
            return boundary


class PictureParts:
    """A batch's pictures as the MIME parts their mails carry: each made by `draw` and written
    (base64) once for all its readers of a format. The last `keep` are kept: the mails of one
    picture are queued, and sent, one after another, so a picture is let go soon after its
    last reader, however many mails the batch holds."""

    def __init__(self, draw: Draw, keep: int = 8) -> None:
        self.draw = draw
        self.part: Callable[[Picture, str], bytes | None] = lru_cache(maxsize=keep)(self._part)

    def _part(self, drawn: Picture, kind: str) -> bytes | None:
        """The picture's part as a mail writes it, None when it could not be made."""
        data = drawn.svg.encode("utf-8") if kind == "svg" else self.draw(drawn, kind)
        return None if data is None else bytes(picture_part(data, drawn.stem, kind))


def with_pictures(raw: bytes, pictures: Draw | PictureParts) -> bytes:
    """A stored mail as it is sent: each picture kept for later (`part_for_later`) made by
    `pictures` (a batch's, or a maker of pictures for this mail alone) and put in the place of
    its SVG, as `attach_picture` puts it. A picture that cannot be made (None) is left out: a
    mail left with its text only is then, byte for byte, the mail built without a picture.
    Other mails are returned as they are."""
    if PICTURE_AS.encode("ascii") not in raw:
        return raw
    boundary = BytesParser(policy=default).parsebytes(raw, headersonly=True).get_boundary()
    if not boundary:
        return raw
    parts = pictures if isinstance(pictures, PictureParts) else PictureParts(pictures)
    delimiter = b"\n--" + boundary.encode("ascii")
    pieces = raw.split(delimiter)  # the head, "\n" and each part, then "--" and the end
    kept = [pieces[0]]
    for piece in pieces[1:-1]:
        part = BytesParser(policy=default).parsebytes(piece[1:])
        kind = str(part.get(PICTURE_AS, "")).strip().lower()
        if not kind:
            kept.append(piece)
            continue
        stem = (part.get_filename() or "picture").removesuffix(KEPT_SUFFIX)
        svg = gzip.decompress(part.get_content()).decode("utf-8")
        made = parts.part(Picture(svg, stem), kind)
        if made is not None:
            kept.append(b"\n" + made)
    if len(kept) == 2:  # the text part alone
        return _text_only(kept[0], kept[1][1:])
    return delimiter.join([*kept, pieces[-1]])


def _text_only(head: bytes, text_part: bytes) -> bytes:
    """The mail without its multipart wrapping: the text part's headers back in the mail's head
    before MIME-Version, where `attach_picture` took them from, and its body."""
    part_head, _, body = text_part.partition(b"\n\n")
    moved = _fields((part_head + b"\n").splitlines(keepends=True))
    fields = []
    for field in _fields(head.splitlines(keepends=True)):
        name = field[0].split(b":", 1)[0].strip().lower()
        if name == b"mime-version":
            fields += moved
        if name != b"content-type":
            fields.append(field)
    return b"".join(line for field in fields for line in field) + b"\n" + body


def _fields(lines: list[bytes]) -> list[list[bytes]]:
    """Header lines as fields: each its first line and its folded ones."""
    fields: list[list[bytes]] = []
    for line in lines:
        if line[:1] in (b" ", b"\t") and fields:
            fields[-1].append(line)
        else:
            fields.append([line])
    return fields


def writable(recipients: Iterable[str]) -> list[str]:
    """The recipients a mail can be written to: a hand-edited status file may hold an address the
    judge would refuse (not ASCII, say); it is left out, with a warning, and the others get their
    mail."""
    kept = []
    for recipient in recipients:
        if plain_address(recipient):
            kept.append(recipient)
        else:
            log.warning("not mailing %r: not a plain ASCII e-mail address (fix it in the status "
                        "file)", recipient)
    return kept


def outgoing(raw: bytes) -> tuple[str, bytes]:
    """A stored mail as it goes to the relay: the recipient the judge recorded in `ENVELOPE_TO`, or
    for a mail without that record the one To ("" unless there is exactly one, a plain address)
    and the mail without that record or any
    header that names other recipients (Bcc, Cc, Resent-*: the judge writes none, so one found was
    smuggled in)."""
    lines = raw.splitlines(keepends=True)
    end = next((n for n, line in enumerate(lines) if line in LINE_ENDS), len(lines))
    recorded, tos, kept = [], [], []
    for field in _fields(lines[:end]):
        name, _, value = b"".join(field).decode("ascii", "replace").partition(":")
        name = name.strip().lower()
        if name == ENVELOPE_TO.lower():
            recorded.append(value.strip())
        elif name in ("bcc", "cc") or name.startswith("resent-"):
            log.warning("a stored mail held a %s header: taken out before sending", name)
        else:
            tos += [value.strip()] if name == "to" else []
            kept.extend(field)
    # A mail queued before the judge recorded recipients has its one plain To (it wrote no other).
    named = recorded or tos
    recipient = named[0] if len(named) == 1 and plain_address(named[0]) else ""
    return recipient, b"".join(kept + lines[end:])


def raw_key(raw: bytes, purpose: str) -> str:
    """A deterministic key for a mail made in answer to `raw` (same input, same Message-ID)."""
    return f"{purpose}-{hashlib.sha256(raw).hexdigest()[:24]}"


def _short_lines(body: str) -> bool:
    return all(len(line) <= 998 for line in body.splitlines())
