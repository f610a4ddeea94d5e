"""systemd's readiness protocol with the standard library: one datagram to `$NOTIFY_SOCKET`."""
from __future__ import annotations

import os
import socket
from collections.abc import Mapping


def sd_notify(message: str, env: Mapping[str, str] | None = None) -> bool:
    """Send `READY=1`, `STOPPING=1`, `STATUS=...`; False when not run by systemd (or it failed)."""
    address = (os.environ if env is None else env).get("NOTIFY_SOCKET", "")
    if not address:
        return False
    if address.startswith("@"):  # an abstract socket
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.sendall(message.encode("utf-8"))
    except OSError:
        return False
    return True
