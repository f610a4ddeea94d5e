"""The crash loop's kit: a judge folder made for one kind of work, a worker process killed at a
random instant of that work, and what is on disk before and after, read for comparison."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from pathlib import Path

from judge.runtime.config import Config, load_config
from judge.game import join
from judge.runtime.commit import run
from judge.runtime.commit import new_game
from judge.runtime.press_file import PRESS_FILE
from judge.status import parse_status, write_status
from judge.status.model import Dppd
from judge.runtime.store import GameStore
from judge.timing import format_deadline

WORKER = Path(__file__).parent.parent / "faults" / "worker.py"
REPO = Path(__file__).resolve().parents[2]
NOW = datetime(2025, 1, 6, 12, 0, tzinfo=UTC)
DEADLINE = NOW + timedelta(days=2)
TICK_AT = DEADLINE + timedelta(minutes=5)  # the cycle the loop kills: every game below has work then
JUDGE = "judge@crash.test"


def player(n: int) -> Dppd:
    return Dppd("NO-ID", f"player{n}@crash.test", f"Player_{n}")


def write_config(root: Path) -> Config:
    root.mkdir(parents=True, exist_ok=True)
    (root / "judge.toml").write_text(
        f'[judge]\nid = "CRASH"\naddress = "{JUDGE}"\nkeeper = "keeper@crash.test"\n'
        f'[paths]\ngames = "{root / "games"}"\nspool = "{root / "spool"}"\nmaps = "{root / "maps"}"\n')
    (root / "maps").mkdir(exist_ok=True)
    return load_config(root / "judge.toml")


def started(store: GameStore, name: str, *lines: str) -> None:
    """A standard game, seven players (passwords pw0..pw6), deadline DEADLINE, orders on file as
    DEFAULT_UNORDERED reads them: every power has ordered (an empty order set)."""
    new_game(store, name, "standard", "gm@crash.test", "gmpw", ["RULE DEFAULT_UNORDERED", *lines])
    for n in range(7):
        run(store, name, lambda s, m, n=n: join(s, m, NOW, player(n), f"pw{n}"))
    with store.locked(name) as game:
        status = parse_status(game.read_status())
        status = replace(status, deadline=format_deadline(DEADLINE))
        game.write_status(write_status(status))


def everyone_ordered(store: GameStore, name: str, but: tuple[str, ...] = ()) -> None:
    with store.locked(name) as game:
        status = parse_status(game.read_status())
        for block in status.powers:
            if block.units:
                status = status.with_power(replace(block, orders=None if block.name in but else ()))
        game.write_status(write_status(status))


def power_of(store: GameStore, game: str, n: int) -> tuple[str, str]:
    """The power player n plays, and its initial."""
    with store.locked(game) as folder:
        status = parse_status(folder.read_status())
    block = next(b for b in status.powers if b.player and isinstance(b.player.current, Dppd)
                 and b.player.current.email == player(n).email)
    return block.name, block.name[0]


def mail(sender: str, body: str, number: int) -> bytes:
    return (f"Return-Path: <{sender}>\r\nFrom: {sender}\r\nTo: {JUDGE}\r\nSubject: mail {number}\r\n"
            f"Message-ID: <crash{number}@players.test>\r\n\r\n{body}\r\n").encode()


def make_judge(root: Path, kind: str) -> Config:
    """A judge folder with work for `kind`: process (one game ready), tick (a game to process, one
    late, one to remind, one calm), mail (three mails waiting in the inbox for a running game)."""
    shutil.rmtree(root, ignore_errors=True)
    config = write_config(root)
    store = GameStore(config.paths.games)
    if kind == "process":
        started(store, "g")
        everyone_ordered(store, "g")
    elif kind == "tick":
        started(store, "due")
        everyone_ordered(store, "due")
        started(store, "late")
        everyone_ordered(store, "late", but=("FRANCE", "ITALY"))
        started(store, "warned", "TIMING WARN 1D")
        with store.locked("warned") as game:  # reminded in the killed cycle's slot
            status = parse_status(game.read_status())
            game.write_status(write_status(replace(status, deadline=format_deadline(
                TICK_AT + timedelta(days=1)))))
        started(store, "calm")
        with store.locked("calm") as game:
            status = parse_status(game.read_status())
            game.write_status(write_status(replace(status, deadline=format_deadline(
                DEADLINE + timedelta(days=9)))))
    else:
        from judge.runtime.spool import Spool
        started(store, "g")
        inbox = Spool(config.paths.spool / "inbox", bad="bad").create()
        power, initial = power_of(store, "g", 0)
        other, other_initial = power_of(store, "g", 1)
        unit = next(iter(_units(store, "g", power)))
        inbox.put(mail(player(0).email, f"SIGNON {initial}g pw0\n{unit} H", 1))
        inbox.put(mail(player(1).email, f"SIGNON {other_initial}g pw1\nPRESS TO {initial}\n"
                                        f"Hello from {other}.\nENDPRESS", 2))
        inbox.put(mail("someone@players.test", "LIST g", 3))
    return config


def _units(store: GameStore, game: str, power: str) -> list[str]:
    with store.locked(game) as folder:
        status = parse_status(folder.read_status())
    return [str(u) for u in status.power(power).units]


# -- a worker, killed ----------------------------------------------------------------------------------
@dataclass
class Run:
    seconds: float  # from go to done (or to the kill)
    killed: bool
    output: str


def start(config: Config, kind: str, now: datetime, **env: str) -> subprocess.Popen:
    """A worker that has loaded the judge and started its work."""
    process = subprocess.Popen([sys.executable, str(WORKER), kind, str(config.source), now.isoformat()],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               env={**os.environ, "PYTHONPATH": str(REPO), **env}, cwd=REPO)
    assert process.stdout is not None and process.stdin is not None
    ready = process.stdout.readline()
    assert ready == b"ready\n", ready + process.stdout.read()
    process.stdin.write(b"go\n")
    process.stdin.flush()
    return process


def judge_command(config: Config, *words: str, stdin: bytes = b"") -> subprocess.CompletedProcess:
    """`judge WORDS --config ...` as a separate process, as a judgekeeper or an MTA runs it."""
    return subprocess.run([sys.executable, "-m", "judge.cli", *words, "--config", str(config.source)],
                          check=False, input=stdin, capture_output=True, env={**os.environ, "PYTHONPATH": str(REPO)},
                          cwd=REPO, timeout=120)


def work(config: Config, kind: str, now: datetime, kill_after: float | None) -> Run:
    """Start a worker, let it load the judge, start its work, and SIGKILL it `kill_after` seconds
    later (None: let it finish)."""
    process = start(config, kind, now)
    assert process.stdout is not None
    started_at = time.perf_counter()
    if kill_after is None:
        output = process.communicate(timeout=120)[0].decode()
        assert process.returncode == 0, output
        return Run(time.perf_counter() - started_at, False, output)
    time.sleep(kill_after)
    process.send_signal(signal.SIGKILL)
    output = process.communicate(timeout=60)[0].decode()
    return Run(time.perf_counter() - started_at, process.returncode == -signal.SIGKILL, output)


# -- what is on disk -------------------------------------------------------------------------------------
def game_files(config: Config, game: str) -> dict[str, str]:
    """A game's status, results log, kept press and snapshots, by file name."""
    folder = Path(config.paths.games) / game
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.iterdir())
            if p.name in ("status", "results", PRESS_FILE) or p.name.startswith("status.")}


def outbox_mails(config: Config) -> list[tuple[str, str, str, str]]:
    """Every mail the outbox holds (waiting, sent, failed) as (Message-ID, To, Subject, body)."""
    return mails_in(Path(config.paths.spool) / "outbox")


def mails_in(folder: Path) -> list[tuple[str, str, str, str]]:
    """The .eml files under `folder` as (Message-ID, To, Subject, body): the text, then the name of
    each file attached (a picture of the board)."""
    found = []
    for path in sorted(folder.rglob("*.eml")) if folder.is_dir() else []:
        msg = message_from_bytes(path.read_bytes(), policy=policy.default)
        body = msg.get_body(("plain",)).get_content()
        body += "".join(f"\n[{part.get_filename()}]" for part in msg.iter_attachments())
        found.append((str(msg["Message-ID"]), str(msg["To"]), str(msg["Subject"]), body))
    return found


def inbox_items(config: Config) -> dict[str, list[str]]:
    """Each inbox mail id and where it is: waiting, claimed (.bak), done or bad."""
    folder = Path(config.paths.spool) / "inbox"
    found: dict[str, list[str]] = {}
    for path in folder.rglob("*"):
        if path.suffix in (".eml", ".bak") and not path.name.startswith("."):
            place = "claimed" if path.suffix == ".bak" else (path.parent.name if path.parent != folder
                                                             else "waiting")
            found.setdefault(path.name.split("-", 2)[2].rsplit(".", 1)[0], []).append(place)
    return found


def copy_judge(source: Path, target: Path) -> Config:
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(source, target, symlinks=True)
    text = (target / "judge.toml").read_text().replace(str(source), str(target))
    (target / "judge.toml").write_text(text)
    return load_config(target / "judge.toml")
