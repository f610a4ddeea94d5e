"""What a mail, a tick and a due game cost as the judge grows: 1,000, 10,000 and 100,000 games.

    python benchmarks/scale.py                             # 1,000 / 10,000 / 100,000 games
    python benchmarks/scale.py --games 1000 10000 --repeat 7 --tick --root /var/tmp/scale

The judge folder is a realistic mix, made with the judge's own functions (`new_game`, `join`, the
games index's `write_index`): 41% active standard games, 8% modern, 8% youngstown, 5% ancmed, 5%
1900, 10% forming, 5% waiting (the games index says so), 18% completed; each active game's deadline
2 to 9 days ahead. One game of each kind is made and started by the judge, then copied under many
names with its players' addresses its own (a copy is what the judge would have written), and the
games index `games/status` written as DPjudge keeps it; the games have no state file of their
own, as games DPjudge left have not, so their state is the index's.

Measured, each as the median CPU time (`time.process_time`: what the work costs, however busy the
machine is) over `--repeat` runs, after a first run left untimed (maps parsed, templates loaded):

- orders: an orders mail end to end through the inbox runner the daemon calls (`MailHandler`): a
  player's SIGNON and orders read, checked and saved, the reply made; each run another game;
- list: a bare LIST from a stranger, the same way (it reads every game: 2 runs, and none above
  `--list-upto` games);
- due: one due game of a cycle (`tick_game`, as `run_cycle` calls it with what it keeps for a
  cycle): read, adjudicated, saved; each run another game, made due by writing its status back
  with its deadline passed;
- cold, idle and start (with `--tick`): a cycle that reads every game (as after an upgrade), then
  cycles in which no game changed and none is due, as the daemon's tick runs them (its parsed maps,
  templates, games index and idle index kept from one to the next), then the first cycle of a
  daemon started afresh over the same folder (its idle index read from disk and trusted).

The last column is each figure's ratio to that of the smallest judge measured.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gamekit import JUDGE_ADDRESS, write_config

from judge.game import join
from judge.game.games_index import INDEX_FILE, IndexEntry, write_index
from judge.mailout.render import environment
from judge.maps import MapCache
from judge.runtime.config import Config
from judge.runtime.cycle import map_dirs, run_cycle, tick_game
from judge.runtime.idle_index import KeptIndex
from judge.runtime.commit import new_game, run
from judge.runtime.game_files import IndexReader, archiver, game_map
from judge.runtime.inbox import MailHandler
from judge.runtime.store import GameStore
from judge.status import parse_status, write_status
from judge.status.model import Dppd, GameStage
from judge.timing import format_deadline

NOW = datetime(2025, 1, 6, 12, 0, tzinfo=UTC)
# (kind, share, map, DPjudge's state word in the games index)
MIX = (("standard", 0.41, "standard", "active"), ("modern", 0.08, "modern", "active"),
       ("youngstown", 0.08, "youngstown", "active"), ("ancmed", 0.05, "ancmed", "active"),
       ("1900", 0.05, "1900", "active"), ("forming", 0.10, "standard", "forming"),
       ("waiting", 0.05, "standard", "waiting"), ("completed", 0.18, "standard", "completed"))
DEADLINE = re.compile(r"^DEADLINE \S+$", re.MULTILINE)
LINES = ["TIMING NEXT 30D WARN 0", "RULE DEFAULT_UNORDERED"]


def player(n: int) -> Dppd:
    return Dppd("NO-ID", f"player{n}@bench.test", f"Player_{n}")


def made_game(store: GameStore, name: str, map_name: str, seats: int | None,
              now: datetime = NOW) -> str:
    """A game made by the judge and joined at `now` by `seats` players (None: every seat, so it
    starts)."""
    new_game(store, name, map_name, "gm@bench.test", "pw", LINES)
    status = parse_status((store.root / name / "status").read_text(encoding="utf-8"))
    wanted = len(game_map(status).powers) if seats is None else seats
    for n in range(wanted):
        run(store, name, lambda s, m, n=n: join(s, m, now, player(n), f"pw{n}"))
    return (store.root / name / "status").read_text(encoding="utf-8")


def templates(root: Path, now: datetime = NOW) -> tuple[dict[str, str], str]:
    """Each kind's status as the judge wrote it at `now` (GAME template, deadline 30 days ahead),
    and a standard game due at `now` (every unit's orders left to the default, its deadline
    passed)."""
    store = GameStore(root / ".template")
    texts: dict[str, str] = {}
    for kind, _, map_name, _ in MIX:
        seats = 2 if kind == "forming" else None
        texts[kind] = made_game(store, f"t{kind}", map_name, seats, now).replace(
            f"GAME t{kind}", "GAME template", 1)
    standard = parse_status(texts["standard"])
    texts["completed"] = write_status(replace(standard, phase=GameStage.COMPLETED, deadline=None))
    due = standard
    for block in standard.powers:
        if block.units:
            due = due.with_power(replace(block, orders=()))
    due = replace(due, deadline=format_deadline(now - timedelta(hours=1)))
    shutil.rmtree(store.root)
    return texts, write_status(due)


def kinds(games: int) -> list[str]:
    """The kind of each game, the shares of MIX spread evenly over the names."""
    out: list[str] = []
    for kind, share, _, _ in MIX:
        out += [kind] * round(games * share)
    out = (out + ["standard"] * games)[:games]
    step = 7919  # a prime: kinds interleaved through the names, not in blocks
    return [out[(n * step) % games] for n in range(games)] if games % step else out


def game_name(n: int) -> str:
    return f"g{n:06d}"


def personal(text: str, name: str) -> str:
    """A template's text as game `name`'s: its players' addresses its own (name.playerN@...)."""
    text = re.sub(r"\bplayer(\d+)@bench\.test", rf"{name}.player\1@bench.test", text)
    return text.replace("GAME template", f"GAME {name}", 1)


def make_judge(root: Path, games: int, now: datetime = NOW) -> tuple[Config, list[str]]:
    """The judge folder of `games` games made at `now`; its config and the kind of each game (by
    number)."""
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    config = write_config(root)
    texts, _ = templates(root, now)
    ahead = [format_deadline(now + timedelta(days=d, hours=h)) for d in range(2, 10) for h in (0, 7, 15)]
    states = {kind: state for kind, _, _, state in MIX}
    folder = root / "games"
    folder.mkdir()
    entries: dict[str, IndexEntry] = {}
    every = kinds(games)
    for n, kind in enumerate(every):
        name = game_name(n)
        text = DEADLINE.sub(f"DEADLINE {ahead[n % len(ahead)]}", personal(texts[kind], name), 1)
        (folder / name).mkdir()
        (folder / name / "status").write_text(text, encoding="utf-8")
        entries[name] = IndexEntry(state=states[kind])
    (folder / INDEX_FILE).write_text(write_index(entries), encoding="latin-1")
    return config, every


def cpu(call: Callable[[], object]) -> float:
    started = time.process_time()
    call()
    return time.process_time() - started


def orders_mail(root: Path, name: str, round_: int) -> bytes:
    """SIGNON and orders from the first player of game `name` with units: every unit holds."""
    status = parse_status((root / "games" / name / "status").read_text(encoding="utf-8"))
    block = next(b for b in status.powers if b.units)
    email = block.player.current.email
    n = re.search(r"player(\d+)@", email).group(1)  # its password is pwN
    orders = "\r\n".join(f"{unit} H" for unit in block.units)
    return (f"From: {email}\r\nTo: {JUDGE_ADDRESS}\r\nSubject: orders\r\n"
            f"Message-ID: <o{round_}.{name}@bench.test>\r\n\r\n"
            f"SIGNON {block.name[0]}{name} pw{n}\r\n{orders}\r\n").encode()


def list_mail(round_: int) -> bytes:
    return (f"From: someone@bench.test\r\nTo: {JUDGE_ADDRESS}\r\nSubject: list\r\n"
            f"Message-ID: <l{round_}@bench.test>\r\n\r\nLIST\r\n").encode()


def measure(root: Path, games: int, repeat: int, tick: bool, list_upto: int) -> dict[str, float]:
    started = time.perf_counter()
    config, every = make_judge(root, games)
    built = time.perf_counter() - started
    standard = [game_name(n) for n, kind in enumerate(every) if kind == "standard"]
    handler = MailHandler(config)
    now = NOW + timedelta(minutes=5)
    orders = [cpu(lambda r=r: handler(orders_mail(root, standard[r], r), now))
              for r in range(repeat + 1)][1:]
    rounds = min(repeat, 2) if games <= list_upto else 0  # a LIST reads every game
    listing = [cpu(lambda r=r: handler(list_mail(r), now)) for r in range(rounds + 1)][1:]
    _, due_text = templates(root)
    store = GameStore(config.paths.games)
    search = map_dirs(config)
    maps, kept = MapCache(search), IndexReader()
    archive = archiver(config.judge.id, config.judge.address, environment())
    due = []
    for r in range(repeat + 1):
        name = standard[-1 - r]
        (store.root / name / "status").write_text(personal(due_text, name), encoding="utf-8")
        due.append(cpu(lambda name=name: tick_game(store, name, NOW, search, maps, None, archive, kept)))
    figures = {"built s": built, "orders ms": statistics.median(orders) * 1000,
               "list ms": statistics.median(listing) * 1000 if listing else float("nan"),
               "due ms": statistics.median(due[1:]) * 1000}
    if tick:
        daemon = {"maps": MapCache(search), "env": environment(), "games_index": IndexReader(),
                  "kept": KeptIndex()}  # what the daemon keeps from one tick to the next
        at = NOW + timedelta(minutes=20)
        figures["cold s"] = cpu(lambda: run_cycle(store, config, at, fresh=True, **daemon))
        idle = []
        for _ in range(repeat):
            at += timedelta(minutes=20)
            idle.append(cpu(lambda at=at: run_cycle(store, config, at, **daemon)))
        figures["idle s"] = statistics.median(idle)
        at += timedelta(minutes=20)
        daemon["kept"].close()  # the daemon stopped: its watches go with it
        restarted = {"maps": MapCache(search), "env": environment(), "games_index": IndexReader(),
                     "kept": KeptIndex()}
        figures["start s"] = cpu(lambda: run_cycle(store, config, at, **restarted))
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--tick", action="store_true", help="also the cold and the idle cycle")
    parser.add_argument("--list-upto", type=int, default=10000,
                        help="LIST measured (in 2 runs) only up to this many games (10,000)")
    parser.add_argument("--keep", action="store_true", help="leave the judge folders in place")
    parser.add_argument("--root", type=Path, default=Path("/tmp/judge-bench-scale"))
    args = parser.parse_args(argv)
    print(f"load average before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; CPU medians "
          f"of {args.repeat}")
    first: dict[str, float] = {}
    for games in args.games:
        figures = measure(args.root / str(games), games, args.repeat, args.tick, args.list_upto)
        first = first or figures
        print(f"{games:>7} games: " + "  ".join(
            f"{key} {value:.3f}" + (f" (x{value / first[key]:.2f})" if key != "built s" else "")
            for key, value in figures.items()), flush=True)
        if not args.keep:
            shutil.rmtree(args.root / str(games), ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
