"""Small status files for tests: a game block, or one power's block under a minimal game block."""
from __future__ import annotations

from pathlib import Path

from judge.errors import StatusError
from judge.status import GameStatus, PowerStatus, parse_status, write_status

DATA = Path(__file__).parent / "data"
PHASE_WORDS = ("PHASE", "AWAIT", "SKIP", "WAIT")


def game(text: str) -> GameStatus:
    """`text` as the game block; `PHASE FORMING` is added unless it has a phase line."""
    lines = text.strip("\n").splitlines()
    has_phase = any(line.split()[:1] and line.split()[0].upper() in PHASE_WORDS for line in lines)
    return parse_status(("" if has_phase else "PHASE FORMING\n") + "\n".join(lines) + "\n")


def power(text: str, heading: str = "POWER FRANCE") -> PowerStatus:
    """`text` as the lines of one power's block."""
    status = parse_status(f"PHASE SPRING 1901 MOVEMENT\n\n{heading}\n{text.strip()}\n")
    assert len(status.powers) == 1
    return status.powers[0]


def rewritten(status: GameStatus) -> str:
    """The status written, after checking that it reads back equal."""
    text = write_status(status)
    assert parse_status(text) == status
    return text


def problems(text: str) -> list[tuple[int, str]]:
    """(line, message) of every problem parsing `text` reports."""
    try:
        parse_status(text, "games/test/status")
    except StatusError as exc:
        assert all(p.file == "games/test/status" for p in exc.problems)
        return [(p.line, p.message) for p in exc.problems]
    raise AssertionError("no problem reported")
