"""Nothing accepted is ever lost when the disk fills: a mail answered `250` waits (uncounted, with
a growing rest) until there is room, then is answered once; only a mail failing for its own
content goes to inbox/bad/, and the judgekeeper hears of it once, when his alert can be written.

The full disk is injected (`os.fsync` fails with ENOSPC: every write the judge needs kept goes
through it, and a write whose fsync fails is a write the disk refused), and, where the test may
mount one, real: a small tmpfs filled to the brim."""
from __future__ import annotations

import asyncio
import errno
import os
import shutil
import stat
import subprocess
from collections import Counter
from collections.abc import Callable, Iterator
from email import message_from_bytes, policy
from pathlib import Path

import pytest

from judge.runtime.config import Config
from judge.runtime.daemon import REST_SECONDS, Daemon
from judge.errors import resource_failure
from judge.runtime.inbox import MailHandler
from judge.runtime.spool import MAX_FAILURES, Spool
from judge.status import parse_status
from judge.runtime.store import GameStore
from tests.support.faults import (
    NOW,
    copy_judge,
    mail,
    make_judge,
    outbox_mails,
    player,
    power_of,
)

pytestmark = pytest.mark.security

ENOSPC = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


class Disk:
    """`os.fsync` of a file as a disk that is full from its `full_at`-th sync on, until `free()`
    (a folder's sync still works: a rename takes no room, and the names are on disk by then)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, full_at: int | None = 1):
        self.syncs = 0
        self.full_at = full_at
        real = os.fsync

        def fsync(fd: int) -> None:
            if not stat.S_ISDIR(os.fstat(fd).st_mode):
                self.syncs += 1
                if self.full_at is not None and self.syncs >= self.full_at:
                    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            real(fd)
        monkeypatch.setattr(os, "fsync", fsync)

    def free(self) -> None:
        self.full_at = None


class Clock:
    """The daemon's monotonic clock, moved by the test."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Counting:
    """The command layer, counting the mails handed to it; a mail with BUG in it is one that sets
    off a bug (its content's failure)."""

    def __init__(self, config: Config):
        self.real = MailHandler(config)
        self.calls = 0

    def __call__(self, raw, now):
        self.calls += 1
        if b"BUG" in raw:
            raise RuntimeError("a bug this mail sets off")
        return self.real(raw, now)


@pytest.fixture(scope="module")
def judge_template(tmp_path_factory) -> Path:
    """A judge holding game `g` (seven players) and, in its inbox, a player's orders, press to
    one power, a stranger's LIST and a player's broadcast; made once, copied by each test."""
    root = tmp_path_factory.mktemp("diskfull") / "judge"
    config = make_judge(root, "mail")
    store = GameStore(config.paths.games)
    _, initial = power_of(store, "g", 2)
    Spool(config.paths.spool / "inbox").put(mail(
        player(2).email, f"SIGNON {initial}g pw2\nBROADCAST\nHello, everyone.\nENDBROADCAST", 4))
    return root


def a_judge(template: Path, target: Path) -> Config:
    return copy_judge(template, target)


def passes(daemon: Daemon, *, force: bool = False) -> float:
    return asyncio.run(daemon.inbox_pass(force=force))


def tmp_files(root: Path) -> list[Path]:
    return [p for p in root.rglob("*.tmp")]


def answered_once(config: Config) -> None:
    """Every accepted mail carried out and answered once: each of the four mails done, a reply to
    each sender who is answered, the press and the broadcast mailed, the orders on file, nothing
    in bad/ or left claimed, no mail twice, no temporary file anywhere."""
    inbox = Spool(config.paths.spool / "inbox", bad="bad")
    assert inbox.waiting() == inbox.claimed() == inbox.failed() == []
    assert len(inbox.finished()) == 4
    mails = outbox_mails(config)
    ids = Counter(message_id for message_id, *_ in mails)
    assert all(count == 1 for count in ids.values()), ids
    to = Counter(recipient for _, recipient, _, _ in mails)
    for n in (0, 1, 2):
        assert to[player(n).email] >= 1, f"player {n} had no answer"
    assert to["someone@players.test"] == 1  # the LIST
    bodies = [body for *_, body in mails]
    assert sum("Hello, everyone." in body for body in bodies) >= 6  # every other power
    assert any("Meet" in body or "Hello from" in body for body in bodies)  # the press
    store = GameStore(config.paths.games)
    power, _ = power_of(store, "g", 0)
    with store.locked("g") as game:
        assert parse_status(game.read_status()).power(power).orders  # the orders kept
    assert tmp_files(Path(config.source).parent) == []


def test_the_failures_of_the_machine_are_told_from_the_failures_of_a_mail():
    for number in (errno.ENOSPC, errno.EDQUOT, errno.ENOMEM, errno.EMFILE, errno.ENFILE,
                   errno.EAGAIN, errno.EROFS, errno.ENOLCK):
        assert resource_failure(OSError(number, os.strerror(number)))
    assert resource_failure(MemoryError()) and resource_failure(TimeoutError())
    for error in (OSError(errno.EACCES, "denied"), OSError(errno.ELOOP, "a symlink"),
                  FileNotFoundError(2, "gone"), ValueError("bad"), RuntimeError("bug"),
                  RecursionError()):
        assert not resource_failure(error)
    try:
        try:
            raise ENOSPC
        except OSError as exc:
            raise RuntimeError("could not save the game") from exc
    except RuntimeError as wrapped:
        assert resource_failure(wrapped)  # what it was raised from decides


def test_a_full_disk_holds_accepted_mail_until_space_returns_then_each_is_answered_once(
        judge_template, tmp_path, monkeypatch):
    config = a_judge(judge_template, tmp_path / "judge")
    clock, handler = Clock(), Counting(config)
    daemon = Daemon(config, handle_mail=handler, clock=lambda: NOW, monotonic=clock)
    inbox = daemon.spools.inbox
    disk = Disk(monkeypatch)
    rests = []
    for _ in range(MAX_FAILURES + 3):  # more tries than a mail's own failures may have
        calls = handler.calls
        rests.append(passes(daemon))
        assert handler.calls == calls + 1  # the first mail only: the others keep their turn
        assert passes(daemon) == rests[-1] and handler.calls == calls + 1  # resting: no spin
        assert [item.failures for item in inbox.waiting()] == [0, 0, 0, 0]
        assert inbox.failed() == inbox.claimed() == [] and outbox_mails(config) == []
        assert tmp_files(tmp_path) == []
        clock.now += rests[-1]
    assert rests == [REST_SECONDS[0] * 2 ** n for n in range(len(rests))]
    disk.free()
    assert passes(daemon) > 0
    answered_once(config)
    assert not daemon.resting() and daemon.rest.attempts == 0


def test_a_rest_never_grows_past_its_cap(judge_template, tmp_path, monkeypatch):
    config = a_judge(judge_template, tmp_path / "judge")
    clock = Clock()
    daemon = Daemon(config, clock=lambda: NOW, monotonic=clock)
    Disk(monkeypatch)
    rests = []
    for _ in range(14):
        rests.append(passes(daemon))
        clock.now += rests[-1]
    assert max(rests) == rests[-1] == REST_SECONDS[1]
    assert [item.failures for item in daemon.spools.inbox.waiting()] == [0, 0, 0, 0]


def fsyncs_of_a_clean_run(template: Path, target: Path, monkeypatch) -> int:
    config = a_judge(template, target)
    with monkeypatch.context() as patched:
        disk = Disk(patched, full_at=None)
        passes(Daemon(config, clock=lambda: NOW))
        answered_once(config)
    return disk.syncs


def test_a_disk_filling_at_any_moment_of_the_work_loses_nothing_and_answers_once(
        judge_template, tmp_path, monkeypatch):
    total = fsyncs_of_a_clean_run(judge_template, tmp_path / "clean", monkeypatch)
    for full_at in range(1, total + 1):
        config = a_judge(judge_template, tmp_path / "judge")
        clock = Clock()
        with monkeypatch.context() as patched:
            disk = Disk(patched, full_at=full_at)
            daemon = Daemon(config, clock=lambda: NOW, monotonic=clock)
            for _ in range(3):
                clock.now += passes(daemon)
            assert daemon.spools.inbox.failed() == [], full_at
            assert tmp_files(tmp_path / "judge") == [], full_at
            disk.free()
            passes(daemon)
        answered_once(config)
        restarted = Daemon(config, clock=lambda: NOW)  # and once more after a restart: no more
        restarted.recover()
        before = outbox_mails(config)
        passes(restarted)
        assert outbox_mails(config) == before, full_at


def test_the_tick_works_through_the_inbox_first_even_while_it_rests(judge_template, tmp_path,
                                                                    monkeypatch):
    config = a_judge(judge_template, tmp_path / "judge")
    clock, ticks = Clock(), []
    daemon = Daemon(config, clock=lambda: NOW, monotonic=clock,
                    tick=lambda now: ticks.append(len(daemon.spools.inbox.finished())) or [])
    disk = Disk(monkeypatch)
    passes(daemon)
    assert daemon.resting()
    disk.free()  # room again, during the rest: the deadline's tick must not go first
    asyncio.run(daemon.run_tick())
    assert ticks == [4]
    answered_once(config)


def test_the_mails_of_a_tick_the_outbox_cannot_take_are_queued_once_it_can(judge_template,
                                                                            tmp_path,
                                                                            monkeypatch):
    config = a_judge(judge_template, tmp_path / "judge")
    inbox = Spool(config.paths.spool / "inbox", bad="bad")
    for item in inbox.waiting():
        inbox.done(inbox.claim(item))
    alert = mail("judge@crash.test", "an outage alert for the keeper", 7)
    daemon = Daemon(config, clock=lambda: NOW, monotonic=Clock(),
                    tick=lambda now: [message_from_bytes(alert, policy=policy.default)])
    disk = Disk(monkeypatch)
    asyncio.run(daemon.run_tick())
    assert outbox_mails(config) == []
    disk.free()
    passes(daemon)
    assert sorted(m[2] for m in outbox_mails(config)) == [
        "Judge CRASH: the disk takes writes again", "mail 7"]


def test_the_temporary_files_a_crash_left_in_the_games_go_when_the_judge_starts(judge_template,
                                                                               tmp_path):
    config = a_judge(judge_template, tmp_path / "judge")
    games = Path(config.paths.games)
    left = [games / "g" / ".status.S1901M.4242.1.tmp", games / ".cycle.json.4242.1.tmp"]
    for path in left:
        path.write_bytes(b"half a file")
        os.utime(path, (0, 0))
    Daemon(config, clock=lambda: NOW).recover()
    assert tmp_files(tmp_path) == []


def a_judge_with_a_bad_mail(judge_template, tmp_path) -> tuple[Config, Spool]:
    """A judge whose inbox holds one mail only, one that sets off a bug of the command layer."""
    config = a_judge(judge_template, tmp_path / "judge")
    inbox = Spool(config.paths.spool / "inbox", bad="bad")
    for item in inbox.waiting():
        inbox.done(inbox.claim(item))
    inbox.put(mail("someone@players.test", "LIST g\nBUG", 9))
    return config, inbox


def alerts(config: Config) -> list[tuple[str, str, str, str]]:
    return [m for m in outbox_mails(config) if m[2].endswith("mail not processed")]


def test_a_bad_mail_while_the_disk_is_full_is_parked_and_the_keeper_told_once_space_returns(
        judge_template, tmp_path, monkeypatch):
    config, inbox = a_judge_with_a_bad_mail(judge_template, tmp_path)
    clock, handler = Clock(), Counting(config)
    daemon = Daemon(config, handle_mail=handler, clock=lambda: NOW, monotonic=clock)
    disk = Disk(monkeypatch)
    wait = 0.0
    while not inbox.failed():  # its content fails at once, before it writes anything
        clock.now += wait
        wait = passes(daemon)
    assert handler.calls == MAX_FAILURES
    assert alerts(config) == [] and daemon.resting()  # the alert cannot be written: a rest
    assert tmp_files(tmp_path) == []
    clock.now += wait
    disk.free()
    passes(daemon)
    [alert] = alerts(config)
    assert alert[1] == "keeper@crash.test" and "a bug this mail sets off" in alert[3]
    passes(daemon, force=True)
    Daemon(config, clock=lambda: NOW).recover()
    passes(Daemon(config, clock=lambda: NOW))
    assert len(alerts(config)) == 1 and handler.calls == MAX_FAILURES


def test_the_keeper_is_told_of_a_bad_mail_after_a_restart_when_his_alert_could_not_be_written(
        judge_template, tmp_path, monkeypatch):
    config, inbox = a_judge_with_a_bad_mail(judge_template, tmp_path)
    clock = Clock()
    daemon = Daemon(config, handle_mail=Counting(config), clock=lambda: NOW, monotonic=clock)
    with monkeypatch.context() as patched:
        Disk(patched)
        while not inbox.failed():
            clock.now += passes(daemon)
        passes(daemon, force=True)
    assert alerts(config) == []  # the judge stops before space returns
    restarted = Daemon(config, clock=lambda: NOW)
    restarted.recover()
    passes(restarted)
    passes(restarted, force=True)
    [alert] = alerts(config)
    assert "not known any more" in alert[3] and inbox.failed()[0].path.name in \
        os.listdir(inbox.bad_dir)


# -- a real full disk: a small tmpfs, where the test may mount one -------------------------------
@pytest.fixture
def small_disk(tmp_path) -> Iterator[Path]:
    folder = tmp_path / "small"
    folder.mkdir()
    mounted = shutil.which("mount") and os.geteuid() == 0 and subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=8m,mode=0700", "tmpfs", str(folder)],
        capture_output=True, check=False).returncode == 0
    if not mounted:
        pytest.skip("no tmpfs can be mounted here (not root, or no mount allowed)")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True, check=False)


def fill(folder: Path) -> Callable[[], None]:
    """Fill the file system of `folder` to the last byte; the function that frees it again."""
    filler = folder / "filler"
    with open(filler, "wb", buffering=0) as handle:
        for size in (1 << 20, 1 << 12, 1):
            try:
                while True:
                    handle.write(b"\0" * size)
            except OSError as exc:
                assert exc.errno == errno.ENOSPC
    return filler.unlink


def test_on_a_real_full_disk_accepted_mail_waits_then_is_answered_once(judge_template,
                                                                       small_disk):
    config = a_judge(judge_template, small_disk / "judge")
    clock, handler = Clock(), Counting(config)
    daemon = Daemon(config, handle_mail=handler, clock=lambda: NOW, monotonic=clock)
    free = fill(small_disk)
    for _ in range(MAX_FAILURES + 1):
        clock.now += passes(daemon)
    assert [item.failures for item in daemon.spools.inbox.waiting()] == [0, 0, 0, 0]
    assert daemon.spools.inbox.failed() == [] and tmp_files(small_disk) == []
    free()
    passes(daemon)
    answered_once(config)


class GamesDisk(Disk):
    """`Disk`, for the games' folder only: the spool (the outbox with it) has room."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, games: Path):
        self.syncs, self.full_at = 0, 1
        real = os.fsync

        def fsync(fd: int) -> None:
            path = os.readlink(f"/proc/self/fd/{fd}")
            if not stat.S_ISDIR(os.fstat(fd).st_mode) and path.startswith(str(games)):
                self.syncs += 1
                if self.full_at is not None:
                    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            real(fd)
        monkeypatch.setattr(os, "fsync", fsync)


def disk_alerts(config: Config) -> list[tuple[str, str]]:
    return [(subject, body) for _, to, subject, body in outbox_mails(config)
            if to == "keeper@crash.test" and "disk" in subject]


def rested(daemon: Daemon, clock: Clock, times: int) -> None:
    for _ in range(times):
        clock.now += passes(daemon)


def test_the_keeper_is_told_once_when_the_games_disk_refuses_writes_and_once_when_it_has_room(
        judge_template, tmp_path, monkeypatch):
    config = a_judge(judge_template, tmp_path / "judge")
    clock = Clock()
    daemon = Daemon(config, clock=lambda: NOW, monotonic=clock)
    disk = GamesDisk(monkeypatch, Path(config.paths.games).resolve())
    rested(daemon, clock, 5)
    assert [subject for subject, _ in disk_alerts(config)] == [
        "Judge CRASH: the disk refuses writes"]
    assert "No space left on device" in disk_alerts(config)[0][1]
    disk.free()
    rested(daemon, clock, 2)
    answered_once(config)
    [full, room] = sorted(disk_alerts(config))
    assert room[0] == "Judge CRASH: the disk takes writes again"
    assert "4 mails were delayed" in " ".join(room[1].split())


def test_when_the_spools_disk_is_full_the_keeper_hears_of_it_once_it_has_room(
        judge_template, tmp_path, monkeypatch):
    config = a_judge(judge_template, tmp_path / "judge")
    clock = Clock()
    daemon = Daemon(config, clock=lambda: NOW, monotonic=clock)
    disk = Disk(monkeypatch)
    rested(daemon, clock, 5)
    assert disk_alerts(config) == []  # nothing can be written, the alert neither
    disk.free()
    rested(daemon, clock, 2)
    [(subject, body)] = disk_alerts(config)  # the one alert says it all
    assert subject == "Judge CRASH: the disk takes writes again"
    assert "4 mails were delayed" in " ".join(body.split())


def test_mail_the_gateway_could_not_store_counts_as_delayed(judge_template, tmp_path,
                                                           monkeypatch):
    from aiosmtpd.smtp import Envelope

    from judge.runtime.gateway import CANNOT_STORE, Gateway, accepts_address
    from judge.runtime.gateway_process import STORED, heard, refused_line
    config = a_judge(judge_template, tmp_path / "judge")
    inbox = Spool(config.paths.spool / "inbox", bad="bad")
    for item in inbox.waiting():
        inbox.done(inbox.claim(item))
    daemon = Daemon(config, clock=lambda: NOW, monotonic=Clock())
    # the gateway's process, its lines to the daemon heard as the daemon hears them
    gateway = Gateway(inbox, accepts_address(config.judge), config.smtp_in.max_bytes,
                      stored=lambda: heard(STORED + b"\n", daemon.spooled, daemon.not_spooled),
                      refused=lambda exc: heard(refused_line(exc), daemon.spooled,
                                                daemon.not_spooled))

    def delivered() -> str:
        envelope = Envelope()
        envelope.mail_from, envelope.rcpt_tos = "someone@players.test", ["judge@crash.test"]
        envelope.original_content = mail("someone@players.test", "LIST", 9)
        return asyncio.run(gateway.handle_DATA(None, None, envelope))
    disk = Disk(monkeypatch)
    assert [delivered(), delivered()] == [CANNOT_STORE, CANNOT_STORE]
    disk.free()
    assert delivered().startswith("250")
    passes(daemon)
    [(subject, body)] = disk_alerts(config)
    assert subject == "Judge CRASH: the disk takes writes again"
    assert "2 mails were delayed" in " ".join(body.split())
