"""The CPU one orders mail costs the inbox runner, warm: one started standard game, each player's
SIGNON and holds (alternately `H` and `HOLD`, so that every mail changes the game) carried out by
`MailHandler` in turn; the median and least thread CPU time a mail.

    PYTHONPATH=. python benchmarks/orders_mail.py [mails]       # default 300
"""
from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from tests.support.cycle import Judge
from tests.support.games import DAY, NOW
from tests.support.module_trace import holds

PLAYERS = [f"player{n}@example.org" for n in range(7)]


def main(mails: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        judge = Judge(Path(folder))
        status = judge.start("bench", [], NOW)
        for email in PLAYERS:  # the warm-up: imports, maps, each player's first sign-on
            judge.send(email, holds(status, email, 0), NOW + DAY)
        costs = []
        for turn in range(1, mails + 1):
            email = PLAYERS[turn % len(PLAYERS)]
            started = time.thread_time()
            judge.send(email, holds(status, email, turn), NOW + DAY)
            costs.append(time.thread_time() - started)
    print(f"orders mail CPU ms: median {statistics.median(costs) * 1000:.2f}  "
          f"least {min(costs) * 1000:.2f}  ({len(costs)} mails)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)
