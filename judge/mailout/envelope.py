"""The envelope of every mail the judge sends: headers around a body text the caller gives.

The words of the body come from templates (another layer); this module only adds what a robot sender
must set: From with the judge's id, To, Subject, Date with a numeric offset, a Message-ID that is
deterministic when the caller gives a key (so a retried step builds the same mail, and the outbox,
keyed by that Message-ID, sends it once), In-Reply-To/References on replies, `Auto-Submitted`
(RFC 3834) and `X-Loop`, as UTF-8 text that any relay accepts (quoted-printable when not ASCII).
A mailing to several people becomes one mail per recipient (`envelopes`): no mail ever shows one
player's address to another.
"""
from __future__ import annotations

import hashlib
import re
from datetime import UTC, datetime
from email.message import EmailMessage, Message
from email.utils import format_datetime, formataddr, make_msgid
from typing import TYPE_CHECKING

from judge.config import JudgeSection
from judge.mailin.message import header as read_header
from judge.spool import safe_id

if TYPE_CHECKING:
    from judge.mailout.mailings import Mailing

AUTO_REPLIED = "auto-replied"  # an answer to a mail (RFC 3834 section 5)
AUTO_GENERATED = "auto-generated"  # unsolicited: results, reminders, notices, alerts
KEY_CHARS = re.compile(r"[^A-Za-z0-9_.=+-]")


def judge_from(judge: JudgeSection) -> str:
    return formataddr((f"Judge {judge.id}", judge.address))


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


def build_message(judge: JudgeSection, *, to: str, subject: str, body: str,
                  now: datetime, key: str | None = None, in_reply_to: str = "",
                  references: str = "", auto: str | None = None) -> EmailMessage:
    """A plain-text mail from the judge to one reader (`envelopes` for several). `auto` defaults
    to auto-replied for a reply (when `in_reply_to` is given) and auto-generated otherwise."""
    msg = EmailMessage()
    msg["From"] = judge_from(judge)
    msg["To"] = to
    msg["Subject"] = " ".join(subject.split())
    msg["Date"] = format_datetime(now.astimezone(UTC))
    msg["Message-ID"] = message_id(judge, key)
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
        msg["References"] = references or in_reply_to
    msg["Auto-Submitted"] = auto or (AUTO_REPLIED if in_reply_to else AUTO_GENERATED)
    msg["X-Loop"] = loop_token(judge)
    ascii_only = body.isascii()
    msg.set_content(body, charset="utf-8", cte="7bit" if ascii_only and _short_lines(body)
                    else "quoted-printable")
    return msg


def envelopes(judge: JudgeSection, mailing: Mailing, *, now: datetime, key: str,
              in_reply_to: str = "", references: str = "", auto: str | None = None
              ) -> list[EmailMessage]:
    """A mailing (recipients and rendered words) as one mail per recipient, each To: naming its
    own reader only: players never see each other's addresses (anonymous games). Each mail's
    Message-ID is made of `key` and its recipient, so a retried step builds the same mails and
    the outbox sends each of them once."""
    rendered = mailing.rendered
    return [build_message(judge, to=recipient, subject=rendered.subject, body=rendered.body,
                          now=now, key=f"{key}-{recipient.lower()}", in_reply_to=in_reply_to,
                          references=references, auto=auto)
            for recipient in mailing.recipients]


def reply_fields(original: Message) -> dict[str, str]:
    """To, Subject, In-Reply-To and References for an answer to `original` (read defensively)."""
    def header(name: str) -> str:
        return read_header(original, name)

    subject = header("Subject")
    if not subject.lower().startswith("re:"):
        subject = f"Re: {subject}" if subject else "Re: your mail"
    their_id = header("Message-ID")
    references = " ".join(header("References").split() + ([their_id] if their_id else []))
    return {"to": header("Reply-To") or header("From"), "subject": subject,
            "in_reply_to": their_id, "references": references}


def outbox_id(msg: Message) -> str:
    """The outbox key of a mail: its Message-ID, so the same mail is queued once."""
    return safe_id(str(msg.get("Message-ID", "")))


def raw_key(raw: bytes, purpose: str) -> str:
    """A deterministic key for a mail made in answer to `raw` (same input, same Message-ID)."""
    return f"{purpose}-{hashlib.sha256(raw).hexdigest()[:24]}"


def _short_lines(body: str) -> bool:
    return all(len(line) <= 998 for line in body.splitlines())
