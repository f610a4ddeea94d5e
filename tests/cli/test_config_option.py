"""`--config FILE` before or after the command: every command on games reads the games (and maps)
of that configuration, not ./games, and a configuration with errors stops it (exit 78)."""
from __future__ import annotations

import pytest

from judge.cli import main
from judge.status import parse_status
from tests.support.cycle import Judge
from tests.support.games import NOW


@pytest.fixture
def judge(tmp_path, monkeypatch) -> Judge:
    """A judge folder with a started game g1, run from another folder with no games of its own."""
    (tmp_path / "judge").mkdir()
    made = Judge(tmp_path / "judge")
    made.start("g1", [], NOW)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    monkeypatch.delenv("JUDGE_CONFIG", raising=False)
    return made


@pytest.fixture(params=["before", "after"])
def run(request, judge):
    """`judge` with --config before the command words, or after them."""
    config = ["--config", str(judge.root / "judge.toml")]

    def run(*words: str) -> int:
        return main([*config, *words] if request.param == "before" else [*words, *config])
    return run


def test_status(run, capsys):
    assert run("status", "g1") == 0
    assert capsys.readouterr().out.startswith("game g1 on standard: PHASE SPRING 1901 MOVEMENT")


def test_new(run, judge):
    assert run("new", "g2", "--map", "standard", "RULE NO_PRESS") == 0
    assert parse_status((judge.root / "games" / "g2" / "status").read_text()).forming


def test_export(run, tmp_path):
    assert run("export", "g1", str(tmp_path / "back")) == 0
    assert (tmp_path / "back" / "g1" / "status").read_text(encoding="latin-1").startswith("GAME g1\n")


def test_process_and_rollback(run, judge):
    assert run("process", "g1", "--force") == 0
    assert judge.status("g1").phase.season == "FALL"
    assert run("rollback", "g1") == 0
    assert judge.status("g1").phase.season == "SPRING"


def test_map_draw(run, tmp_path, capsys):
    assert run("map", "draw", "--game", "g1", "-o", str(tmp_path / "g1.svg")) == 0
    assert "g1 SPRING 1901 MOVEMENT" in capsys.readouterr().out


def test_the_games_folder_given_wins_over_the_configuration_s(run, judge, tmp_path):
    other = tmp_path / "other"
    assert run("new", "g3", "--map", "standard", "--games", str(other)) == 0
    assert (other / "g3" / "status").is_file() and not (judge.root / "games" / "g3").exists()


@pytest.mark.parametrize("words", [["status", "g1"], ["process", "g1"], ["rollback", "g1"],
                                   ["export", "g1", "out"], ["new", "g2", "--map", "standard"],
                                   ["map", "draw", "--game", "g1", "-o", "g1.svg"]])
def test_a_configuration_with_errors_stops_the_command(judge, tmp_path, words, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text("[paths]\ngames = 3\n")
    assert main([*words, "--config", str(bad)]) == 78
    assert "[paths] games: expected a path string" in capsys.readouterr().err
