"""`judge check`: exit codes, a broken status file among good ones, one game, a failed processing,
the mails' Message-IDs; the daemon's tick and its wiring in `judge serve`."""
from __future__ import annotations

import contextlib
import errno
import io
import subprocess
import sys
from datetime import timedelta

import pytest

from judge.runtime import cycle as cycle_module
from judge.app import tick as tick_use_case
from judge.cli import main
from judge.runtime.cycle import cycle_mails, cycle_tick, run_cycle
from judge.runtime.spool import open_spools
from judge.status.model import PhaseMode
from tests.support.cycle import KEEPER, MASTER, recipients
from tests.support.durability import folder_syncs
from tests.support.games import NOW

H = timedelta(hours=1)
DEADLINE = NOW + 2 * 24 * H


def run_main(*words: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(words))
    return code, out.getvalue(), err.getvalue()


def test_no_games_no_lines_exit_0(judge):
    assert judge.check(NOW) == (0, [])
    assert (judge.root / "games" / ".cycle.json").is_file()


def test_a_broken_status_file_is_reported_and_the_others_still_go_on(judge):
    judge.start("good", ["TIMING NEXT 1D"], NOW)
    (judge.root / "games" / "bad").mkdir()
    (judge.root / "games" / "bad" / "status").write_text("GAME bad\nPHASE SPRING 1901 MOVEMENT\nRULE\n")
    judge.take_outbox()
    code, lines = judge.check(DEADLINE)
    assert code == 0
    assert lines[0].startswith("bad: broken status file: ") and "RULE" in lines[0]
    assert lines[1].startswith("good: late notice")
    errors = [m for m in judge.take_outbox() if "ERRORS" in m["Subject"]]
    assert len(errors) == 1 and recipients(errors[0]) == {KEEPER} and "(bad)" in errors[0]["Subject"]
    code, lines = judge.check(DEADLINE + H / 3)
    assert lines[0].startswith("bad: broken status file")
    assert not [m for m in judge.take_outbox() if "ERRORS" in m["Subject"]]  # told once


def test_a_bad_timing_line_is_a_broken_status_file(judge):
    judge.start("t", ["TIMING NEXT 1D"], NOW)
    path = judge.root / "games" / "t" / "status"
    path.write_text(path.read_text().replace("TIMING NEXT 1D", "TIMING NEXT 1D NEXT 2D"))
    assert judge.check(DEADLINE)[1][0].startswith("t: broken status file: ")


def test_one_game_only(judge):
    judge.start("one", ["TIMING NEXT 1D"], NOW)
    judge.start("two", ["TIMING NEXT 1D"], NOW)
    code, lines = judge.check(DEADLINE, "--game", "two")
    assert code == 0 and lines[0].startswith("two: late notice") and not any(line.startswith("one") for line in lines)


def test_an_unknown_game_exits_1(judge):
    code, _, err = run_main("check", "--config", str(judge.root / "judge.toml"), "--game", "nosuch",
                            "--now", NOW.isoformat())
    assert code == 1 and "no game nosuch" in err


@pytest.mark.parametrize("now", ["2025-01-06T12:00", "yesterday"])
def test_now_needs_an_offset(judge, now):
    code, _, err = run_main("check", "--config", str(judge.root / "judge.toml"), "--now", now)
    assert code == 2 and "--now" in err


def test_a_broken_configuration_exits_78(tmp_path):
    (tmp_path / "judge.toml").write_text("[judge\n")
    assert run_main("check", "--config", str(tmp_path / "judge.toml"))[0] == 78


def test_now_in_zulu_and_other_offsets(judge):
    judge.start("z", ["TIMING NEXT 1D"], NOW)
    code, out, _ = run_main("check", "--config", str(judge.root / "judge.toml"), "--now", "2025-01-08T07:00-05:00")
    assert code == 0 and out.startswith("z: late notice")


def test_a_processing_failure_leaves_the_game_in_await_and_tells_the_judgekeeper(judge, monkeypatch):
    judge.start("boom", ["TIMING NEXT 1D"], NOW)
    judge.start("fine", ["TIMING NEXT 1D"], NOW)
    judge.take_outbox()
    real = tick_use_case.on_tick

    def failing(status, m, now, *rest):
        if status.name == "boom":
            raise RuntimeError("adjudicator exploded")
        return real(status, m, now, *rest)
    monkeypatch.setattr(tick_use_case, "on_tick", failing)
    code, lines = judge.check(DEADLINE)
    assert code == 0
    assert lines[0].startswith("boom: processing failed, left in AWAIT, judgekeeper told: RuntimeError")
    assert lines[1].startswith("fine: late notice")
    assert judge.status("boom").phase_mode is PhaseMode.AWAIT
    alert = [m for m in judge.take_outbox() if "adjudication error" in m["Subject"]]
    assert len(alert) == 1 and recipients(alert[0]) == {KEEPER}
    code, lines = judge.check(DEADLINE + H)
    assert lines[0].startswith("boom: held: AWAIT")


def out_of_memory(*args):
    raise MemoryError()


def test_a_tick_short_of_memory_leaves_the_game_as_it_was_for_the_next_tick(judge, monkeypatch):
    judge.start("boom", ["TIMING NEXT 1D"], NOW)
    judge.take_outbox()
    before = judge.status("boom")
    with monkeypatch.context() as patched:
        patched.setattr(tick_use_case, "on_tick", out_of_memory)
        with pytest.raises(MemoryError):
            run_cycle(judge.store, judge.config, DEADLINE, outbox=open_spools(judge.config).outbox)
    assert judge.status("boom") == before  # not in AWAIT: it was no bug of the game's
    assert judge.take_outbox() == []
    assert judge.check(DEADLINE)[1][0].startswith("boom: late notice")


def test_a_game_the_machine_cannot_read_now_is_not_reported_broken(judge, monkeypatch):
    judge.start("busy", ["TIMING NEXT 1D"], NOW)
    judge.take_outbox()

    def no_descriptors(*args, **kwargs):
        raise OSError(errno.EMFILE, "Too many open files")
    with monkeypatch.context() as patched:
        patched.setattr(cycle_module, "read_game", no_descriptors)
        with pytest.raises(OSError):
            run_cycle(judge.store, judge.config, DEADLINE, outbox=open_spools(judge.config).outbox)
    assert judge.take_outbox() == []  # no "status file has errors" to the judgekeeper
    assert judge.check(DEADLINE)[1][0].startswith("busy: late notice")


def test_a_change_whose_mails_cannot_be_made_now_waits_for_them(judge, monkeypatch):
    judge.start("quiet", ["TIMING NEXT 1D"], NOW)
    judge.take_outbox()
    before = judge.status("quiet")
    with monkeypatch.context() as patched:
        patched.setattr(cycle_module, "_outcome_mailings", out_of_memory)
        with pytest.raises(MemoryError):
            run_cycle(judge.store, judge.config, DEADLINE, outbox=open_spools(judge.config).outbox)
    assert judge.status("quiet") == before  # not saved without the mails that tell of it
    judge.check(DEADLINE)
    assert any("late notice" in m["Subject"] for m in judge.take_outbox())


def test_the_same_cycle_mails_keep_their_message_ids(judge):
    judge.start("m", ["TIMING NEXT 1D"], NOW)
    report = run_cycle(judge.store, judge.config, DEADLINE)
    first, _ = cycle_mails(report, judge.config)
    again, _ = cycle_mails(report, judge.config)
    assert first and [m["Message-ID"] for m in first] == [m["Message-ID"] for m in again]
    assert len({m["Message-ID"] for m in first}) == len(first)


def test_the_daemon_tick_puts_the_games_mails_in_the_outbox_with_their_changes(judge):
    judge.start("d", ["TIMING NEXT 1D"], NOW)
    judge.take_outbox()
    tick = cycle_tick(judge.config)
    assert tick(DEADLINE) == []  # nothing left for the daemon to queue
    mails = judge.take_outbox()
    assert mails and all("late notice" in m["Subject"] or "deadline missed" in m["Subject"] for m in mails)
    assert tick(DEADLINE + H / 3) == [] and judge.take_outbox() == []  # DELAY 24 counting down


def test_judge_serve_runs_the_cycle_as_its_tick(judge):
    from judge.runtime.daemon import Daemon

    assert Daemon(judge.config).tick.__module__ == "judge.runtime.cycle"  # serve's default, as `judge check`


def test_judge_check_from_the_shell(judge):
    judge.start("sh", ["TIMING NEXT 1D"], NOW)
    done = subprocess.run([sys.executable, "-m", "judge.cli", "check", "--config", str(judge.root / "judge.toml"),
                           "--now", DEADLINE.isoformat()], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0].startswith("sh: late notice: AUSTRIA")
    assert done.stdout.splitlines()[-1].startswith("mail: ")


def test_the_daemon_tick_queues_a_games_mails_with_one_fsync_of_each_outbox_folder(judge,
                                                                                    monkeypatch):
    judge.start("d", ["TIMING NEXT 1D"], NOW)
    judge.take_outbox()
    tick = cycle_tick(judge.config)
    open_spools(judge.config).outbox.put_many([])  # its markers' folder made
    synced = folder_syncs(monkeypatch, open_spools(judge.config).outbox.root)
    tick(DEADLINE)
    mails = judge.take_outbox()
    assert len(mails) > 2 and synced == [".ids", "outbox"]


def hand_edited(judge, old: str, new: str, edited: str):
    """Game `odd` started, its status file then edited by hand (`old` written `new`): the file,
    its text and the number of the line `edited`."""
    judge.start("odd", ["TIMING NEXT 1D"], NOW)
    path = judge.root / "games" / "odd" / "status"
    text = path.read_text().replace(old, new, 1)
    path.write_text(text)
    return path, text, text.splitlines().index(edited) + 1


def test_a_game_with_an_unknown_rule_is_reported_at_its_line_and_left_alone(judge):
    path, text, line = hand_edited(judge, "TIMING NEXT 1D", "TIMING NEXT 1D\nRULE NO_DRAW FOOBAR",
                                   "RULE NO_DRAW FOOBAR")
    judge.take_outbox()
    code, lines = judge.check(DEADLINE)
    assert lines[0] == f"odd: broken status file: odd/status:{line}: NO SUCH RULE: FOOBAR"
    assert path.read_text() == text
    errors = [m for m in judge.take_outbox() if "ERRORS" in m["Subject"]]
    assert set().union(*(recipients(m) for m in errors)) == {KEEPER, MASTER}  # Master and keeper told
    assert all(f"odd/status:{line}: NO SUCH RULE: FOOBAR" in m.get_content() for m in errors)
    assert judge.status("odd").rules == {"NO_DRAW", "FOOBAR"}  # the file still loads


def test_a_new_game_with_an_unknown_rule_is_refused(judge):
    from judge.errors import StatusError
    with pytest.raises(StatusError, match="odd/status:6: NO SUCH RULE: FOOBAR"):
        judge.start("odd", ["RULE FOOBAR"], NOW)


def test_a_unit_on_a_place_the_map_lacks_is_reported_at_its_line_and_left_alone(judge):
    path, text, line = hand_edited(judge, "\nA VIE\n", "\nA XYZ\n", "A XYZ")
    code, lines = judge.check(DEADLINE)
    assert lines[0] == f"odd: broken status file: odd/status:{line}: A XYZ: map standard has no place XYZ"
    assert path.read_text() == text
