"""A daemon whose mail handling is slow, so that a test can kill it with mail still queued.

Run as `python slow_serve.py CONFIG SECONDS`: the default handler (the command layer), `SECONDS`
slower.
"""
from __future__ import annotations

import asyncio
import logging
import sys
import time

from judge.runtime.config import load_config
from judge.runtime.daemon import Daemon
from judge.runtime.inbox import MailHandler


def main() -> int:
    config = load_config(sys.argv[1])
    delay = float(sys.argv[2])
    answer = MailHandler(config)

    def slow(raw: bytes, now):
        time.sleep(delay)
        return answer(raw, now)
    logging.basicConfig(stream=sys.stdout, level=logging.INFO)
    return asyncio.run(Daemon(config, handle_mail=slow).run())


if __name__ == "__main__":
    sys.exit(main())
