"""`judge serve`: one asyncio loop holding the SMTP gateway, the inbox worker, the IMAP poller, the
twenty-minute scheduler and the outbox sender.

The game logic comes in through two callables, never called at the same time as each other:
- `handle_mail(raw, now) -> list[EmailMessage]`: one spooled mail (with the `Return-Path:` and
  `X-Original-To:` lines the gateway put in front) in, the mails to send out; by default the
  command layer (`judge.mailin.handler.MailHandler`), which never answers robots. It runs in a
  worker thread, in arrival order. If it raises, the mail is tried again later; the third failure
  moves it to `inbox/bad/` and the judgekeeper is told. After a crash the mail in hand is
  processed again, so it must be idempotent; the outbox takes each Message-ID once, so mails with
  deterministic Message-IDs (`envelope.envelopes(key=...)`) are never sent twice.
- `tick(now) -> list[EmailMessage] | None`: at :00, :20 and :40 UTC; by default the deadline cycle
  over every game (`judge.cycle.cycle_tick`, the same as `judge check`).
The mails either returns are put into the outbox before the mail counts as done.

SIGTERM (or SIGINT) stops accepting mail, finishes the mail and the tick in hand, and exits 0. Under
systemd (`Type=notify`) READY=1 is sent once the gateway listens, STOPPING=1 when it stops.
"""
from __future__ import annotations

import asyncio
import logging
import signal
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from typing import Any

from apscheduler.events import EVENT_JOB_ERROR, EVENT_JOB_MISSED, JobExecutionEvent
from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.cron import CronTrigger
from apscheduler.triggers.interval import IntervalTrigger

from judge.commands.session import Settings
from judge.config import Config, JudgeSection
from judge.cycle import cycle_tick
from judge.game.journal import prune_receipts
from judge.mailin.handler import HISTORY_FOLDER, ReplyHistory
from judge.mailin.handler import MailHandler as CommandMailHandler
from judge.mailin.imap import ImapPoller
from judge.mailin.smtp import Gateway, accepts_address, start_gateway
from judge.mailout.envelope import envelopes, outbox_id
from judge.mailout.mailings import inbox_alert
from judge.mailout.render import environment
from judge.mailout.send import OutboxSender, wait_any
from judge.sdnotify import sd_notify
from judge.spool import Item, Spool
from judge.store import symlinked_root

log = logging.getLogger("judge.daemon")

MailHandler = Callable[[bytes, datetime], Iterable[EmailMessage]]
Tick = Callable[[datetime], "Iterable[EmailMessage] | None"]

TICK_MINUTES = "0,20,40"
MISFIRE_GRACE_SECONDS = 15 * 60  # a tick that starts late still runs (APScheduler's default is 1 s)
KEEP_DONE = timedelta(days=30)  # done mails kept for audit, the outbox's memory of ids, receipts
RETRY_SECONDS = 1.0  # a mail whose processing failed is tried again this much later
INBOX_POLL_SECONDS = 5.0  # also picks up mail spooled by other processes (`judge mail`)
BATCH = 50  # mails handled before their replies are queued and they are done, at most


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class Spools:
    inbox: Spool
    outbox: Spool


def open_spools(config: Config) -> Spools:
    root = config.paths.spool
    return Spools(inbox=Spool(root / "inbox", bad="bad").create(),
                  outbox=Spool(root / "outbox", bad="failed").create())


def bad_mail_alert(judge: JudgeSection, item: Item, error: str, now: datetime
                   ) -> list[EmailMessage]:
    """Tell the judgekeeper a mail went to inbox/bad/ (templates/mail_not_processed.txt)."""
    mailings = inbox_alert(environment(), judge.keeper, judge.id, id=item.id,
                           arrived=item.arrived, folder=str(item.path.parent), error=error)
    return [message for mailing in mailings
            for message in envelopes(judge, mailing, now=now, key=f"alert-inbox-{item.id}")]


def build_scheduler(job: Callable[[], Any], trigger: Any = None) -> AsyncIOScheduler:
    """The tick job: :00, :20, :40 UTC; late ticks still run, missed ones coalesce into one."""
    scheduler = AsyncIOScheduler(timezone=UTC)
    scheduler.add_job(job, trigger or CronTrigger(minute=TICK_MINUTES, timezone=UTC),
                      id="tick", name="deadline tick", replace_existing=True, coalesce=True,
                      max_instances=1, misfire_grace_time=MISFIRE_GRACE_SECONDS)

    def report(event: JobExecutionEvent) -> None:
        if event.code == EVENT_JOB_MISSED:
            log.error("scheduler: %s missed its run at %s", event.job_id, event.scheduled_run_time)
        else:
            log.error("scheduler: %s failed", event.job_id, exc_info=event.exception)
    scheduler.add_listener(report, EVENT_JOB_MISSED | EVENT_JOB_ERROR)
    return scheduler


class Daemon:
    def __init__(self, config: Config, handle_mail: MailHandler | None = None,
                 tick: Tick | None = None, clock: Callable[[], datetime] = utc_now,
                 tick_trigger: Any = None, sender_options: dict[str, Any] | None = None):
        self.config = config
        self.handle_mail = handle_mail or CommandMailHandler(config)
        self.tick = tick or cycle_tick(config)
        self.clock = clock
        self.tick_trigger = tick_trigger
        self.sender_options = sender_options or {}
        self.spools = open_spools(config)
        self.stop = asyncio.Event()
        self.inbox_wake = asyncio.Event()
        self.outbox_wake = asyncio.Event()
        self.work = asyncio.Lock()  # handle_mail and tick never run at the same time
        self.tick_task: asyncio.Task | None = None
        self.gateway = Gateway(self.spools.inbox, accepts_address(config.judge),
                               config.smtp_in.max_bytes, stored=self.inbox_wake.set)
        self.server: asyncio.AbstractServer | None = None

    # -- the whole life ------------------------------------------------------------------------
    async def run(self) -> int:
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, self.stop.set)
        self.recover()
        try:
            self.server = await start_gateway(self.gateway, self.config.smtp_in,
                                              self.config.judge.domain)
        except OSError as exc:
            log.error("cannot listen on %s:%s: %s", self.config.smtp_in.host,
                      self.config.smtp_in.port, exc)
            return 1
        tasks = self.start_workers()
        scheduler = build_scheduler(self.tick_job, self.tick_trigger)
        scheduler.add_job(self.prune, IntervalTrigger(hours=6), id="prune", coalesce=True)
        scheduler.start()
        log.info("judge %s listening on %s; outbox relay %s", self.config.judge.id,
                 self.listening(), f"{self.config.smtp_out.host}:{self.config.smtp_out.port}"
                 if self.config.smtp_out.host else "none (mail waits in the outbox)")
        for folder in (self.config.paths.games, self.config.paths.spool):
            if note := symlinked_root(folder):
                log.info("%s", note)
        sd_notify(f"READY=1\nSTATUS=listening on {self.listening()}")
        await self.stop.wait()
        sd_notify("STOPPING=1")
        log.info("stopping: no new mail, finishing the work in hand")
        await self.shutdown(scheduler, tasks)
        log.info("stopped")
        return 0

    def listening(self) -> str:
        if not self.server or not self.server.sockets:
            return "?"
        host, port = self.server.sockets[0].getsockname()[:2]
        return f"{host}:{port}"

    def recover(self) -> None:
        for spool in (self.spools.inbox, self.spools.outbox):
            for item in spool.recover():
                log.warning("recovered %s after a crash (failures: %d)", item.path, item.failures)
        self.prune()

    def start_workers(self) -> list[asyncio.Task]:
        tasks = [asyncio.create_task(self.inbox_worker(), name="inbox")]
        if self.config.smtp_out.host:
            sender = OutboxSender(self.spools.outbox, self.config.smtp_out, self.config.judge,
                                  clock=self.clock, **self.sender_options)
            tasks.append(asyncio.create_task(sender.run(self.stop, self.outbox_wake),
                                             name="outbox"))
        if self.config.imap.host:
            poller = ImapPoller(self.config.imap, self.spools.inbox, stored=self.inbox_wake.set)
            tasks.append(asyncio.create_task(poller.run(self.stop), name="imap"))
        return tasks

    async def shutdown(self, scheduler: AsyncIOScheduler, tasks: list[asyncio.Task]) -> None:
        self.gateway.closing = True
        if self.server is not None:
            self.server.close()
        scheduler.shutdown(wait=False)
        if self.tick_task is not None:
            await self.tick_task  # shielded from the scheduler's cancelling
        await self.gateway.settled()
        await asyncio.gather(*tasks, return_exceptions=True)

    # -- the inbox worker ------------------------------------------------------------------------
    async def inbox_worker(self) -> None:
        while not self.stop.is_set():
            self.inbox_wake.clear()
            try:
                waiting = await asyncio.to_thread(self.spools.inbox.waiting)
                for start in range(0, len(waiting), BATCH):
                    if self.stop.is_set():
                        break
                    await self.process_batch(waiting[start:start + BATCH])
            except Exception:  # the spool itself failing (disk full...): keep going, later
                log.exception("inbox worker: cannot work through the inbox now")
            await wait_any(self.stop, self.inbox_wake, INBOX_POLL_SECONDS)

    async def process(self, item: Item) -> None:
        """One mail: claimed, handled, its mails queued, done."""
        await self.process_batch([item])

    async def process_batch(self, items: Sequence[Item]) -> None:
        """Mails in arrival order, each claimed and handled in turn; then the mails they call for
        are queued, and they are moved to done/, each of these two steps made durable once for
        the whole batch. A crash before the end leaves the handled mails claimed: recovered, they
        are answered from their receipts. A mail whose handling fails is tried again later (the
        third failure moves it to bad/); the others go on."""
        async with self.work:
            inbox = self.spools.inbox
            handled: list[tuple[Item, list[EmailMessage]]] = []
            for n, item in enumerate(items):
                if n and self.stop.is_set():
                    break
                claimed, replies, exc = await asyncio.to_thread(self.handle_item, item)
                if claimed is None:
                    continue
                if exc is not None:
                    self.failed(claimed, exc)
                else:
                    handled.append((claimed, replies))
            if not handled:
                return
            try:
                await asyncio.to_thread(self.queue, [m for _, mails in handled for m in mails])
            except Exception as exc:
                log.exception("queueing the mails of %d mails processed failed", len(handled))
                for claimed, _ in handled:
                    self.failed(claimed, exc)
                return
            await asyncio.to_thread(inbox.done_many, [claimed for claimed, _ in handled])
        self.outbox_wake.set()

    def handle_item(self, item: Item) -> tuple[Item | None, list[EmailMessage], Exception | None]:
        """Claim, read and handle one mail (in a worker thread, off the gateway's loop): the
        claimed item and its mails, or the error; no item when another worker took it."""
        inbox = self.spools.inbox
        try:
            claimed = inbox.claim(item)
        except FileNotFoundError:
            return None, [], None  # taken by another worker
        try:
            return claimed, list(self.handle_mail(inbox.read(claimed), self.clock()) or ()), None
        except Exception as exc:
            log.exception("processing mail %s failed", claimed.id)
            return claimed, [], exc

    def failed(self, claimed: Item, exc: Exception) -> None:
        """Processing `claimed` failed: tried again later, or in bad/ and the keeper told."""
        inbox = self.spools.inbox
        moved = inbox.retry(claimed)
        asyncio.get_running_loop().call_later(RETRY_SECONDS, self.inbox_wake.set)
        if moved.path.parent == inbox.bad_dir:
            log.error("mail %s moved to %s", claimed.id, moved.path)
            self.queue(bad_mail_alert(self.config.judge, moved, repr(exc), self.clock()))

    def queue(self, messages: Iterable[EmailMessage] | None) -> None:
        """Put the mails in the outbox, durable together (one that is there already is not put
        twice)."""
        mails = list(messages or ())
        if not mails:
            return
        items = self.spools.outbox.put_many([(bytes(m), outbox_id(m)) for m in mails])
        for message, item in zip(mails, items, strict=True):
            if item is None:
                log.info("%s is already in the outbox: not queued twice", message["Message-ID"])

    # -- the scheduler's jobs ----------------------------------------------------------------------
    async def tick_job(self) -> None:
        if self.tick_task is None or self.tick_task.done():
            self.tick_task = asyncio.ensure_future(self.run_tick())
        await asyncio.shield(self.tick_task)

    async def run_tick(self) -> None:
        async with self.work:
            now = self.clock()
            try:
                mails = await asyncio.to_thread(self.tick, now)
                await asyncio.to_thread(self.queue, mails)
            except Exception:
                log.exception("the tick at %s failed", now.isoformat(timespec="seconds"))
        self.outbox_wake.set()

    def prune(self) -> None:
        before = self.clock() - KEEP_DONE
        for spool in (self.spools.inbox, self.spools.outbox):
            spool.prune(int(before.timestamp() * 1e9))
        prune_receipts(self.config.paths.games, before.timestamp())
        ReplyHistory(self.config.paths.spool / HISTORY_FOLDER,
                     Settings.from_config(self.config)).prune(self.clock())


def serve(config: Config, handle_mail: MailHandler | None = None, tick: Tick | None = None) -> int:
    """The `judge serve` entry point: run until SIGTERM; 0 on a clean stop, 1 if it cannot start.
    By default mail goes through the command layer and the tick runs the deadline cycle."""
    async def main() -> int:
        return await Daemon(config, handle_mail, tick).run()
    return asyncio.run(main())
