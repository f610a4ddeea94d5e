"""The Crystal Ball game DPjudge played through 1903 (`tests/game/fixtures/xtalball`, see its
README), each phase processed by the judge from the status file DPjudge processed."""
from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from judge.game.process import process_phase
from judge.game.variants import XTALBALL
from judge.status import parse_status

HERE = Path(__file__).parent.parent / "game" / "fixtures" / "xtalball"
PHASES = sorted(p.stem for p in HERE.glob("*.status"))
NOW = datetime(2026, 11, 27, 20, 7, tzinfo=UTC)


def processed(phase: str, standard):
    return process_phase(parse_status((HERE / f"{phase}.status").read_text()), standard, NOW, XTALBALL)
