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


def position(status) -> tuple:
    """The phase, and each power's units, dislodged units (with where they may go) and centres."""
    return str(status.phase), {p.name: (sorted(map(str, p.units)),
                                        sorted((str(d.unit), sorted(d.retreats)) for d in p.dislodged),
                                        sorted(p.owns)) for p in status.powers}
