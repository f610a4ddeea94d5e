"""A Master's PROCESS and ROLLBACK run on a game in a test's games folder through the shell's way
(`judge.runtime.master_shell.run_as_master`): the same checks, the same writer and the same mails
as the Master's mail. The judge's configuration is the `judge.toml` beside the games folder when
there is one, else the defaults with that games folder (its spool beside it)."""
from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from judge.game import GameError
from judge.runtime.config import Config, PathsSection, load_config
from judge.runtime.master_shell import run_as_master
from judge.runtime.store import GameStore


def config_of(store: GameStore) -> Config:
    beside = store.root.parent / "judge.toml"
    if beside.exists():
        return load_config(beside)
    return Config(paths=PathsSection(games=store.root, spool=store.root.parent / "spool"))


def as_master(store: GameStore, name: str, line: str, now: datetime, search: Sequence[Path] = ()
              ) -> list[object]:
    """The Master's command `line` on game `name`: its events; GameError with the reply's lines
    when it is refused."""
    outcome = run_as_master(config_of(store), name, line, now, search)
    if outcome.failed:
        raise GameError("\n".join(outcome.lines))
    return list(outcome.events)


def process(store: GameStore, name: str, now: datetime, force: bool = False,
            search: Sequence[Path] = ()) -> list[object]:
    """PROCESS (PROCESS! with `force`)."""
    return as_master(store, name, "PROCESS!" if force else "PROCESS", now, search)


def rollback(store: GameStore, name: str, now: datetime, phase: str | None = None, *,
             restore: bool = False, full: bool = False, forward: bool = False,
             search: Sequence[Path] = ()) -> list[object]:
    """ROLLBACK (ROLLFORWARD with `forward`) to `phase`, else to the phase before (after)."""
    words = ["ROLLFORWARD" if forward else "ROLLBACK", *([phase] if phase else []),
             *(["RESTORE"] if restore else []), *(["FULL"] if full else [])]
    return as_master(store, name, " ".join(words), now, search)
