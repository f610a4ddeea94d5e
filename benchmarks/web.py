"""The game page's time: a standard game with 20 phases of history, its page (and one phase of its
archive with that phase's board) fetched through Starlette's test client; the median of `--repeat`
fetches, in milliseconds, wall time. Run by hand: python benchmarks/web.py [--phases 20]."""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from judge.runtime.inbox import MailHandler
from tests.web.conftest import (
    BASE,
    MASTER,
    NOW,
    Clock,
    judge_config,
    pages,
    raw_mail,
    start_game,
)


def played(root: Path, phases: int):
    """A standard game the Master has processed `phases` times (every unit holding)."""
    config = judge_config(root)
    handler = MailHandler(config)
    start_game(handler)
    for n in range(phases):
        handler(raw_mail(MASTER, "SIGNON MASTER@quiet masterpw\nPROCESS!", f"p{n}"),
                NOW + timedelta(hours=1, minutes=n))
    return config, handler


def timed(client, path: str, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        assert client.get(path).status_code == 200
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--phases", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=21)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        config, handler = played(Path(folder), args.phases)
        with pages(config, handler, Clock(NOW + timedelta(days=1))) as client:
            client.get(BASE + "?game=quiet")  # the map read and drawn once, as a running judge has
            now = timed(client, BASE + "?game=quiet", args.repeat)
            phase = timed(client, BASE + f"?game=quiet&phase={args.phases // 2}", args.repeat)
            index = timed(client, BASE, args.repeat)
    print(f"game page (as it stands): {now:.1f} ms median of {args.repeat}")
    print(f"game page (phase {args.phases // 2} of the archive, its board): {phase:.1f} ms")
    print(f"index: {index:.1f} ms")


if __name__ == "__main__":
    main()
