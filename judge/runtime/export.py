"""`judge export GAME FOLDER`: a game written as DPjudge reads it, so that a judgekeeper can take it
back to DPjudge: FOLDER/GAME/status and each snapshot `status.S1901M` in DPjudge's layout and
encoding (`judge.status.dpjudge`), the `results` archive and a Crystal Ball game's `lists` file
copied as they are, and the game's line in FOLDER/status, DPjudge's games index (made, or updated
beside the lines already there).

FOLDER is DPjudge's games folder (or any folder to copy into it). The game is read under its lock
and nothing of the judge's own folder is changed. A password the judge stored hashed is written as
it is: DPjudge cannot check it, so its owner sets a new one there (the export says whose).
"""
from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from pathlib import Path

from judge.game.games_index import INDEX_FILE, entry_for, write_index
from judge.passwords import is_hashed
from judge.runtime.game_files import read_index, read_standing, read_status_file
from judge.runtime.store import LISTS, RESULTS, STATUS, GameStore, atomic_write, make_folder, read_bytes
from judge.status import parse_status
from judge.status.dpjudge import DPJUDGE_ENCODING, dpjudge_bytes
from judge.status.model import GameStatus


@dataclass
class Exported:
    """What was written, and what a judgekeeper should know before DPjudge runs the game."""

    files: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def export_game(store: GameStore, name: str, folder: Path) -> Exported:
    folder = Path(folder)
    done = Exported()
    with store.locked(name) as game:
        _, status = read_status_file(game)
        standing = read_standing(game, status)
        target = folder / name
        folder.mkdir(parents=True, exist_ok=True)
        make_folder(target, folder)
        _write(target / STATUS, status, name, done, f"{name}/{STATUS}")
        done.notes += _hashed_passwords(status, f"{name}/{STATUS}")
        for abbrev in game.snapshots():
            snapshot = parse_status(game.read_snapshot(abbrev), f"{name}/{STATUS}.{abbrev}")
            _write(target / f"{STATUS}.{abbrev}", snapshot, name, done, f"{name}/{STATUS}.{abbrev}")
        for kept in (RESULTS, LISTS):
            with contextlib.suppress(FileNotFoundError):
                data = read_bytes(game.path / kept, game.root)
                atomic_write(target / kept, data, root=folder)
                done.files.append(target / kept)
    index = read_index(folder)
    index[name] = entry_for(status, standing, index.get(name))
    atomic_write(folder / INDEX_FILE, write_index(index).encode(DPJUDGE_ENCODING), root=folder)
    done.files.append(folder / INDEX_FILE)
    return done


def _write(path: Path, status: GameStatus, name: str, done: Exported, shown: str) -> None:
    data, changed = dpjudge_bytes(status, name)
    atomic_write(path, data, root=path.parent.parent)
    done.files.append(path)
    done.notes += [f"{shown}:{line}: a character latin-1 lacks is written as &#...; (an HTML "
                   "character reference)" for line in changed]


def _hashed_passwords(status: GameStatus, shown: str) -> list[str]:
    hashed = (["the Master"] if is_hashed(status.password) else []) + [
        block.name for block in status.powers if is_hashed(block.password)]
    return [f"{shown}: the password of {who} is stored hashed: DPjudge cannot check it; set a new "
            "one in the file there" for who in hashed]
