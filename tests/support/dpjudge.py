"""DPjudge's own games folder, recorded as fixtures (status files, snapshots, the `games/status`
index, a results archive): copied where a test may change it."""
from __future__ import annotations

import asyncio
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

from judge.runtime.daemon import Daemon
from tests.support.cycle import Judge

FIXTURES = Path(__file__).parent.parent / "status" / "fixtures" / "dpjudge"
GAMES = FIXTURES / "games"
PHASES = FIXTURES / "phases"
ARCHIVE = FIXTURES / "archive"  # entries DPjudge appended to a game's results, by game and phase
EXPORTED = FIXTURES / "exported"  # `judge export alpha` after `served`, as DPjudge loaded it
DEADLINE = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)  # alpha's, epsilon's and eta's


def dpjudge_games(where: Path) -> Path:
    """A copy of DPjudge's games folder in `where`; its path."""
    target = Path(where) / "games"
    shutil.copytree(GAMES, target)
    return target


def served(where: Path) -> Path:
    """DPjudge's games folder in `where`, alpha with every order of FALL 1902 in, after the
    daemon's tick at the deadline and the next one (as `judge serve` runs them, no socket
    opened); the games folder."""
    games = dpjudge_games(where)
    (games / "alpha" / "status").write_bytes((PHASES / "alpha.F1902M.orders").read_bytes())
    judge = Judge(Path(where))
    for now in (DEADLINE, DEADLINE + timedelta(minutes=20)):
        asyncio.run(Daemon(judge.config, clock=lambda now=now: now).run_tick())
    return games


def position(status) -> tuple:
    """The phase, and each power's units, dislodged units (with where they may go) and centres."""
    return str(status.phase), {p.name: (sorted(map(str, p.units)),
                                        sorted((str(d.unit), sorted(d.retreats)) for d in p.dislodged),
                                        sorted(p.owns)) for p in status.powers}
