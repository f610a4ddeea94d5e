"""`judge new`, `judge status`, `judge process [--force] [--preview]`, `judge rollback`."""
from __future__ import annotations

import pytest

from judge.cli import main
from judge.game import join
from judge.runtime.commit import run
from judge.status import parse_status
from judge.runtime.store import GameStore
from tests.support.games import NOW, player


@pytest.fixture(autouse=True)
def judge_folder(tmp_path, monkeypatch):
    """Run where the default configuration puts the spool the Master's commands mail through."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("JUDGE_CONFIG", raising=False)


def judge(games, *words: str) -> int:
    return main([*words, "--games", str(games)])


def started(games):
    assert judge(games, "new", "g1", "RULE NO_PRESS", "--map", "standard", "--password", "pw") == 0
    store = GameStore(games)
    for n in range(7):
        run(store, "g1", lambda s, m, n=n: join(s, m, NOW, player(n), "pw"))
    return store


def read(store):
    with store.locked("g1") as game:
        return game.read_status(), game.snapshots()


def test_new_writes_a_forming_game_with_the_lines_given(tmp_path, capsys):
    assert judge(tmp_path, "new", "g1", "--map", "testing", "--master", "gm@example.org",
                 "--password", "pw", "RULE NO_PRESS") == 0
    text = (tmp_path / "g1" / "status").read_text()
    assert text.startswith("GAME g1\nPHASE FORMING\nMAP testing\nMASTER NO-ID|gm@example.org|\n")
    assert "RULE IMMOBILE_DUMMIES\nRULE NO_PRESS\n" in text  # the map's DIRECTIVES stanza applied
    assert judge(tmp_path, "new", "g1", "--map", "standard") == 1
    assert "already exists" in capsys.readouterr().err


def test_new_refuses_a_bad_line(tmp_path, capsys):
    assert judge(tmp_path, "new", "g2", "--map", "standard", "RULE") == 1
    assert "RULE" in capsys.readouterr().err


def test_new_refuses_what_would_keep_the_game_from_being_played(tmp_path, capsys):
    assert judge(tmp_path, "new", "g3", "--map", "standard", "TIMING NEXT BOGUS", "RULE FOOBAR") == 1
    err = capsys.readouterr().err
    assert "g3/status:4: TIMING: TIMING NEXT: expected a whole number" in err
    assert "g3/status:5: NO SUCH RULE: FOOBAR" in err
    assert not (tmp_path / "g3").exists()


def test_status_preview_force_and_rollback(tmp_path, capsys):
    store = started(tmp_path)
    assert judge(tmp_path, "status", "g1") == 0
    out = capsys.readouterr().out
    assert "SPRING 1901 MOVEMENT" in out and "orders missing: AUSTRIA" in out and "centres (4)" in out
    before, _ = read(store)
    assert judge(tmp_path, "process", "g1", "--preview") == 0
    assert capsys.readouterr().out.startswith("PREVIEW\nPHASE S1901M")
    assert read(store)[0] == before
    assert judge(tmp_path, "process", "g1", "--force") == 0
    after, snapshots = read(store)
    assert parse_status(after).phase.season == "FALL" and snapshots == ["FORMING", "S1901M"]
    assert (tmp_path / "g1" / "status.S1901M").read_text() == before
    assert judge(tmp_path, "rollback", "g1") == 0
    assert "rolled back to SPRING 1901 MOVEMENT" in capsys.readouterr().out
    assert judge(tmp_path, "rollback", "g1", "--forward") == 0  # to F1901M, kept by the rollback
    assert "rolled forward to FALL 1901 MOVEMENT" in capsys.readouterr().out
    assert judge(tmp_path, "rollback", "g1", "--forward") == 1  # nothing after F1901M
    assert judge(tmp_path, "rollback", "g1", "FORMING") == 0
    assert parse_status(read(store)[0]).forming


def test_unknown_game(tmp_path, capsys):
    assert judge(tmp_path, "status", "nogame") == 1
    assert "no game nogame" in capsys.readouterr().err
