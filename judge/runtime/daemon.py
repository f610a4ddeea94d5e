"""`judge serve`: one asyncio loop holding the inbox worker, the IMAP poller, the twenty-minute
scheduler and the outbox sender, and supervising the SMTP gateway, which runs in a child process
of its own (`judge.runtime.gateway_process`) on sockets bound here, so that no work on mail can
keep it from answering; its `stored` line on a pipe wakes the inbox worker.

The game logic comes in through two callables, never called at the same time as each other:
- `handle_mail(raw, now) -> list[EmailMessage]`: one spooled mail (with the `Return-Path:` and
  `X-Original-To:` lines the gateway put in front) in, the mails to send out; by default the
  command layer (`judge.runtime.inbox.MailHandler`), which never answers robots. It runs in a
  worker thread, in arrival order, except that a sender whose mail cost more than his CPU share in
  the last hour waits behind everyone else's (`judge.runtime.fair_share`). If it raises for want of
  a resource (a disk full, memory, a lock: `judge.errors.resource_failure`), the mail is put back
  as it was and the inbox rests, 1 s at first, doubling to 10 minutes, until that mail goes
  through: nothing accepted is given up on, and nothing overtakes it. Any other failure is the
  mail's own: it is tried again a second later, and the third such failure moves it to
  `inbox/bad/`; the judgekeeper is told of each mail there once, as soon as his alert can be queued
  (`Spool.untold`). After a crash, or a failure once the mail was handled, the mail is processed
  again, so it must be idempotent; the outbox takes each Message-ID once, so mails with
  deterministic Message-IDs (`envelope.envelopes(key=...)`) are never sent twice.
- `tick(now) -> list[EmailMessage] | None`: at :00, :20 and :40 UTC; by default the deadline cycle
  over every game (`judge.runtime.cycle.cycle_tick`, the same as `judge check`). The inbox is worked
  through first, resting or not: mail accepted before a deadline is carried out before it.
  Between two games the default tick opens, the mail waiting meanwhile is handled on the tick's
  turn (the tick waits for it; every quarter of a second at most), so that a tick that reads every
  game, after an upgrade or an outage, does not hold the mail for minutes.
The mails either returns are put into the outbox before the mail counts as done; those of a tick
the outbox cannot take yet are kept and queued when the inbox is next worked through.

The game's web pages, when `[web] enabled`, are an ASGI application made by `pages` (the command
line hands in `judge.web`'s: the runtime does not know the pages), served by uvicorn on the same
loop. Their forms take the daemon's work lock as a mail does, so they take their turn with the
inbox and the tick. A web port that cannot be bound is logged and the judge serves mail without
its pages: mail is the judge's first door.

SIGTERM (or SIGINT) stops accepting mail, finishes the mail and the tick in hand, and exits 0. Under
systemd (`Type=notify`) READY=1 is sent once the gateway's process listens, STOPPING=1 when it
stops. A gateway process that dies is started again (the port stays bound meanwhile).
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import socket
import time
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from typing import Any

from apscheduler.events import EVENT_JOB_ERROR, EVENT_JOB_MISSED, JobExecutionEvent
from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.cron import CronTrigger
from apscheduler.triggers.interval import IntervalTrigger
import uvicorn

from judge.commands.session import Settings
from judge.runtime.config import Config, JudgeSection
from judge.runtime.cycle import cycle_tick
from judge.runtime.heap import Spacing
from judge.runtime.disk_watch import DiskWatch
from judge.runtime.fair_share import FairShare
from judge.errors import resource_failure
from judge.runtime.game_files import IndexReader
from judge.runtime.journal import prune_receipts
from judge.runtime.sender_history import HISTORY_FOLDER, ReplyHistory, created_games
from judge.runtime.inbox import MailHandler as CommandMailHandler
from judge.runtime.imap import ImapPoller
from judge.runtime.gateway_process import GatewayProcess, Settings as GatewaySettings, \
    listening_sockets
from judge.mailout.envelope import envelopes
from judge.mailout.notices.keeper import inbox_alert
from judge.mailout.render import environment
from judge.runtime.outbox import Backoff, OutboxSender, wait_any
from judge.runtime.picture_process import PictureWorker
from judge.runtime.pictures import encoder
from judge.runtime.sdnotify import sd_notify
from judge.runtime.spool import Item, open_spools, outbox_entries, queue_mails
from judge.runtime.store import GameStore, symlinked_root

log = logging.getLogger("judge.daemon")

MailHandler = Callable[[bytes, datetime], Iterable[EmailMessage]]
Tick = Callable[[datetime], "Iterable[EmailMessage] | None"]
Pages = Callable[["Daemon"], Any]  # the daemon -> the web pages' ASGI application

TICK_MINUTES = "0,20,40"
MISFIRE_GRACE_SECONDS = 15 * 60  # a tick that starts late still runs (APScheduler's default is 1 s)
KEEP_DONE = timedelta(days=30)  # done mails kept for audit, the outbox's memory of ids, receipts
RETRY_SECONDS = 1.0  # a mail whose processing failed is tried again this much later
REST_SECONDS = (1.0, 600.0)  # after a resource failure the inbox rests: first, doubling to cap
INBOX_POLL_SECONDS = 5.0  # also picks up mail spooled by other processes (`judge mail`)
BATCH = 50  # mails handled before their replies are queued and they are done, at most
MAIL_DURING_TICK_SECONDS = 0.25  # a tick looks this often, between two games, for mail waiting


def utc_now() -> datetime:
    return datetime.now(UTC)


def bad_mail_alert(judge: JudgeSection, item: Item, error: str, now: datetime
                   ) -> list[EmailMessage]:
    """Tell the judgekeeper a mail went to inbox/bad/ (templates/mail_not_processed.txt); an
    empty `error`: not recorded (the disk was full, and the judge restarted since)."""
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


class WebServer(uvicorn.Server):
    """uvicorn, leaving the signals to the daemon, which stops it with the rest."""

    @contextlib.contextmanager
    def capture_signals(self) -> Any:
        yield


class Daemon:
    def __init__(self, config: Config, handle_mail: MailHandler | None = None,
                 tick: Tick | None = None, clock: Callable[[], datetime] = utc_now,
                 tick_trigger: Any = None, sender_options: dict[str, Any] | None = None,
                 monotonic: Callable[[], float] = time.monotonic, pages: Pages | None = None):
        self.config = config
        self.pages = pages
        self.web: WebServer | None = None
        self.web_task: asyncio.Task | None = None
        games_index = IndexReader()  # DPjudge's, parsed once for the mails and the ticks
        self.handle_mail = handle_mail or CommandMailHandler(config, games_index=games_index)
        self.tick = tick or cycle_tick(config, games_index, between=self.mail_during_tick)
        self.clock = clock
        self.tick_trigger = tick_trigger
        self.sender_options = sender_options or {}
        self.spools = open_spools(config)
        self.stop = asyncio.Event()
        self.inbox_wake = asyncio.Event()
        self.outbox_wake = asyncio.Event()
        self.work = asyncio.Lock()  # handle_mail and tick never run at the same time
        self.monotonic = monotonic
        self.rest = Backoff(*REST_SECONDS)
        self.resting_until = 0.0  # `monotonic` time before which the inbox is not worked through
        self.rests = 0  # resource failures met so far: a pass stops at a new one
        self.errors: dict[str, str] = {}  # why a mail went to inbox/bad/ when the disk kept no reason
        self.heap = Spacing()  # the memory the mail's threads freed, given back now and then
        self.stranded: list[Item] = []  # claimed mails that could not be put back yet
        self.unqueued: list[EmailMessage] = []  # a tick's mails the outbox could not take yet
        self.tick_task: asyncio.Task | None = None
        self.loop: asyncio.AbstractEventLoop | None = None  # the tick's thread hands mail to it
        self.next_look = 0.0  # `monotonic` time before which the tick does not look for mail
        self.disk = DiskWatch(config.judge, clock)
        self.fair = FairShare(config.paths.spool, config.limits.cpu_seconds_per_sender_per_hour,
                              self.spools.inbox.read)
        self.listener: list[socket.socket] = []  # the gateway's sockets, bound by the daemon
        self.gateway: GatewayProcess | None = None

    # -- the whole life ------------------------------------------------------------------------
    async def run(self) -> int:
        loop = self.loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, self.stop.set)
        self.recover()
        gateway = await self.start_gateway()
        if gateway is None:
            return 1
        tasks = [gateway, *self.start_workers()]
        await self.start_web()
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
        if not self.listener:
            return "?"
        host, port = self.listener[0].getsockname()[:2]
        return f"{host}:{port}"

    async def start_gateway(self) -> asyncio.Task | None:
        """The SMTP gateway's process (`judge.runtime.gateway_process`) on sockets bound here,
        running once it listens; None (logged) when it cannot."""
        listen = self.config.smtp_in
        try:
            self.listener = listening_sockets(listen.host, listen.port)
        except OSError as exc:
            log.error("cannot listen on %s:%s: %s", listen.host, listen.port, exc)
            return None
        settings = GatewaySettings(fds=tuple(sock.fileno() for sock in self.listener),
                                   inbox=str(self.spools.inbox.root),
                                   address=self.config.judge.address,
                                   domain=self.config.judge.domain, max_bytes=listen.max_bytes,
                                   log_level=logging.getLogger().getEffectiveLevel())
        self.gateway = GatewayProcess(settings, stored=self.spooled, refused=self.not_spooled)
        task = asyncio.create_task(self.gateway.run(self.stop), name="gateway")
        if await self.gateway.started(task):
            return task
        self.close_listener()
        return None

    def close_listener(self) -> None:
        for sock in self.listener:
            sock.close()

    async def start_web(self) -> None:
        """Serve the pages on `[web] host` and `port`, if enabled; a port that cannot be bound
        leaves the judge serving mail (logged)."""
        web = self.config.web
        if self.pages is None or not web.enabled:
            return
        try:
            sock = socket.create_server((web.host, web.port), reuse_port=False)
        except OSError as exc:
            log.error("the web pages are not served: cannot listen on %s:%s: %s", web.host,
                      web.port, exc)
            return
        self.web = WebServer(uvicorn.Config(self.pages(self), lifespan="off", log_config=None,
                                            access_log=False))
        self.web_task = asyncio.create_task(self.web.serve(sockets=[sock]), name="web")
        log.info("web pages on http://%s:%s", *sock.getsockname()[:2])

    def recover(self) -> None:
        for spool in (self.spools.inbox, self.spools.outbox):
            for item in spool.recover():
                log.warning("recovered %s after a crash (failures: %d)", item.path, item.failures)
        for tmp in GameStore(self.config.paths.games).remove_stale_tmp(time.time()):
            log.warning("removed %s, left by a crash", tmp)
        self.prune()

    def start_workers(self) -> list[asyncio.Task]:
        tasks = [asyncio.create_task(self.inbox_worker(), name="inbox")]
        if self.config.smtp_out.host:
            limits, worker = self.config.limits, PictureWorker()  # one child, kept between batches
            options = {"pictures": lambda: encoder(limits, worker), **self.sender_options}
            sender = OutboxSender(self.spools.outbox, self.config.smtp_out, self.config.judge,
                                  clock=self.clock, **options)
            tasks.append(asyncio.create_task(sender.run(self.stop, self.outbox_wake),
                                             name="outbox"))
        if self.config.imap.host:
            poller = ImapPoller(self.config.imap, self.spools.inbox, stored=self.inbox_wake.set)
            tasks.append(asyncio.create_task(poller.run(self.stop), name="imap"))
        return tasks

    async def shutdown(self, scheduler: AsyncIOScheduler, tasks: list[asyncio.Task]) -> None:
        # the gateway's process stops on `stop` by itself: no new mail, the mail in hand stored
        scheduler.shutdown(wait=False)
        if self.web is not None and self.web_task is not None:
            self.web.should_exit = True
            await asyncio.gather(self.web_task, return_exceptions=True)
        if self.tick_task is not None:
            await self.tick_task  # shielded from the scheduler's cancelling
        await asyncio.gather(*tasks, return_exceptions=True)
        self.close_listener()

    # -- the inbox worker ------------------------------------------------------------------------
    async def inbox_worker(self) -> None:
        while not self.stop.is_set():
            self.inbox_wake.clear()
            wait = await self.inbox_pass()
            await wait_any(self.stop, self.inbox_wake, wait)

    async def inbox_pass(self, force: bool = False) -> float:
        """Work through the waiting mail, in arrival order but a sender over his CPU share last
        (`judge.runtime.fair_share`), unless the inbox rests after a resource failure (`force`:
        even so); then tell the judgekeeper of new bad mail. The seconds until
        the next pass is due: a new mail wakes the worker sooner, but a resting inbox waits."""
        if not force and self.resting():
            return self.resting_until - self.monotonic()
        rests = self.rests
        try:
            async with self.work:
                await asyncio.to_thread(self.put_back_stranded)
            waiting = await asyncio.to_thread(self.spools.inbox.waiting)
            taken: set[str] = set()  # a mail put back to be tried again waits for a later pass
            # as many mails as waited: a steady flood does not keep the alerts below waiting
            while len(taken) < len(waiting) and not self.stop.is_set() and self.rests == rests:
                batch = await asyncio.to_thread(self.next_batch, taken)
                if not batch:
                    break
                taken.update(item.id for item in await self.process_batch(batch))
            if taken:
                self.heap.after_work(self.monotonic())  # what the threads that handled them freed
            if self.disk.since is not None:  # every mail waiting is delayed with the one refused
                self.disk.held.update(item.id for item in waiting)
            if self.rests == rests:
                async with self.work:
                    if await asyncio.to_thread(self.catch_up):
                        self.disk.wrote()  # what the disk had refused went through
                        self.outbox_wake.set()
        except Exception as exc:  # the spool itself failing: keep going, later
            if resource_failure(exc):
                self.disk.refused(exc)
                self.rest_after(exc)
            else:
                log.exception("inbox worker: cannot work through the inbox now")
        async with self.work:
            if await asyncio.to_thread(self.tell_disk):
                self.outbox_wake.set()
        return self.resting_until - self.monotonic() if self.resting() else INBOX_POLL_SECONDS

    def next_batch(self, taken: set[str]) -> list[Item]:
        """The mails to handle next, ordered afresh each time: a sender gone over his share
        meanwhile waits behind mail that came after his."""
        waiting = [item for item in self.spools.inbox.waiting() if item.id not in taken]
        return self.fair.order(waiting, self.clock())[:BATCH]

    def resting(self) -> bool:
        return self.monotonic() < self.resting_until

    def rest_after(self, exc: BaseException) -> None:
        """A resource failure: no mail is tried until the rest is over (the next one longer)."""
        delay = self.rest.next_delay()
        self.resting_until = self.monotonic() + delay
        self.rests += 1
        log.warning("the inbox waits %.0f s: %r", delay, exc)

    async def process(self, item: Item) -> None:
        """One mail: claimed, handled, its mails queued, done."""
        await self.process_batch([item])

    async def process_batch(self, items: Sequence[Item]) -> list[Item]:
        """Mails in arrival order, each claimed and handled in turn; then the mails they call for
        are queued, and they are moved to done/, each of these two steps made durable once for
        the whole batch. A crash before the end leaves the handled mails claimed: recovered, they
        are answered from their receipts. A mail whose handling fails is tried again later (see
        `failed`): after a resource failure the rest of the batch waits with it (arrival order);
        after another, the others go on. Mails that cannot be queued or moved to done/ are put
        back the same way: handled again, they are answered from their receipts, and the outbox
        takes each of their mails once. The batch ends early at a mail whose sender went over
        his CPU share (it waits for the next, ordered afresh). The mails taken."""
        async with self.work:
            return await self.handle_batch(items)

    async def handle_batch(self, items: Sequence[Item]) -> list[Item]:
        """`process_batch`, the work lock held already (by this pass, or by the tick whose turn
        it is)."""
        inbox = self.spools.inbox
        handled: list[tuple[Item, list[EmailMessage]]] = []
        rests = self.rests
        taken: list[Item] = []
        for n, item in enumerate(items):
            if n and (self.stop.is_set() or self.rests != rests
                      or await asyncio.to_thread(self.fair.waits, item, self.clock())):
                break
            taken.append(item)
            claimed, replies, exc = await asyncio.to_thread(self.handle_item, item)
            if claimed is None:
                continue
            if exc is not None:
                self.failed([claimed], exc)
            else:
                handled.append((claimed, replies))
        if not handled:
            return taken
        try:
            await asyncio.to_thread(self.queue, [m for _, mails in handled for m in mails])
            await asyncio.to_thread(inbox.done_many, [claimed for claimed, _ in handled])
        except Exception as exc:
            log.exception("queueing the mails of %d mails processed failed", len(handled))
            self.failed([claimed for claimed, _ in handled], exc)
            return taken
        if self.rests == rests:  # the resource is back
            self.rest.reset()
            self.resting_until = 0.0
            self.disk.wrote()
        self.outbox_wake.set()
        return taken

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
            if resource_failure(exc):
                log.warning("processing mail %s failed for want of a resource: %r", claimed.id,
                            exc)
            else:
                log.exception("processing mail %s failed", claimed.id)
            return claimed, [], exc

    def failed(self, items: Sequence[Item], exc: Exception) -> None:
        """Processing the claimed `items` failed. For want of a resource: put back as they were,
        and the inbox rests. Else: each tried again a second later, or (the third time) in bad/,
        for the keeper to be told. A mail that cannot be moved now is put back when it can."""
        inbox = self.spools.inbox
        resource = resource_failure(exc)
        self.disk.refused(exc, held=[claimed.id for claimed in items])
        for claimed in items:
            try:
                if not resource and claimed.failures + 1 >= inbox.max_failures:
                    self.errors[claimed.id] = repr(exc)
                moved = inbox.release(claimed) if resource else inbox.retry(claimed, repr(exc))
            except FileNotFoundError:
                continue  # done after all: moved to done/ before a batch's move was cut short
            except Exception:
                log.exception("mail %s cannot be put back now", claimed.id)
                self.stranded.append(claimed)
                resource = True
                continue
            if moved.path.parent == inbox.bad_dir:
                log.error("mail %s moved to %s", claimed.id, moved.path)
        if resource:
            self.rest_after(exc)
        else:
            asyncio.get_running_loop().call_later(RETRY_SECONDS, self.inbox_wake.set)

    def put_back_stranded(self) -> None:
        """The claimed mails a failure kept from being put back, put back now (uncounted); one
        that cannot be for another reason waits, claimed, for the judge's next start."""
        while self.stranded:
            try:
                self.spools.inbox.release(self.stranded[0])
            except FileNotFoundError:
                pass
            except Exception as exc:
                if resource_failure(exc):
                    raise
                log.exception("mail %s left claimed until the judge starts again",
                              self.stranded[0].id)
            self.stranded.pop(0)

    def catch_up(self) -> bool:
        """Queue what the outbox could not take before: a tick's mails, and the judgekeeper's
        alerts about mail in inbox/bad/ he has not been told of (also mail `judge mail` put
        there, and any the judge had not told him of when it stopped). Whether any was."""
        queued = bool(self.unqueued)
        if self.unqueued:
            self.queue(self.unqueued)
            self.unqueued = []
        inbox = self.spools.inbox
        for item in inbox.untold():
            queued = True
            try:
                why = inbox.reason_of(item) or self.errors.get(item.id, "")
                self.queue(bad_mail_alert(self.config.judge, item, why, self.clock()))
            except Exception as exc:
                if resource_failure(exc):
                    raise
                log.exception("the judgekeeper cannot be told of %s by mail", item.path)
            inbox.told(item)
            self.errors.pop(item.id, None)
        return queued

    def tell_disk(self) -> bool:
        """Queue the judgekeeper's alerts about the disk refusing writes, or taking them again,
        when the outbox takes them (else at a later pass). Whether any was."""
        alerts = self.disk.pending()
        if not alerts:
            return False
        try:
            self.queue(alerts)
        except Exception as exc:
            if resource_failure(exc):
                return False
            log.exception("the judgekeeper cannot be told of the disk by mail")
        self.disk.queued()
        return True

    def spooled(self) -> None:
        """The gateway stored a mail: the disk takes writes (unless the inbox still rests)."""
        if not self.resting():
            self.disk.wrote(gateway=True)
        self.inbox_wake.set()

    def not_spooled(self, exc: OSError) -> None:
        """The gateway could not store a mail (it answered 451)."""
        if self.disk.refused(exc, gateway=True):
            self.inbox_wake.set()  # the judgekeeper's alert, if the outbox can take it

    def queue(self, messages: Iterable[EmailMessage] | None) -> None:
        """Put the mails in the outbox, durable together (one that is there already is not put
        twice)."""
        queue_mails(self.spools.outbox, outbox_entries(messages or ()))

    # -- the scheduler's jobs ----------------------------------------------------------------------
    async def tick_job(self) -> None:
        if self.tick_task is None or self.tick_task.done():
            self.tick_task = asyncio.ensure_future(self.run_tick())
        await asyncio.shield(self.tick_task)

    async def run_tick(self) -> None:
        await self.inbox_pass(force=True)
        async with self.work:
            now = self.clock()
            self.next_look = self.monotonic() + MAIL_DURING_TICK_SECONDS
            mails: Iterable[EmailMessage] | None = None
            try:
                mails = await asyncio.to_thread(self.tick, now)
                await asyncio.to_thread(self.queue, mails)
            except Exception as exc:
                log.exception("the tick at %s failed", now.isoformat(timespec="seconds"))
                self.disk.refused(exc)
                if mails is not None and resource_failure(exc):
                    self.unqueued += list(mails)
        self.outbox_wake.set()

    def mail_during_tick(self) -> None:
        """In the tick's thread, between two games it opens (holding no game's lock): one batch
        of the mail waiting is handled on the loop, on the tick's turn under the work lock,
        while the tick waits, so that mail and tick still never run at the same time; looked
        for every `MAIL_DURING_TICK_SECONDS` at most."""
        if self.loop is None or self.monotonic() < self.next_look:
            return
        asyncio.run_coroutine_threadsafe(self.mail_meanwhile(), self.loop).result()
        self.next_look = self.monotonic() + MAIL_DURING_TICK_SECONDS

    async def mail_meanwhile(self) -> None:
        """One batch of the waiting mail, the work lock held by the tick; a failure is the
        inbox's (it rests after a resource failure), never the tick's."""
        if self.stop.is_set() or self.resting():
            return
        try:
            batch = await asyncio.to_thread(self.next_batch, set())
            if batch:
                await self.handle_batch(batch)
        except Exception as exc:
            if resource_failure(exc):
                self.disk.refused(exc)
                self.rest_after(exc)
            else:
                log.exception("inbox worker: cannot work through the inbox during the tick")

    def prune(self) -> None:
        before = self.clock() - KEEP_DONE
        for spool in (self.spools.inbox, self.spools.outbox):
            spool.prune(int(before.timestamp() * 1e9))
        prune_receipts(self.config.paths.games, before.timestamp())
        ReplyHistory(self.config.paths.spool / HISTORY_FOLDER,
                     Settings.from_config(self.config)).prune(self.clock())
        self.fair.use.prune(self.clock())
        created_games(self.config.paths.games).prune(self.clock())


def serve(config: Config, handle_mail: MailHandler | None = None, tick: Tick | None = None,
          pages: Pages | None = None) -> int:
    """The `judge serve` entry point: run until SIGTERM; 0 on a clean stop, 1 if it cannot start.
    By default mail goes through the command layer and the tick runs the deadline cycle."""
    async def main() -> int:
        return await Daemon(config, handle_mail, tick, pages=pages).run()
    return asyncio.run(main())
