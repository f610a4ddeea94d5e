"""A processed phase in a few plain lines, as `judge process` prints it for the judgekeeper.

The game's history is its results archive (`judge.game.archive`), the results mails as sent; the
mailings are written by the templates from the same `PhaseResults` event. A record reads::

    PHASE S1901M SPRING 1901 MOVEMENT
    AUSTRIA: A VIE - GAL (bounce)
    DISLODGED TURKEY F BLA --> ANK
    CAPTURED SER AUSTRIA
    SKIPPED S1901R
    NEXT F1901M 202501061800
"""
from __future__ import annotations

from judge.events import PhaseResults
from judge.timing import format_deadline


def results_record(event: PhaseResults, zone: str | None = None) -> str:
    lines = [f"PHASE {event.phase.abbrev} {event.phase}"]
    if event.resolution is not None:
        for result in event.resolution.results:
            words = ", ".join(r.value for r in result.results)
            note = f" [{result.note}]" if result.note else ""
            lines.append(f"{result.order.power}: {result.order}" + (f" ({words})" if words else "") + note)
        for power, units in sorted(event.resolution.dislodged.items()):
            for unit, retreats in sorted(units.items()):
                lines.append(f"DISLODGED {power} {unit} --> {' '.join(retreats)}".rstrip())
    for power, texts in sorted(event.unreadable.items()):
        lines += [f"UNREADABLE {power}: {text}" for text in texts]
    if event.civil_disorder:
        lines.append("CIVIL DISORDER " + " ".join(event.civil_disorder))
    lines += [f"REVEALED {p} {u}" for p, us in sorted(event.revealed.items()) for u in us]
    lines += [f"HIDDEN BUILDS {p} {n}" for p, n in sorted(event.hidden_builds.items())]
    lines += [f"CAPTURED {c} {p}" for c, p in sorted(event.captured.items())]
    lines += [f"LOST {p} {u}" for p, us in sorted(event.lost.items()) for u in us]
    lines += [f"SKIPPED {p.abbrev}" for p in event.skipped]
    if event.next_phase is None:
        lines.append("GAME OVER")
    else:
        when = format_deadline(event.deadline, zone) if event.deadline else "no deadline"
        lines.append(f"NEXT {event.next_phase.abbrev} {when}")
    return "\n".join(lines) + "\n"
