"""The results archive on disk: each results mail appended as it is mailed, in DPjudge's layout;
an archive DPjudge wrote carried on in its latin-1; a rollback cutting it as DPjudge does, and a
rollforward taking the entries back."""
from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from judge.events import PhaseResults
from judge.game.archive import entries, from_line
from judge.mailout.mailings import Mailer
from judge.mailout.render import environment
from judge.runtime.game_files import archiver, read_game
from judge.runtime.store import GameStore
from tests.support.faults import JUDGE, TICK_AT, everyone_ordered, started, write_config
from tests.support.master import process, rollback

DPJUDGE = Path(__file__).parent.parent / "game" / "fixtures" / "dpjudge"


@pytest.fixture
def store(tmp_path):
    store = GameStore(write_config(tmp_path).paths.games)
    started(store, "g")
    everyone_ordered(store, "g")
    return store


def archive_of(store: GameStore) -> str:
    with store.locked("g") as game:
        return game.read_results()


def test_a_processed_phase_is_archived_as_its_results_mail(store):
    events = process(store, "g", TICK_AT)
    with store.locked("g") as game:
        _, status, m = read_game(game)
    event = next(e for e in events if isinstance(e, PhaseResults))
    subject, body = Mailer(environment(), status, m, judge="CRASH").archived([event])[0]
    text = archive_of(store)
    assert text == (from_line(JUDGE, TICK_AT) + "\n"
                    f"Subject: {subject}\n\n{body.rstrip()}\n\n")
    assert subject == "Diplomacy results g S1901M"


def test_the_judge_s_address_and_id_sign_its_entries(store):
    from judge.runtime.commit import write_outcome
    from judge.game.process import on_process
    with store.locked("g") as game:
        text, status, m = read_game(game)
        new, events = on_process(status, m, TICK_AT)
        write_outcome(game, text, m, new, events, now=TICK_AT, archive=archiver("CRASH", JUDGE))
    archived = archive_of(store)
    assert archived.startswith(f"From {JUDGE} ") and ":: Judge: CRASH  Game: g" in archived


def test_an_archive_dpjudge_wrote_goes_on_in_latin1(store):
    dpjudge = (DPJUDGE / "hist.results").read_text()
    older = dpjudge.replace("Movement results for Spring", "Movement results (Gen\u00e8ve) for Spring", 1)
    (store.root / "g" / "results").write_bytes(older.encode("latin-1"))
    process(store, "g", TICK_AT)
    data = (store.root / "g" / "results").read_bytes()
    kept = older[:older.rindex("The deadline for orders will be ")]  # the last line names g's deadline
    assert data.startswith(kept.encode("latin-1"))
    assert b"The deadline for orders will be Wednesday 8 January 2025 12:00 GMT.\n\nFrom " in data
    assert [e.phase for e in entries(data.decode("latin-1"))] == ["S1901M", "F1901M", "W1901A", "S1901M"]


def test_an_entry_latin1_cannot_hold_turns_the_archive_to_utf8(store):
    with store.locked("g") as game:
        (game.path / "results").write_bytes("Gen\u00e8ve\n".encode("latin-1"))
        game.append_results("\u0141\u00f3d\u017a\n")
        assert (game.path / "results").read_bytes().decode("utf-8") == "Gen\u00e8ve\n\u0141\u00f3d\u017a\n"


def test_a_rollback_cuts_the_archive_and_a_rollforward_restores_it(store):
    process(store, "g", TICK_AT)
    everyone_ordered(store, "g")
    process(store, "g", TICK_AT + timedelta(days=3), force=True)
    whole = archive_of(store)
    assert [e.phase for e in entries(whole)] == ["S1901M", "F1901M"]

    rollback(store, "g", TICK_AT + timedelta(days=4), "F1901M")
    assert [e.phase for e in entries(archive_of(store))] == ["S1901M"]
    assert whole.startswith(archive_of(store))
    assert (store.root / "g" / "results.0").read_text() == whole

    rollback(store, "g", TICK_AT + timedelta(days=4), "S1901M")
    assert archive_of(store) == ""
    rollback(store, "g", TICK_AT + timedelta(days=4), "F1901M", forward=True)
    assert [e.phase for e in entries(archive_of(store))] == ["S1901M"]


def test_a_phase_processed_after_a_rollback_forgets_what_was_rolled_back(store):
    process(store, "g", TICK_AT)
    rollback(store, "g", TICK_AT + timedelta(days=1), "S1901M")
    assert archive_of(store) == "" and (store.root / "g" / "results.0").exists()
    everyone_ordered(store, "g")
    process(store, "g", TICK_AT + timedelta(days=2), force=True)
    assert [e.phase for e in entries(archive_of(store))] == ["S1901M"]
    assert not (store.root / "g" / "results.0").exists()


def test_the_cycle_signs_the_archive_with_the_judge_s_id_and_address(tmp_path):
    from judge.runtime.cycle import run_cycle
    config = write_config(tmp_path)
    store = GameStore(config.paths.games)
    started(store, "g")
    everyone_ordered(store, "g")
    run_cycle(store, config, TICK_AT)
    text = archive_of(store)
    assert text.startswith(f"From {JUDGE} ") and ":: Judge: CRASH  Game: g" in text


def test_a_rollback_stopped_half_way_is_completed_by_the_next_read(store, monkeypatch):
    from judge.runtime import journal
    from judge.runtime.store import GameDir
    process(store, "g", TICK_AT)
    everyone_ordered(store, "g")
    process(store, "g", TICK_AT + timedelta(days=3), force=True)

    def crash(*args):
        raise OSError("the judge is killed")

    monkeypatch.setattr(GameDir, "cut_results", crash)
    with pytest.raises(OSError):
        rollback(store, "g", TICK_AT + timedelta(days=4), "F1901M")
    monkeypatch.undo()
    assert journal.pending(store.root) == ["g"]
    with store.locked("g") as game:
        journal.replay(game)
    assert [e.phase for e in entries(archive_of(store))] == ["S1901M"]


def test_the_last_entry_names_the_deadline_the_phase_was_processed_under(tmp_path):
    """Spring 1901 mailed "The deadline for orders will be Monday 30 November"; the Master then
    moved the deadline. When Fall 1901 is processed, DPjudge rewrites that line of the archive to
    name the deadline Fall 1901 had, and so does the judge (the rest compared as DPjudge wrote it,
    the judge's own next deadline and its header lines aside)."""
    store = GameStore(write_config(tmp_path).paths.games)
    status = (Path(__file__).parent.parent / "mailout" / "dpjudge" / "S1901M.status").read_text()
    store.create("arch", status.replace("GAME golden", "GAME arch"))
    now = datetime(2026, 11, 24, 9, 53, tzinfo=UTC)
    process(store, "arch", now, force=True)
    with store.locked("arch") as game:
        text = game.read_status()
        game.write_status(re.sub(r"^DEADLINE \d+$", "DEADLINE 202612021800", text, flags=re.M))
    process(store, "arch", now, force=True)
    with store.locked("arch") as game:
        ours = game.read_results()

    def compared(archive: str) -> list[str]:
        lines = [line.rstrip() for line in archive.split("\n")
                 if not line.startswith(("From ", ":: "))]
        last = max(i for i, line in enumerate(lines) if line.startswith("The deadline for"))
        return lines[:last]

    theirs = (DPJUDGE / "restated.results").read_text()
    assert "The deadline for orders will be Wednesday 2 December 2026 18:00 GMT." in compared(ours)
    assert compared(ours) == compared(theirs)


def test_a_phase_processed_by_mail_is_archived_with_the_inbox_runner_s_templates(tmp_path):
    """The archive's words for a PROCESS by mail are the runner's templates (a daemon keeps
    them compiled), as the results mail's are: the same words, not compiled anew for each."""
    import jinja2

    from judge.runtime.inbox import MailHandler
    from tests.support.cycle import MASTER, Judge

    env = environment()
    results = env.loader.get_source(env, "results.txt")[0]  # type: ignore[union-attr]
    env.loader = jinja2.ChoiceLoader([jinja2.DictLoader({"results.txt": results + "Marked.\n"}),
                                      env.loader])  # type: ignore[list-item]
    judge = Judge(tmp_path)
    judge.handler = MailHandler(judge.config, env=env)
    judge.start("g", [], TICK_AT)
    judge.send(MASTER, "SIGNON master@g pw\nPROCESS!", TICK_AT)
    with judge.store.locked("g") as game:
        archived = game.read_results()
    assert "S1901M" in archived and "Marked." in archived
