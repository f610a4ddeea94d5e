"""DPjudge's own games folder, recorded as fixtures (status files, snapshots, the `games/status`
index, a results archive): copied where a test may change it."""
from __future__ import annotations

import shutil
from pathlib import Path

FIXTURES = Path(__file__).parent.parent / "status" / "fixtures" / "dpjudge"
GAMES = FIXTURES / "games"
PHASES = FIXTURES / "phases"


def dpjudge_games(where: Path) -> Path:
    """A copy of DPjudge's games folder in `where`; its path."""
    target = Path(where) / "games"
    shutil.copytree(GAMES, target)
    return target
