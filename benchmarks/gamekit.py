"""Judge folders full of games for the benchmarks: one standard game started by the judge itself,
copied under many names (a copy is what the judge would have written for that game).

`make_judge(root, games, due=0.0)` writes `root/judge.toml` and `games` game folders, of which the
share `due` have their deadline passed with every order in (the next tick processes them); the
others are mid-phase with a deadline thirty days ahead. The judge's address is judge@bench.test.
"""
from __future__ import annotations

import re
import shutil
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

from judge.runtime.config import Config, load_config
from judge.game import join
from judge.runtime.commit import run
from judge.runtime.commit import new_game
from judge.status import parse_status, write_status
from judge.status.model import Dppd
from judge.runtime.store import GameStore
from judge.timing import format_deadline

NOW = datetime(2025, 1, 6, 12, 0, tzinfo=UTC)
JUDGE_ADDRESS = "judge@bench.test"


def write_config(root: Path, port: int = 2525, relay: int | None = None) -> Config:
    """judge.toml: the gateway on loopback `port`, the outgoing relay on loopback `relay` (None:
    mail waits in the outbox)."""
    (root / "judge.toml").write_text(
        f'[judge]\nid = "BENCH"\naddress = "{JUDGE_ADDRESS}"\nkeeper = "keeper@bench.test"\n'
        f'password = "jk"\n[paths]\ngames = "{root / "games"}"\nspool = "{root / "spool"}"\n'
        f'maps = "{root / "maps"}"\n[smtp_in]\nhost = "127.0.0.1"\nport = {port}\n'
        f'max_bytes = 1048576\n'
        + (f'[smtp_out]\nhost = "127.0.0.1"\nport = {relay}\n' if relay else ""))
    (root / "maps").mkdir(exist_ok=True)
    return load_config(root / "judge.toml")


def templates(root: Path, now: datetime = NOW) -> tuple[str, str]:
    """A started standard game's status (its deadline 30 days after `now`), and the same with every
    order in and its deadline passed at `now`."""
    store = GameStore(root / ".template")
    new_game(store, "template", "standard", "gm@bench.test", "pw",
             ["TIMING NEXT 30D WARN 0", "RULE DEFAULT_UNORDERED"])
    for n in range(7):
        run(store, "template", lambda s, m, n=n: join(s, m, NOW, player(n), f"pw{n}"))
    status = parse_status((store.root / "template" / "status").read_text(encoding="utf-8"))
    status = replace(status, deadline=format_deadline(now + timedelta(days=30)))
    idle = write_status(status)
    due = status
    for block in status.powers:
        if block.units:
            due = due.with_power(replace(block, orders=()))
    due = replace(due, deadline=format_deadline(now - timedelta(hours=1)))
    shutil.rmtree(root / ".template")
    return idle, write_status(due)


def player(n: int) -> Dppd:
    return Dppd("NO-ID", f"player{n}@bench.test", f"Player_{n}")


def game_name(n: int) -> str:
    return f"g{n:05d}"


def place(root: Path, name: str, text: str) -> None:
    """The game `name`, its players' addresses its own (name.playerN@bench.test)."""
    folder = root / "games" / name
    folder.mkdir(parents=True, exist_ok=True)
    text = re.sub(r"\bplayer(\d+)@bench\.test", rf"{name}.player\1@bench.test", text)
    (folder / "status").write_text(text.replace("GAME template", f"GAME {name}", 1), encoding="utf-8")


def make_judge(root: Path, games: int, due: float = 0.0, port: int = 2525,
               relay: int | None = None, now: datetime = NOW) -> tuple[Config, list[str]]:
    """The folder, its config, and the names of the due games (at `now`)."""
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    config = write_config(root, port, relay)
    idle_text, due_text = templates(root, now)
    every = round(1 / due) if due else 0
    due_names = []
    for n in range(games):
        name = game_name(n)
        is_due = bool(every) and n % every == 0
        place(root, name, due_text if is_due else idle_text)
        if is_due:
            due_names.append(name)
    return config, due_names


def make_due_again(root: Path, names: list[str], now: datetime = NOW) -> None:
    """Put the due games back as they were before a tick processed them."""
    _, due_text = templates(root, now)
    for name in names:
        place(root, name, due_text)
