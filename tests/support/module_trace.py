"""Which of the judge's modules one orders mail crosses, and whether a call goes back up a layer.

An orders mail (SIGNON and a hold for each of the power's units) is carried out by the inbox
runner (`MailHandler`) after a first one, so that imports, compiled patterns and the maps parsed
once do not count; `sys.setprofile` then sees every Python function called while the second runs,
and the module it belongs to is counted when it is one of the judge's. A call goes back up a layer
when the nearest frame of the judge's that made it is in a lower layer than the function it calls
(the layers of `tests/test_layout.py`: the core, the use cases, the mail commands, the mail's
words, then the shell). Run it to see them:

    python -m tests.support.module_trace
"""
from __future__ import annotations

import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from judge.status.model import GameStatus
from tests.support.cycle import Judge
from tests.support.games import DAY, NOW
from tests.test_layout import LAYERS, layer


@dataclass
class Trace:
    """The judge's modules whose functions ran, and each call that went up a layer."""

    modules: set[str] = field(default_factory=set)
    upward: set[tuple[str, str]] = field(default_factory=set)  # (caller's module, callee's)


def judge_module(frame: FrameType | None) -> str | None:
    """The module of the nearest frame of the judge's, from `frame` outwards."""
    while frame is not None:
        name = frame.f_globals.get("__name__", "")
        if name == "judge" or name.startswith("judge."):
            return name
        frame = frame.f_back
    return None


@contextmanager
def traced() -> Iterator[Trace]:
    trace = Trace()

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        if event != "call":
            return
        callee = frame.f_globals.get("__name__", "")
        if not (callee == "judge" or callee.startswith("judge.")):
            return
        trace.modules.add(callee)
        caller = judge_module(frame.f_back)
        if caller is not None and layer(caller, LAYERS) < layer(callee, LAYERS):
            trace.upward.add((caller, callee))

    sys.setprofile(profile)
    try:
        yield trace
    finally:
        sys.setprofile(None)


def holds(status: GameStatus, email: str, turn: int) -> str:
    """The mail of the player `email`: SIGNON, and each unit of his power holding (`turn` odd)
    or ordered to hold by its other spelling, so that each mail changes the game."""
    power = next(p for p in status.powers if p.player and p.player.current
                 and getattr(p.player.current, "email", "") == email)
    word = "H" if turn % 2 else "HOLD"
    lines = [f"SIGNON {power.name[0]}{status.name} pw", *(f"{u} {word}" for u in power.units), "SIGNOFF"]
    return "\n".join(lines)


def orders_mail_trace(root: Path) -> Trace:
    """The trace of the second of two orders mails from the same player of a started game."""
    judge = Judge(root)
    status = judge.start("trace", [], NOW)
    email = "player0@example.org"
    judge.send(email, holds(status, email, 1), NOW + DAY)
    with traced() as trace:
        judge.send(email, holds(status, email, 2), NOW + DAY)
    return trace


def by_layer(modules: set[str]) -> dict[str, list[str]]:
    """The modules under each layer's name ("core": below the use cases), lowest layer first."""
    names = ("core", *LAYERS)
    found: dict[str, list[str]] = {}
    for module in sorted(modules, key=lambda m: (layer(m, LAYERS), m)):
        found.setdefault(names[layer(module, LAYERS)], []).append(module)
    return found


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        trace = orders_mail_trace(Path(folder))
    print(f"{len(trace.modules)} modules:")
    for name, modules in by_layer(trace.modules).items():
        print(f"  {name} ({len(modules)}): {', '.join(m.removeprefix('judge.') for m in modules)}")
    for caller, callee in sorted(trace.upward):
        print(f"up a layer: {caller} -> {callee}")


if __name__ == "__main__":
    main()
