"""A judge process for the crash loop: it loads the judge, says `ready`, waits for `go` on its standard
input, does one piece of work, and says `done`, unless it is killed first.

    python tests/faults/worker.py process|tick|mail JUDGE_TOML NOW

- process: `judge process GAME --force` on the game named `g` (as a judgekeeper would by hand);
- tick: one deadline cycle with its mails, as the daemon's tick does it (`cycle_tick`, then the
  mails it returns put in the outbox);
- mail: the daemon's inbox worker after a start: the mails left claimed by a crash recovered, then
  every waiting mail processed (`Daemon.process`: claimed, handled, its mails queued, done).

With `JUDGE_TEST_SLOW=seconds` in its environment, the processing of a phase (by hand or by the
tick) says `inside GAME` and takes that long, holding the game's lock: a window for the concurrency
tests to send mail into.

With `JUDGE_TEST_KILL_BEFORE_QUEUE=folder` in its environment, the inbox worker kills itself
(SIGKILL) the first time it is about to put a processed mail's replies in the outbox: the game
written, no reply queued, the mail still claimed. The replies it was about to queue are left in
`folder` (1.eml, 2.eml...).

With `JUDGE_TEST_KILL_AFTER_JOURNAL=1`, the worker kills itself (SIGKILL) as soon as the first
change's journal is written: the change's commit point passed, nothing of it carried out yet.
"""
from __future__ import annotations

import asyncio
import os
import sys
from datetime import datetime
from pathlib import Path


def slowed(seconds: float) -> None:
    """The game's processing (by hand and by the tick) made slow, under the game's lock."""
    import time

    from judge.app import tick
    from judge.app import master

    def slow(real):
        def wrapper(*args, **kwargs):
            print(f"inside {args[0].name}", flush=True)
            time.sleep(seconds)
            return real(*args, **kwargs)
        return wrapper
    tick.on_tick = slow(tick.on_tick)
    master.on_process = slow(master.on_process)


def killed_before_queue(folder: Path) -> None:
    """The inbox worker's outbox put made a SIGKILL of the worker itself, the first time."""
    import signal

    from judge.runtime.daemon import Daemon

    def queue(self, messages):
        folder.mkdir(parents=True, exist_ok=True)
        for number, message in enumerate(messages or (), 1):
            (folder / f"{number}.eml").write_bytes(bytes(message))
        os.kill(os.getpid(), signal.SIGKILL)
    Daemon.queue = queue  # type: ignore[method-assign]


def killed_after_journal() -> None:
    """The journal's write made a SIGKILL of the worker itself, once the entry is on disk."""
    import signal

    from judge.runtime import journal

    real = journal.write

    def write(*args, **kwargs):
        real(*args, **kwargs)
        os.kill(os.getpid(), signal.SIGKILL)
    journal.write = write  # type: ignore[assignment]


def main(kind: str, config_path: str, now_text: str) -> int:
    from judge.runtime.config import load_config
    from judge.runtime.cycle import cycle_tick, queue
    from judge.runtime.daemon import Daemon
    from judge.runtime.master_shell import run_as_master

    config = load_config(Path(config_path))
    if os.environ.get("JUDGE_TEST_SLOW"):
        slowed(float(os.environ["JUDGE_TEST_SLOW"]))
    if os.environ.get("JUDGE_TEST_KILL_BEFORE_QUEUE"):
        killed_before_queue(Path(os.environ["JUDGE_TEST_KILL_BEFORE_QUEUE"]))
    if os.environ.get("JUDGE_TEST_KILL_AFTER_JOURNAL"):
        killed_after_journal()
    now = datetime.fromisoformat(now_text)
    tick = cycle_tick(config) if kind == "tick" else None
    daemon = Daemon(config, clock=lambda: now) if kind == "mail" else None
    print("ready", flush=True)
    if sys.stdin.readline().strip() != "go":
        return 2
    if kind == "process":
        run_as_master(config, "g", "PROCESS!", now)
    elif kind == "tick":
        assert tick is not None
        queue(config, tick(now))
    else:
        assert daemon is not None

        async def work() -> None:
            daemon.recover()
            for item in daemon.spools.inbox.waiting():
                await daemon.process(item)
        asyncio.run(work())
    print("done", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
