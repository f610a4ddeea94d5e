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


def render_notice(notice: object) -> tuple[str, str]:
    """Subject and body of a command-layer notice (judge.commands.notices) that has no template."""
    from judge.commands import notices as n

    game = getattr(notice, "game", "")
    if isinstance(notice, n.AbsenceSet):
        first = notice.first.strftime("%d %b %Y") if notice.first else "now"
        who = f"{notice.by} has set" if notice.by else "A player has set"
        return (f"Diplomacy absence notice {game}",
                (f"{who} an absence in game '{game}': no deadline will fall from {first} to "
                f"{notice.last.strftime('%d %b %Y')}.\n"))
    if isinstance(notice, n.ZoneChanged):
        return (f"Diplomacy time zone {game}",
                f"The Master of game '{game}' set its time zone to {notice.zone or 'GMT'}.\n")
    if isinstance(notice, n.StateChanged):
        return (f"Diplomacy game {game} {notice.state}", f"Game '{game}' is now {notice.state}.\n")
    if isinstance(notice, n.MasterChanged):
        return (f"Diplomacy new Master {game}",
                f"{notice.new_address} is now the Master of game '{game}'.\n")
    if isinstance(notice, n.GameRenamed):
        return (f"Diplomacy game renamed {game}",
                (f"Game '{notice.old_name}' is now called '{game}': use the new name in your "
                "commands.\n"))
    if isinstance(notice, n.GameCreated):
        kind = "trial map" if notice.trial else "map"
        return (f"Diplomacy game created {game}",
                f"{notice.master} created game '{game}' on the {kind} {notice.map_name}.\n")
    if isinstance(notice, n.PasswordSet):
        return (f"Diplomacy welcome back {game}",
                (f"You play {notice.power} again in game '{game}'. Your password is "
                f"{notice.password}; change it with SET PASSWORD.\n"))
    raise ValueError(f"no words for a {type(notice).__name__}")
