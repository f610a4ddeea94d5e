"""The one place a reply's words are made (until templates take over this function).

`render_reply(reply) -> (subject, body)` is the only function that turns a results buffer into text;
the template layer replaces it without touching the commands.
"""
from __future__ import annotations

from judge.commands.results import Reply

INDENT = "  "


def render_reply(reply: Reply) -> tuple[str, str]:
    """Subject and plain-text body of the one answer to a mail."""
    subject = reply.subject or "Diplomacy e-mail reply"
    if not subject.lower().startswith("re:"):
        subject = f"Re: {subject}"
    out: list[str] = []
    for note in reply.notes:
        out += [note, ""]
    for outcome in reply.outcomes:
        out.append(f"> {outcome.command}")
        prefix = "" if outcome.ok else "ERROR: "
        for number, line in enumerate(outcome.lines):
            out.append(f"{INDENT}{prefix if number == 0 else ''}{line}".rstrip())
        out += [f"{INDENT}{INDENT}{line}".rstrip() for line in outcome.quoted]
        out.append("")
    if not reply.outcomes:
        out += ["Your mail held no commands.", ""]
    if reply.unprocessed:
        out.append("Unprocessed portion of message follows:")
        out += [f"{INDENT}{line}".rstrip() for line in reply.unprocessed]
        out += ["End of unprocessed portion.", ""]
    elif reply.failed:
        out += ["Nothing after the error was processed.", ""]
    out.append("End of reply.")
    return subject, "\n".join(out) + "\n"

