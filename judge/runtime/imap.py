"""The IMAP poller: for a judge whose mailbox lives at a provider, pulls new mail into the inbox.

Each poll is one fresh session (connect, log in, select, search UNSEEN, fetch `BODY.PEEK[]` so
nothing is marked read before it is on disk, spool, flag `\\Seen`, log out), so a broken connection
is never reused. A failed poll is tried again with exponential backoff. A message is spooled under
the id `imap-<UIDVALIDITY>-<UID>`: if the flag is lost (the connection broke after the spool write),
the next poll finds it again and the spool, which remembers the id, does not take it twice.

TLS: port 993 is implicit TLS; on any other port STARTTLS is required, except on a loopback host.
"""
from __future__ import annotations

import asyncio
import ipaddress
import logging
import ssl
from collections.abc import Callable
from typing import Any

from imapclient import IMAPClient

from judge.runtime.config import ImapSection
from judge.runtime.outbox import Backoff, wait_any
from judge.runtime.spool import Spool

log = logging.getLogger("judge.mailin.imap")

SEEN = b"\\Seen"
IMPLICIT_TLS_PORT = 993
BATCH = 50  # messages fetched per FETCH command


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class ImapPoller:
    def __init__(self, settings: ImapSection, inbox: Spool,
                 stored: Callable[[], None] = lambda: None,
                 client_factory: Callable[..., Any] = IMAPClient, timeout: float = 60.0):
        self.settings = settings
        self.inbox = inbox
        self.stored = stored
        self.client_factory = client_factory
        self.timeout = timeout

    def connect(self) -> Any:
        s = self.settings
        implicit = s.port == IMPLICIT_TLS_PORT
        context = ssl.create_default_context()
        client = self.client_factory(s.host, port=s.port, ssl=implicit, timeout=self.timeout,
                                     **({"ssl_context": context} if implicit else {}))
        try:
            if not implicit and not is_loopback(s.host):
                client.starttls(context)
            client.login(s.user, s.password)
        except Exception:
            shutdown(client)
            raise
        return client

    def poll_once(self) -> int:
        """One session: spool every unseen message, then flag it; how many were new (blocking)."""
        client = self.connect()
        try:
            selected = client.select_folder(self.settings.folder)
            validity = int(selected.get(b"UIDVALIDITY", 0))
            uids = sorted(client.search(["UNSEEN"]))
            new = 0
            for start in range(0, len(uids), BATCH):
                batch = uids[start:start + BATCH]
                fetched = client.fetch(batch, ["BODY.PEEK[]"])
                stored = []
                for uid in batch:
                    raw = fetched.get(uid, {}).get(b"BODY[]")
                    if raw is None:
                        continue  # expunged meanwhile
                    if self.inbox.put(raw, f"imap-{validity}-{uid}") is not None:
                        new += 1
                    stored.append(uid)
                if stored:
                    client.add_flags(stored, [SEEN])
            client.logout()
            return new
        finally:
            shutdown(client)

    async def run(self, stop: asyncio.Event, backoff_base: float = 5.0,
                  backoff_cap: float = 900.0) -> None:
        """Poll every `interval` seconds until `stop`; back off after failures."""
        backoff = Backoff(backoff_base, backoff_cap)
        while not stop.is_set():
            try:
                new = await asyncio.to_thread(self.poll_once)
            except Exception as exc:  # network, TLS, login, protocol: all retried the same way
                delay = backoff.next_delay()
                log.warning("IMAP poll of %s failed (%s: %s); next try in %.0f s",
                            self.settings.host, type(exc).__name__, exc, delay)
            else:
                backoff.reset()
                delay = self.settings.interval
                if new:
                    log.info("IMAP: spooled %d new mail(s)", new)
                    self.stored()
            await wait_any(stop, asyncio.Event(), delay)


def shutdown(client: Any) -> None:
    """Close the socket whatever state the session is in."""
    try:
        client.shutdown()
    except Exception:  # already closed or never opened: nothing left to do
        pass
