"""A daemon whose inbox worker holds the interpreter lock on a long job, so that a test can show
the gateway answering meanwhile.

Run as `python stuck_serve.py CONFIG SECONDS FOLDER`: each mail's handling writes `FOLDER/stuck`,
then keeps the interpreter lock for SECONDS (a C sleep called without releasing it, as a long
computation in C would), then writes `FOLDER/done` and answers nothing.
"""
from __future__ import annotations

import asyncio
import ctypes
import sys
from pathlib import Path

from judge.runtime.config import load_config
from judge.runtime.daemon import Daemon

HOLDING_THE_LOCK = ctypes.PyDLL(None)  # its calls keep the interpreter lock


def main() -> int:
    config = load_config(sys.argv[1])
    seconds, folder = float(sys.argv[2]), Path(sys.argv[3])

    def stuck(raw: bytes, now):
        (folder / "stuck").write_bytes(b"")
        HOLDING_THE_LOCK.usleep(ctypes.c_uint(int(seconds * 1e6)))
        (folder / "done").write_bytes(b"")
        return []
    return asyncio.run(Daemon(config, handle_mail=stuck).run())


if __name__ == "__main__":
    sys.exit(main())
