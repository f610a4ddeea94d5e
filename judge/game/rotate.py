"""ROTATE: control of powers played by other powers (a CONTROL line) passes down the list.

`ROTATE` / `ROTATE CONTROL`: before any phase in which the power has orders to give.
`ROTATE AFTER [type]...`: after every phase (of that type). `ROTATE BEFORE type...`: before every
phase of that type. `ROTATE FOR type...`: before a phase of that type in which the power has orders.
A type is matched on its first letters (`M`, `MOVE`, `MOVEMENT`). The game's ROTATE line wins over
the map's. Only powers with two or more controllers rotate.
"""
from __future__ import annotations

from dataclasses import replace

from judge.game.orders import owing
from judge.maps.model import Map
from judge.status import values
from judge.status.model import GameStatus, RotateStep, RotateWhen
from judge.types import Phase
from judge.rule_names import Rules


def rotation(status: GameStatus, m: Map) -> tuple[RotateStep, ...]:
    if status.rotate:
        return status.rotate
    if m.rotate is not None:
        try:
            return values.rotate(list(m.rotate))
        except ValueError:
            return ()
    return ()


def _matches(step: RotateStep, phase: Phase) -> bool:
    return step.phase_type is None or phase.type.startswith(step.phase_type.upper())


def rotate_after(status: GameStatus, m: Map, processed: Phase) -> tuple[GameStatus, dict[str, str]]:
    """Rotation after `processed` (ROTATE AFTER)."""
    steps = [s for s in rotation(status, m) if s.when is RotateWhen.AFTER and _matches(s, processed)]
    names = [b.name for b in status.powers if len(b.control) > 1] if steps else []
    return _rotate(status, names)


def rotate_before(status: GameStatus, m: Map, phase: Phase, rules: Rules
                  ) -> tuple[GameStatus, dict[str, str]]:
    """Rotation before the phase the game has just entered (`m`: the map in force in it)."""
    steps = rotation(status, m)
    every = any(s.when is RotateWhen.BEFORE and _matches(s, phase) for s in steps)
    if_orders = any((s.when is RotateWhen.FOR and _matches(s, phase)) or s.when is RotateWhen.CONTROL
                    for s in steps)
    due = set(owing(status, m, phase, rules)) if if_orders else set()
    names = [b.name for b in status.powers if len(b.control) > 1 and (every or b.name in due)]
    return _rotate(status, names)


def _rotate(status: GameStatus, names: list[str]) -> tuple[GameStatus, dict[str, str]]:
    moved = {}
    for name in names:
        block = status.power(name)
        assert block is not None
        control = block.control[1:] + block.control[:1]
        status = status.with_power(replace(block, control=control))
        moved[name] = control[0]
    return status, moved
