"""The tick: one deadline cycle over 1,000 and 10,000 game folders, idle and with 10% due.

    python benchmarks/tick.py                       # 1,000 and 10,000 games, 5 repetitions
    python benchmarks/tick.py --games 2000 --repeat 7 --due 0.05 --root /var/tmp/tick

For each size a judge folder is filled (gamekit.py: a started standard game copied under many
names; the due share has its deadline passed and every order in, so the tick adjudicates them).
Measured, as medians over the repetitions:

- cold: the first cycle, which reads every game (no index yet: after an upgrade or a lost index);
- idle: a cycle in which no game changed and none is due (the index: judge/runtime/idle_index.py);
- due: a cycle after the due games were put back as they were (their files rewritten, as a mail or
  a hand edit would): those are read, processed and saved, the rest left unread;
- mails: turning the due cycle's report into the mails it calls for (`cycle_mails`), which the
  daemon's tick also does.

`--outbox`: every cycle is run as the daemon's tick runs it: given the outbox (each game's mails are
made with its change and queued with it, in `due`; `mails` is what is left), and the templates and
parsed maps kept from one cycle to the next.

The target is 10,000 idle games in under 1 s, and a cost that grows with the due games only.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gamekit import NOW, make_due_again, make_judge

from judge.maps import MapCache
from judge.mailout.render import environment
from judge.runtime.cycle import cycle_mails, map_dirs, run_cycle
from judge.runtime.spool import open_spools
from judge.runtime.store import GameStore

SLOT = timedelta(minutes=20)


def timed(call):
    started = time.perf_counter()
    value = call()
    return time.perf_counter() - started, value


def measure(root: Path, games: int, due: float, repeat: int, queue: bool = False) -> dict[str, float]:
    config, due_names = make_judge(root, games, due)
    store = GameStore(config.paths.games)
    kept = {"outbox": open_spools(config).outbox, "env": environment(),
            "maps": MapCache(map_dirs(config))} if queue else {}
    now = NOW + SLOT
    cold, report = timed(lambda: run_cycle(store, config, now, **kept))
    assert report.unread == 0
    idle, due_times, mail_times = [], [], []
    for _ in range(repeat):
        now += SLOT
        seconds, report = timed(lambda now=now: run_cycle(store, config, now, **kept))
        assert report.unread == games, (report.unread, report.lines[:3])
        idle.append(seconds)
        make_due_again(root, due_names)
        now += SLOT
        seconds, report = timed(lambda now=now: run_cycle(store, config, now, **kept))
        processed = sum(1 for line in report.lines if "processed" in line)
        assert processed == len(due_names), (processed, report.lines[:3])
        due_times.append(seconds)
        seconds, (mails, problems) = timed(lambda report=report: cycle_mails(report, config))
        assert not problems, problems
        mail_times.append(seconds)
    return {"cold": cold, "idle": statistics.median(idle), "due": statistics.median(due_times),
            "mails": statistics.median(mail_times), "due_games": len(due_names),
            "mail_count": len(mails) + report.queued}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--due", type=float, default=0.1, help="the share of games due (0.1)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--root", type=Path, default=Path("/tmp/judge-bench-tick"))
    parser.add_argument("--outbox", action="store_true",
                        help="the cycles queue the games' mails with their changes, as the daemon's")
    args = parser.parse_args(argv)
    print(f"load average before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'games':>7} {'cold s':>8} {'idle s':>8} {'idle/target':>11} {'due games':>9} "
          f"{'due s':>8} {'ms/due game':>11} {'mails s':>8} {'mails':>6}")
    for games in args.games:
        r = measure(args.root / str(games), games, args.due, args.repeat, args.outbox)
        target = games / 10000  # 1 s for 10,000 idle games, pro rata
        per_due = (r["due"] - r["idle"]) / r["due_games"] * 1000 if r["due_games"] else 0.0
        print(f"{games:>7} {r['cold']:>8.2f} {r['idle']:>8.3f} {r['idle'] / target:>11.2f} "
              f"{r['due_games']:>9} {r['due']:>8.2f} {per_due:>11.1f} {r['mails']:>8.2f} "
              f"{r['mail_count']:>6}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
