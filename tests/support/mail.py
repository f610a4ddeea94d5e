"""The attacker's kit: mails written on the spot, and everything the judge would send as one text to
search."""
from __future__ import annotations

from datetime import timedelta
from email.message import EmailMessage

JUDGE_ADDRESS = "judge@example.org"
KEEPER = "keeper@example.net"


def mail(sender: str, *lines: str, subject: str = "orders", headers: tuple[str, ...] = (),
         number: int = 0) -> bytes:
    """A plain-text mail from `sender` with `lines` as its body (`number` makes it a new mail)."""
    head = [f"Return-Path: <{sender}>", f"From: {sender}", f"To: {JUDGE_ADDRESS}",
            f"Subject: {subject}", f"Message-ID: <attack{number}.{abs(hash(lines)) % 10**8}@x.test>",
            "MIME-Version: 1.0", "Content-Type: text/plain; charset=UTF-8", *headers]
    return ("\r\n".join(head) + "\r\n\r\n" + "\r\n".join(lines) + "\r\n").encode("utf-8")


def minutes(n: float) -> timedelta:
    return timedelta(minutes=n)


IDENTIFIERS = ("Message-ID", "In-Reply-To", "References", "Date")  # hashes and clocks: any digits


def texts(mails: list[EmailMessage]) -> str:
    """Everything the judge would send, headers and bodies, as one text to search; identifiers and
    dates are left out, since a hash may hold any digits (`49` is no proof of a rendered `{{7*7}}`)."""
    def visible(m: EmailMessage) -> str:
        head = "".join(f"{k}: {v}\n" for k, v in m.items() if k not in IDENTIFIERS)
        return head + m.get_content()
    return "\n".join(visible(m) for m in mails)
