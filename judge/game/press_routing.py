"""Who reads a press message and what they are told of it, decided once for the PRESS command's
reply and for the readers' mail (`route`).

The readers are told who sent it (`shown_from`: None is anonymous, as GREY, GREY_PRESS and, for a
broadcast, YELLOW_PRESS make it; FROM names another power under FAKE_PRESS; WHITE, the Master and
press to the Master alone always show the sender) and whom it went to (`shown_to`: FAKE TO and FAKE
BROADCAST tell them otherwise). A broadcast reaches every power and observer but the sender, and the
Master unless PRESS_MASTER; monitors never read press. The Master, when a recipient or listening to
private press under EAVESDROP, and the OMNISCIENT! readers (`knowing`) see the true sender and
recipients. The press rules that refuse a message are checked before this (`judge.commands.press`).
"""
from __future__ import annotations

from dataclasses import dataclass

from judge.types import MASTER
from judge.status.model import GameStatus, Omniscience
from judge.rule_names import Rule, Rules


@dataclass(frozen=True)
class PressRouting:
    """`to`: the true recipients (None: a broadcast); `shown_from`, `shown_to` (None: everyone):
    what the readers are told; `readers` read it as shown, `knowing` read the truth (names of the
    game's blocks, and MASTER)."""

    to: tuple[str, ...] | None
    shown_from: str | None
    shown_to: tuple[str, ...] | None
    readers: tuple[str, ...]
    knowing: tuple[str, ...]


def route(status: GameStatus, rules: Rules, sender: str, to: tuple[str, ...] | None, *,
          fake_to: tuple[str, ...] | None = None, fake_broadcast: bool = False,
          claimed_from: str | None = None, colour: str | None = None) -> PressRouting:
    """The routing of a message from `sender` to `to` (None: a broadcast) with its options
    (`colour`: WHITE, GREY or None)."""
    everyone = fake_broadcast or (to is None and fake_to is None)
    shown_to = None if everyone else fake_to if fake_to is not None else to
    names = list(to) if to is not None else _everyone_but(status, rules, sender)
    eavesdrop = to is not None and any(r.startswith("EAVESDROP") for r in rules)
    omniscient = [b.name for b in status.powers if b.omniscient is Omniscience.PRESS]
    knowing = omniscient + ([MASTER] if MASTER in names or eavesdrop else [])
    readers = tuple(n for n in names if n != MASTER)
    return PressRouting(to, shown_sender(rules, sender, to, claimed_from, colour), shown_to,
                        readers, tuple(knowing))


def shown_sender(rules: Rules, sender: str, to: tuple[str, ...] | None,
                 claimed_from: str | None = None, colour: str | None = None) -> str | None:
    """Who the readers are told sent the message (None: nobody, it is anonymous)."""
    to_master = to is not None and set(to) == {MASTER}
    if claimed_from is not None:
        return claimed_from
    if colour == "GREY":
        return None
    if colour == "WHITE" or sender == MASTER or to_master:
        return sender
    if Rule.GREY_PRESS in rules or (to is None and Rule.YELLOW_PRESS in rules):
        return None
    return sender


def _everyone_but(status: GameStatus, rules: Rules, sender: str) -> list[str]:
    """A broadcast's readers: the powers, then the observers, but the sender; the Master unless
    PRESS_MASTER keeps players' broadcasts from him."""
    blocks = [b for b in status.powers if b.is_power] + \
        [b for b in status.powers if not b.is_power and b.kind != "MONITOR"]
    names = [b.name for b in blocks if b.name != sender]
    if sender != MASTER and Rule.PRESS_MASTER not in rules:
        names.append(MASTER)
    return names
