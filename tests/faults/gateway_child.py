"""The gateway's process (`judge.runtime.gateway_process`) killing itself (SIGKILL) at one point
of storing the first mail, for the tests that no mail is acknowledged before it is durable.

    python gateway_child.py POINT SETTINGS_JSON

- before-sync: the message written and renamed into the inbox, as the folder's fsync begins;
- after-put: the spool has made the message durable, before the gateway answers.
"""
from __future__ import annotations

import os
import signal
import sys

from judge.runtime import spool
from judge.runtime.gateway_process import main

real_sync, real_put = spool.FolderSync.sync, spool.Spool.put


def killed(real):
    def wrapper(*args, **kwargs):
        if real is real_put:
            real(*args, **kwargs)
        os.kill(os.getpid(), signal.SIGKILL)
    return wrapper


if __name__ == "__main__":
    point = sys.argv[1]
    if point == "before-sync":
        spool.FolderSync.sync = killed(real_sync)  # type: ignore[method-assign]
    else:
        spool.Spool.put = killed(real_put)  # type: ignore[method-assign]
    sys.exit(main(sys.argv[2:]))
