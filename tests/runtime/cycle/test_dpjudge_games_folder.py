"""A copy of DPjudge's games folder (its `games/status` index and its games in every state) in the
judge's games folder: each game arrives in its state, the cycle processes only the games DPjudge
would, and the index is kept in DPjudge's layout as the judge creates games and changes their state."""
from __future__ import annotations

import shutil
from datetime import UTC, datetime, timedelta

import pytest

from judge.cli import main
from judge.commands.auth import check_game_word
from judge.game.games_index import parse_index
from judge.game.standing import GameState, Standing, game_state
from judge.runtime.game_files import read_status_file, read_standing
from judge.runtime.store import GameStore
from tests.support.commands import Judge as MailJudge
from tests.support.cycle import Judge
from tests.support.dpjudge import dpjudge_games

DEADLINE = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)  # alpha's, eta's and epsilon's DEADLINE


@pytest.fixture
def judge(tmp_path) -> Judge:
    dpjudge_games(tmp_path)
    return Judge(tmp_path)


def index(judge: Judge) -> dict:
    return parse_index((judge.root / "games" / "status").read_text(encoding="latin-1"))


def test_every_game_arrives_in_its_state(judge):
    states = {}
    for name in judge.store.names():
        with judge.store.locked(name) as game:
            status = read_status_file(game)[1]
            standing = read_standing(game, status)
        states[name] = (game_state(status, standing).value, standing.listed)
    assert states == {"alpha": ("active", True), "beta": ("active", True),
                      "gamma": ("preparation", False), "delta": ("forming", True),
                      "epsilon": ("waiting", True), "eta": ("terminated", True),
                      "zeta": ("completed", True)}


def test_a_terminated_or_waiting_game_is_not_processed_at_its_deadline(judge):
    before = {name: (judge.root / "games" / name / "status").read_bytes() for name in ("eta", "epsilon")}
    seen = []
    for step in range(3):
        code, lines = judge.check(DEADLINE + timedelta(minutes=20 * (step - 1)))
        assert code == 0
        seen += lines
    assert any(line.startswith("alpha: late notice") for line in seen)
    assert not any(line.startswith(("eta", "epsilon")) for line in seen)
    assert {name: (judge.root / "games" / name / "status").read_bytes() for name in before} == before


def test_a_game_the_judge_creates_gets_its_line(judge):
    assert main(["new", "fresh", "--map", "standard", "--games", str(judge.root / "games")]) == 0
    entries = index(judge)
    assert entries["fresh"].state == "forming" and entries["eta"].state == "terminated"
    assert len(entries) == 8


def test_a_game_that_changes_state_changes_its_line(judge):
    store = GameStore(judge.root / "games")
    assert main(["process", "alpha", "--force", "--games", str(store.root)]) == 0
    assert index(judge)["alpha"].state == "active"
    with store.locked("zeta") as game:
        assert read_standing(game).state is None
    assert (judge.root / "games" / "status").read_text(encoding="latin-1").count("\n") == 7


def test_a_mail_that_terminates_a_game_writes_terminated(tmp_path):
    judge = MailJudge(tmp_path / "games")
    judge.add("vienna")
    assert not judge.send("master_terminate.eml").failed
    line = (tmp_path / "games" / "status").read_text()
    assert line == "%32s standard %s\n" % ("vienna", GameState.TERMINATED.value)


def test_a_game_named_beyond_forty_characters_plays(judge):
    long = "a_game_whose_name_dpjudge_allows_beyond_forty"
    games = judge.root / "games"
    shutil.copytree(games / "alpha", games / long)
    (games / long / "status").write_bytes((games / long / "status").read_bytes().replace(
        b"GAME alpha\n", f"GAME {long}\n".encode()))
    with (games / "status").open("a") as lines:
        lines.write("%32s standard active\n" % long)
    seen = []
    for step in range(3):
        seen += judge.check(DEADLINE + timedelta(minutes=20 * (step - 1)))[1]
    assert any(line.startswith(f"{long}: late notice") for line in seen)
    assert index(judge)[long].state == "active"
    assert check_game_word(long) == long  # a mail names it (SIGNON Fgame, LIST game...)


def test_a_cycle_reads_the_games_index_once_while_it_is_unchanged(judge, monkeypatch):
    import judge.runtime.game_files as game_files

    reads = []
    real = game_files.read_index
    monkeypatch.setattr(game_files, "read_index", lambda root: reads.append(root) or real(root))
    judge.check(DEADLINE - timedelta(days=30))
    assert len(reads) == 1  # seven games stand in it, none with a state file of its own


def test_the_games_index_is_read_again_once_it_changed(judge):
    from judge.runtime.game_files import IndexReader

    reader = IndexReader()
    root = judge.root / "games"
    assert reader(root)["eta"].state == "terminated"
    text = (root / "status").read_text(encoding="latin-1")
    path = root / "status.new"
    path.write_text(text.replace("eta standard terminated", "eta standard active", 1), encoding="latin-1")
    path.replace(root / "status")  # as the judge writes it: a new file in its place
    assert reader(root)["eta"].state == "active"


def test_a_kept_games_index_sees_a_hand_edit_at_the_next_cycle(judge):
    from judge.runtime.cycle import run_cycle
    from judge.runtime.game_files import IndexReader

    kept, root = IndexReader(), judge.root / "games"
    at = DEADLINE + timedelta(minutes=20)
    lines = run_cycle(judge.store, judge.config, at, games_index=kept).lines
    assert not any(line.startswith("eta") for line in lines)  # terminated
    text = (root / "status").read_text(encoding="latin-1")
    (root / "status").write_text(text.replace("eta standard terminated", "eta standard active", 1),
                                 encoding="latin-1")  # in place, as an editor may
    lines = run_cycle(judge.store, judge.config, at + timedelta(minutes=20), games_index=kept,
                      fresh=True).lines  # every game read: the idle index does not watch this file
    assert any(line.startswith("eta: ") for line in lines)


def test_a_kept_games_index_keeps_the_lines_another_process_wrote(judge):
    from judge.runtime.game_files import IndexReader, index_game
    from judge.runtime.store import GameDir

    kept, root = IndexReader(), judge.root / "games"
    with judge.store.locked("beta") as game:
        beta = read_status_file(game)[1]
    index_game(GameDir(root / "beta"), beta, index=kept)  # read and kept
    assert main(["new", "fresh", "--map", "standard", "--games", str(root)]) == 0  # another process
    with judge.store.locked("alpha") as game:
        alpha = read_status_file(game)[1]
    index_game(GameDir(root / "alpha"), alpha, Standing(GameState.WAITING), index=kept)
    entries = index(judge)
    assert entries["fresh"].state == "forming" and entries["alpha"].state == "waiting"
    assert kept(root) == entries


def test_a_game_renamed_through_a_kept_games_index_loses_its_old_line(judge):
    from judge.runtime.game_files import IndexReader, index_game
    from judge.runtime.store import GameDir

    kept, root = IndexReader(), judge.root / "games"
    with judge.store.locked("beta") as game:
        beta = read_status_file(game)[1]
    shutil.move(root / "beta", root / "omega")
    index_game(GameDir(root / "omega"), beta, old_name="beta", index=kept)
    entries = index(judge)
    assert "beta" not in entries and entries["omega"].state == "active" and len(entries) == 7
    assert kept(root) == entries


def test_a_hand_edit_of_the_games_index_is_seen_by_the_next_mail(tmp_path):
    judge = MailJudge(tmp_path / "games")
    judge.add("vienna")
    assert not (tmp_path / "games" / "vienna" / "state").exists()  # the index says its state
    index_path = tmp_path / "games" / "status"
    index_path.write_text("%32s standard active\n" % "vienna")
    assert not judge.send("orders.eml").failed
    index_path.write_text("%32s standard terminated\n" % "vienna")  # in place, by hand
    assert "is terminated" in judge.send("orders.eml").text
