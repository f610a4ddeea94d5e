"""One raw RFC 5322 message -> the sender, the headers a reply needs, and the command lines.

Pure: bytes in, an `Incoming` out. Every header is read defensively (a malformed header never aborts
the message); the body is the first text/plain part, or the HTML part stripped to text.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from email import message_from_bytes
from email.headerregistry import Group
from email.message import EmailMessage, Message
from email.parser import BytesHeaderParser
from email.policy import EmailPolicy
from email.utils import parseaddr
from functools import cache, lru_cache
from html.parser import HTMLParser
from typing import cast

from judge.mailin.authresults import from_authenticated
from mailparser_reply.parser import EmailMessage as ReplyText  # type: ignore[import-untyped]

MAX_BODY_CHARS = 64 * 1024  # more than any real set of orders and press; the rest is not processed
SIGNATURE = "-- "
AUTO_PRECEDENCE = {"bulk", "junk", "list"}
LIST_HEADERS = ("List-Id", "List-Unsubscribe", "List-Post")
BOUNCE_SENDERS = re.compile(r"^(mailer-daemon|postmaster)@", re.I)
# Control characters (a NUL, a terminal's escape sequences, odd line and paragraph separators, the
# bidirectional overrides that make text read other than it is) become spaces in what is read.
UNPRINTABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
# An address the judge writes to and keeps: a dot-atom local part (no quotes, comments, `?`, so no
# encoded word) at a dotted domain or localhost, in ASCII: the judge's mail goes out without
# SMTPUTF8, where an address in another script cannot be written. Anything else could break a
# header of every mail sent to it.
PLAIN_ADDRESS = re.compile(
    r"[\w.!#$%&'*+/=^`{}~-]{1,64}@(?:[\w-]{1,63}(?:\.[\w-]{1,63})+|localhost)", re.ASCII)
# The languages whose mail clients' attribution lines ("On ... wrote:", "Le ... a écrit :") and
# header blocks (`From:`/`Sent:`) begin a quoted mail.
QUOTE_LANGUAGES = ("en", "fr", "de", "es", "it")
# mail-parser-reply's Spanish attribution can never match (its lookahead forbids what it matches),
# so Gmail's "El vie, 27 nov 2026 a las 19:00, X escribió:" is found here.
SPANISH_ATTRIBUTION = re.compile(r"^(?:> ?)*El\s.+\sescribió:$", re.MULTILINE | re.IGNORECASE)
# The rule Outlook draws above the header block of the mail it quotes.
OUTLOOK_RULE = re.compile(r"_{32,}")
# A header block of a quoted mail starts with its sender, in these languages, and holds its date;
# other lines that look like headers (`To: France`, `Subject: peace` in a press message) are text.
HEADER_KEY = re.compile(r"(?:> ?)*[* ]*(\w+)\s*:")
SENDER_KEYS = {"from", "de", "von", "da"}
# An attribution line is short; longer lines are cut for the search, whose patterns take time
# growing with the square of a line's length. The lines tried as the start of a quoted mail (with
# the QUOTE_WINDOW lines from there) are limited too: a hostile mail costs a fraction of a second.
ATTRIBUTION_CHARS = 160
QUOTE_WINDOW = 6
MAX_QUOTE_CANDIDATES = 50


class LenientPolicy(EmailPolicy):
    """The email package's default policy, except that a header it cannot parse is read as plain
    text rather than raising. Python's own parser raises on some malformed headers (IndexError on
    `Content-Type: ;0*`), and it parses Content-Type while it reads the message, so one such header
    would abort the whole mail; read as text, a broken Content-Type makes its part text/plain."""

    def header_fetch_parse(self, name, value):
        if isinstance(value, str) and len(value) <= KEPT_HEADER_CHARS:
            return _kept_header(self, name, value)
        return self.parsed_header(name, value)

    def parsed_header(self, name, value):
        try:
            return super().header_fetch_parse(name, value)
        except Exception:  # noqa: BLE001 - the email package raises assorted errors here
            text = "".join(re.split(r"\r\n|\r|\n", value))
            try:
                return self.header_factory["x-unparsed"](name, text)
            except Exception:  # noqa: BLE001
                return text


# A header is parsed each time it is read, and reading a mail reads some several times over
# (Content-Type seven times, From three): a short header is parsed once and kept, the same
# words on the next mail too (a header, once parsed, is an immutable value). A long one is not
# kept, so that what is kept stays small whatever the mails.
KEPT_HEADER_CHARS = 256
KEPT_HEADERS = 256


@lru_cache(maxsize=KEPT_HEADERS)
def _kept_header(policy: LenientPolicy, name: str, value: str) -> object:
    return policy.parsed_header(name, value)


LENIENT = LenientPolicy()


def parse(raw: bytes) -> EmailMessage:
    """A raw mail from outside as an `EmailMessage` (the default policy, every header readable)."""
    return cast(EmailMessage, message_from_bytes(raw, policy=LENIENT))


def parse_headers(raw: bytes) -> Message:
    """A raw mail's header block alone, read as `parse` reads it: its body is not parsed."""
    return BytesHeaderParser(policy=LENIENT).parsebytes(raw)


def parse_rest(raw: bytes, heads: Message) -> EmailMessage:
    """`raw` as `parse` reads it, `heads` (its `parse_headers`) reused when its body has no parts:
    a body that is neither multipart nor a mail inside is read the same either way, as its
    text."""
    if heads.get_content_maintype() in ("multipart", "message"):
        return parse(raw)
    return cast(EmailMessage, heads)


@dataclass(frozen=True)
class Incoming:
    sender: str  # lower case address: Reply-To, else From
    subject: str
    message_id: str
    references: tuple[str, ...]
    lines: tuple[str, ...]  # command lines, case kept (press text keeps its case)
    html_only: bool = False  # the body came from an HTML part, stripped to text
    truncated: bool = False  # the body was longer than MAX_BODY_CHARS
    signed_off: bool = False  # a SIGNOFF line ended the commands
    quoted_from: str = ""  # the line where a quoted mail began and reading stopped
    automatic: str = ""  # why this must not be answered ("" when it may be)
    authenticated: bool = False  # the judge's MTA authenticated the sender's domain (authresults)


def read_message(raw: bytes, envelope_sender: str | None = None, our_loop: str = "", *,
                 parsed: Message | None = None, authserv_id: str = "") -> Incoming:
    """Parse `raw`; `envelope_sender` is the SMTP MAIL FROM ("" for a bounce, None if unknown).
    `parsed`: `raw` already parsed (`parse`), not parsed again. `authserv_id`: the judge's MTA,
    whose `Authentication-Results:` are trusted (none when empty)."""
    msg = parsed if parsed is not None else parse(raw)
    sender = sender_of(msg)
    body, html_only = body_text(msg)
    truncated = len(body) > MAX_BODY_CHARS
    lines, signed_off, quoted_from = command_lines(body[:MAX_BODY_CHARS])
    return Incoming(
        sender=sender,
        subject=header(msg, "Subject"),
        message_id=header(msg, "Message-ID"),
        references=tuple(header(msg, "References").split()),
        lines=tuple(lines),
        html_only=html_only,
        truncated=truncated,
        signed_off=signed_off,
        quoted_from=quoted_from,
        automatic=automatic_reason(msg, envelope_sender, our_loop),
        authenticated=sender_authenticated(msg, sender, authserv_id),
    )


def sender_authenticated(msg: Message, sender: str, authserv_id: str) -> bool:
    """Whether `sender` is the mail's one From address and the judge's MTA (`authserv_id`)
    authenticated its domain; a Reply-To naming another address is not authenticated by it."""
    if not sender or not authserv_id:
        return False
    groups = address_groups(msg, "From")
    addresses = [a.addr_spec.lower() for group in groups for a in group.addresses]
    if addresses != [sender]:
        return False
    try:
        results = [str(value) for value in msg.get_all("Authentication-Results") or ()]
    except Exception:  # the email package raises assorted errors on broken headers
        return False
    return from_authenticated(results, authserv_id, sender)


def header(msg: Message, name: str) -> str:
    """A header's text, or "" when it is missing or too malformed to read."""
    try:
        value = msg.get(name)
    except Exception:  # the email package raises assorted errors on broken headers
        return ""
    return " ".join(UNPRINTABLE.sub(" ", str(value)).split()) if value is not None else ""


# The null sender of a bounce as MTAs write it: `<>`, Postfix's ${sender} (MAILER-DAEMON), qmail's.
NULL_SENDERS = frozenset({"", "mailer-daemon", "#@[]"})
NOT_IN_A_PATH = re.compile(r"[\x00-\x20\x7f<>]")  # nothing that could end the header or the path


def envelope_address(text: str) -> str:
    """An envelope sender as an MTA gave it (`<a@b>`, `a@b`, `<>`, `MAILER-DAEMON`): the bare
    address, "" for the null sender of a bounce."""
    address = NOT_IN_A_PATH.sub("", text)
    return "" if address.lower() in NULL_SENDERS else address


def envelope_sender(msg: Message) -> str | None:
    """The envelope sender from a spooled mail's first `Return-Path:` header, the one the final
    delivery put in front ("" for a bounce, None if unknown: mail from IMAP may have none). Only
    the header block is read: a Return-Path quoted in a body (a bounce's) is none."""
    path = header(msg, "Return-Path")
    if not path:
        return None
    return envelope_address(parseaddr(path)[1] or path)


def plain_address(address: str) -> bool:
    """Whether `address` is one the judge may answer and keep (see PLAIN_ADDRESS)."""
    return bool(PLAIN_ADDRESS.fullmatch(address)) and len(address) <= 254


def sender_of(msg: Message) -> str:
    """The sender's address (Reply-To, else From), lower case; "" when that header does not name
    exactly one plain address: such a mail is never answered nor carried out. The address is the
    email package's parse of the raw header, never text read out of its decoded form (a display
    name may decode to anything, an address included), and a group or a list is no one sender."""
    for name in ("Reply-To", "From"):
        groups = address_groups(msg, name)
        if any("@" in a.addr_spec for group in groups for a in group.addresses):
            one = len(groups) == 1 and groups[0].display_name is None and \
                len(groups[0].addresses) == 1
            address = groups[0].addresses[0].addr_spec if one else ""
            return address.lower() if plain_address(address) else ""
    return ""


def address_groups(msg: Message, name: str) -> tuple[Group, ...]:
    """An address header as the email package parses it (a lone mailbox is a group without a
    name); none when it is missing or cannot be parsed."""
    try:
        return tuple(getattr(msg.get(name), "groups", ()))
    except Exception:  # noqa: BLE001 - the email package raises assorted errors on broken headers
        return ()


def automatic_reason(msg: Message, envelope_sender: str | None, our_loop: str) -> str:
    """Why this message must get no answer: bounces, auto-replies, lists, our own mail."""
    if envelope_sender == "" or BOUNCE_SENDERS.match(parseaddr(header(msg, "From"))[1]):
        return "a bounce"
    if msg.get_content_type() == "multipart/report":  # a delivery report (RFC 6522), whoever sent it
        return "a delivery report"
    auto = header(msg, "Auto-Submitted").lower()
    if auto and auto != "no":
        return f"Auto-Submitted: {auto}"
    if header(msg, "Precedence").lower() in AUTO_PRECEDENCE:
        return f"Precedence: {header(msg, 'Precedence').lower()}"
    if any(header(msg, h) for h in LIST_HEADERS):
        return "mailing-list mail"
    if our_loop and our_loop.lower() in header(msg, "X-Loop").lower():
        return "our own mail (X-Loop)"
    return ""


def body_text(msg: Message) -> tuple[str, bool]:
    """The first text/plain part; failing that the first text/html part as text (flag True)."""
    plain = html = None
    for part in msg.walk() if msg.is_multipart() else [msg]:
        if part.get_content_disposition() == "attachment":
            continue
        kind = part.get_content_type()
        if kind == "text/plain" and plain is None:
            plain = decoded(part)
        elif kind == "text/html" and html is None:
            html = decoded(part)
    if plain is not None:
        return plain, False
    if html is not None:
        return html_to_text(html), True
    return "", False


def decoded(part: Message) -> str:
    """A text part decoded by its charset; unknown charsets and bad bytes never fail. A part that
    names no charset is UTF-8 when it reads as such, else latin-1 (8-bit mail from before MIME)."""
    found = part.get_payload(decode=True)  # bytes, or None for a multipart
    payload = found if isinstance(found, bytes) else b""
    charset = part.get_content_charset()
    if charset is None:
        try:
            return payload.decode("utf-8")
        except UnicodeDecodeError:
            return payload.decode("latin-1")
    try:
        return payload.decode(charset, errors="replace")
    except LookupError:
        return payload.decode("latin-1")


class _TextExtractor(HTMLParser):
    """HTML as text lines; a `<blockquote>`'s lines are marked `> `, as a plain-text client quotes."""

    BREAKS = {"br", "p", "div", "li", "tr", "h1", "h2", "h3", "h4", "pre", "blockquote"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip = 0
        self.quoted = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1
        elif tag in self.BREAKS:
            self.parts.append("\n")
        self.quoted += tag == "blockquote"

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skip = max(0, self.skip - 1)
        elif tag in self.BREAKS:
            self.parts.append("\n")
        if tag == "blockquote":
            self.quoted = max(0, self.quoted - 1)

    def handle_data(self, data):
        if self.skip:
            return
        if self.quoted:
            line_start = not self.parts or self.parts[-1].endswith("\n")
            data = ("> " if line_start else "") + data.replace("\n", "\n> ")
        self.parts.append(data)


def html_to_text(html: str) -> str:
    extractor = _TextExtractor()
    extractor.feed(html)
    extractor.close()
    return "".join(extractor.parts).replace("\xa0", " ")  # &nbsp; between command words


def command_lines(body: str) -> tuple[list[str], bool, str]:
    """The lines the command layer reads, whether SIGNOFF ended them, and the line where a quoted
    mail began, if that ended them.

    `//` comment lines go; a `\\\\` line switches to its own separator; `<br>` endings are stripped when
    every line has one; quoted (`>`) lines and everything from a signature delimiter (`-- `) go, and
    so does everything from the start of a quoted mail (`quote_start`)."""
    raw = [UNPRINTABLE.sub(" ", line).replace("\t", " ")
           for line in body.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    raw = _alternate_separators(raw)
    if raw and all(re.search(r"<br\s*/?>\s*$", r, re.I) for r in raw if r.strip()):
        raw = [re.sub(r"<br\s*/?>\s*$", "", r, flags=re.I) for r in raw]
    quoted_at = quote_start(raw)
    lines: list[str] = []
    for index, line in enumerate(raw):
        if line == SIGNATURE or line.rstrip() == "--":
            break
        text = line.strip()
        if quoted_at is not None and index == quoted_at - 1 and OUTLOOK_RULE.fullmatch(text):
            return lines, False, raw[quoted_at].strip()
        if index == quoted_at:
            return lines, False, text
        if text.startswith(("//", ">")):
            continue
        if text.split()[:1] and text.split()[0].upper() == "SIGNOFF":
            return lines, True, ""
        lines.append(text)
    return lines, False, ""


@cache
def quote_patterns() -> tuple[re.Pattern[str], ...]:
    """The patterns of a quoted mail's first line or header block (mail-parser-reply's)."""
    return ReplyText(text="", languages=list(QUOTE_LANGUAGES)).HEADER_REGEX, SPANISH_ATTRIBUTION


def quote_start(lines: list[str]) -> int | None:
    """The index of the line where a quoted mail begins: a mail client's attribution line
    ("On Fri, 27 Nov 2026, X wrote:", in any of QUOTE_LANGUAGES, even if wrapped onto a second
    line), `-----Original Message-----`, or Outlook's `From:`/`Sent:` block. Only the few lines
    that could begin one are tried (`quote_candidates`), each with the lines after it."""
    cut = [line.strip()[:ATTRIBUTION_CHARS] for line in lines]
    for start in quote_candidates(cut):
        window = "\n".join(cut[start:start + QUOTE_WINDOW])
        for pattern in quote_patterns():
            found = pattern.match(window)
            if found is not None and quoted_mail_start(found.group().strip()):
                return start + window.count("\n", 0, len(window) - len(window.lstrip()))
    return None


def quote_candidates(cut: list[str]) -> list[int]:
    """The lines a quoted mail may begin at, in order, at most MAX_QUOTE_CANDIDATES: those that
    end with a colon (an attribution line) and the line before each (a wrapped one), those that
    start with a sender's header key (`From:`) or a rule of dashes."""
    starts: list[int] = []
    for index, line in enumerate(cut):
        key = HEADER_KEY.match(line)
        if line.endswith(":"):
            starts += [i for i in (index - 1, index) if i >= 0 and i not in starts]
        elif line.startswith("-----") or key is not None and key.group(1).lower() in SENDER_KEYS:
            starts.append(index)
        if len(starts) >= MAX_QUOTE_CANDIDATES:
            break
    return starts[:MAX_QUOTE_CANDIDATES]


def quoted_mail_start(found: str) -> bool:
    """Whether a match of `quote_patterns` starts a quoted mail: an attribution line, or a header
    block that starts with the sender and holds a date."""
    key = HEADER_KEY.match(found)
    if key is None:
        return True
    return key.group(1).lower() in SENDER_KEYS and any(c.isdigit() for c in found)


def _alternate_separators(lines: list[str]) -> list[str]:
    """`\\\\; signon Egame pw;f lon - eng` -> one line per `;` from that line on."""
    out: list[str] = []
    for index, line in enumerate(lines):
        text = line.strip()
        if text.startswith("\\\\") and len(text) > 2:
            rest = text[2:]
            separator = next((c for c in rest if not c.isalnum() and not c.isspace()), None)
            if separator is None:
                out.append(line)
                continue
            tail = rest[rest.index(separator) + 1:]
            for later in [tail] + lines[index + 1:]:
                out.extend(part.strip() for part in later.split(separator))
            return out
        out.append(line)
    return out


def reply_headers(incoming: Incoming) -> dict[str, str]:
    """In-Reply-To and References for an answer to `incoming`."""
    if not incoming.message_id:
        return {}
    return {"In-Reply-To": incoming.message_id,
            "References": " ".join(incoming.references + (incoming.message_id,))}


__all__ = ["Incoming", "read_message", "reply_headers"]
