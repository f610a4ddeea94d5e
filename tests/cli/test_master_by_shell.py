"""`judge process` and `judge rollback` act as the game's Master would by mail: the same game,
processed or rolled back by the Master's mail in one judge and from the shell in another, ends with
the same status file, snapshots and results archive, and the same mails in the outbox but the reply
to the Master's mail (the shell prints what it did instead; where that reply is all that tells the
Master, as of a rollback, the shell mails him the players' notice)."""
from __future__ import annotations

import re
import shutil
from email.message import EmailMessage
from pathlib import Path

import pytest

from judge.app import master as master_use_case
from judge.app.processing import ProcessingFailed
from judge.cli.games import run_game_command
from judge.cli.main import build_parser
from judge.runtime.inbox import pipe_mail
from judge.status.model import PhaseMode
from judge.types import Phase
from tests.support.cycle import MASTER, Judge
from tests.support.games import DAY, NOW
from tests.support.mail import mail

AT = NOW + DAY
MESSAGE_ID = re.compile(r"<[^<>@\s]+@[^<>\s]+>")  # made of the origin's bytes: differ by way


def judges(tmp_path: Path) -> tuple[Judge, Judge]:
    """Two judges with the same game g1 (its files copied: a password's hash is salted)."""
    made = []
    for name in ("by-mail", "by-shell"):
        (tmp_path / name).mkdir()
        made.append(Judge(tmp_path / name))
    made[0].start("g1", ["RULE NO_PRESS"], NOW)
    shutil.copytree(made[0].root / "games", made[1].root / "games")
    return made[0], made[1]


def by_mail(judge: Judge, *lines: str) -> list[EmailMessage]:
    raw = mail(MASTER, "SIGNON Mg1 pw", *lines, subject="master")
    assert pipe_mail(judge.config, raw, None, AT) == 0
    mails = judge.take_outbox()
    replies = [m for m in mails if str(m["Subject"]).startswith("Re: master")]
    assert len(replies) == 1 and "Signed on as MASTER" in replies[0].get_content()
    return [m for m in mails if m not in replies]


def by_shell(judge: Judge, *words: str) -> tuple[int, list[EmailMessage]]:
    args = build_parser().parse_args([*words, "--config", str(judge.root / "judge.toml")])
    return run_game_command(args, AT), judge.take_outbox()


def seen(mails: list[EmailMessage]) -> list[tuple[str, str, str]]:
    """Each mail as its reader sees it: to, subject, text. (By mail, the Master's own copies are
    answers to his mail, auto-replied in its thread; from the shell they are auto-generated.)"""
    return sorted((str(m["To"]), str(m["Subject"]),
                   MESSAGE_ID.sub("<id>", m.get_body(("plain",)).get_content())) for m in mails)


def files(judge: Judge) -> dict[str, bytes]:
    folder = judge.root / "games" / "g1"
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())
            if p.is_file() and not p.name.startswith(".")}


def test_process_sends_what_the_master_s_process_sends(tmp_path):
    mailed, shell = judges(tmp_path)
    sent = by_mail(mailed, "PROCESS!")
    code, made = by_shell(shell, "process", "g1", "--force")
    assert code == 0
    results = [m for m in made if "Movement results for Spring of 1901" in m.get_body(("plain",)).get_content()]
    assert len(results) == 8  # the seven players and the Master
    assert seen(made) == seen(sent)
    assert files(shell) == files(mailed)


@pytest.mark.parametrize("words, line", [
    (("rollback", "g1"), "ROLLBACK"),
    (("rollback", "g1", "S1901M", "--restore"), "ROLLBACK S1901M RESTORE"),
])
def test_rollback_sends_what_the_master_s_rollback_sends(tmp_path, words, line):
    mailed, shell = judges(tmp_path)
    by_mail(mailed, "PROCESS!")
    assert by_shell(shell, "process", "g1", "--force")[0] == 0
    sent = by_mail(mailed, line)
    code, made = by_shell(shell, *words)
    # by mail the reply tells the Master of his rollback; from the shell, which mails him no reply
    # (the judgekeeper may be the one typing), the players' notice does
    told = [m for m in made if str(m["To"]) == MASTER]
    assert [str(m["Subject"]) for m in told] == ["Diplomacy game g1 rolled back"]
    assert code == 0 and seen([m for m in made if m not in told]) == seen(sent)
    assert files(shell) == files(mailed)


def test_what_a_mail_is_refused_the_shell_is_refused(tmp_path, capsys):
    judge, _ = judges(tmp_path)
    code, made = by_shell(judge, "process", "g1")  # no orders in, and not forced
    assert code == 1 and made == []
    assert "not ready for processing: orders are missing" in capsys.readouterr().err
    assert by_shell(judge, "rollback", "g1", "--forward")[0] == 1  # nothing was rolled back
    by_mail(judge, "TERMINATE")
    before = files(judge)
    code, made = by_shell(judge, "process", "g1", "--force")
    assert code == 1 and made == [] and files(judge) == before
    assert "game 'g1' is terminated: PROCESS! is refused" in capsys.readouterr().err


def test_the_shell_draws_its_pictures_within_the_configured_limits(tmp_path):
    _, shell = judges(tmp_path)
    with (shell.root / "judge.toml").open("a") as config:
        config.write("[limits]\npicture_pixels = 1\n")  # no board can be drawn this small
    code, made = by_shell(shell, "process", "g1", "--force")
    assert code == 0 and made
    assert not [part for m in made for part in m.walk() if part.get_content_maintype() == "image"]


def exploding(*args, **kwargs):
    raise RuntimeError("adjudicator exploded")


def test_a_processing_that_raises_holds_the_game_in_await_both_ways(tmp_path, monkeypatch):
    """A bug in processing fails the Master's mail (left for the daemon) and the shell's command
    alike, and both leave the game as it was read, in AWAIT, with nothing mailed (the cycle does
    the same: tests/runtime/cycle/test_check_command.py)."""
    mailed, shell = judges(tmp_path)
    monkeypatch.setattr(master_use_case, "on_process", exploding)
    errors: list[str] = []
    raw = mail(MASTER, "SIGNON Mg1 pw", "PROCESS!", subject="master")
    assert pipe_mail(mailed.config, raw, None, AT, err=errors.append) == 0
    assert errors and "left in the inbox for the daemon" in errors[0]
    with pytest.raises(ProcessingFailed):
        by_shell(shell, "process", "g1", "--force")
    for judge in (mailed, shell):
        held = judge.status("g1")
        assert held.phase_mode is PhaseMode.AWAIT and held.phase == Phase("SPRING", 1901, "MOVEMENT")
        assert judge.take_outbox() == []
    assert files(shell) == files(mailed)


def test_a_mail_short_of_memory_while_processing_leaves_the_game_as_it_was(tmp_path, monkeypatch):
    judge, _ = judges(tmp_path)
    before = files(judge)

    def out_of_memory(*args, **kwargs):
        raise MemoryError()
    monkeypatch.setattr(master_use_case, "on_process", out_of_memory)
    raw = mail(MASTER, "SIGNON Mg1 pw", "PROCESS!", subject="master")
    assert pipe_mail(judge.config, raw, None, AT, err=lambda line: None) == 0
    assert files(judge) == before  # the machine's trouble, not the game's: tried again later
