"""`judge export GAME FOLDER`: the game as DPjudge reads it (its layout, latin-1, its snapshots, the
results archive, its line in DPjudge's games index). A game DPjudge saved goes back byte for byte."""
from __future__ import annotations

import pytest

from judge.cli import main
from judge.game.games_index import parse_index
from judge.runtime.game_files import new_game, run
from judge.runtime.store import GameStore
from judge.game import join
from tests.support.dpjudge import GAMES, dpjudge_games
from tests.support.games import NOW, player

SAVED_BY_DPJUDGE = ("alpha", "beta", "epsilon", "eta", "zeta")


def export(games, name, folder) -> int:
    return main(["export", name, str(folder), "--games", str(games)])


@pytest.mark.parametrize("name", SAVED_BY_DPJUDGE)
def test_a_game_dpjudge_saved_goes_back_byte_for_byte(tmp_path, name):
    games = dpjudge_games(tmp_path)
    assert export(games, name, tmp_path / "back") == 0
    for original in (GAMES / name).iterdir():
        assert (tmp_path / "back" / name / original.name).read_bytes() == original.read_bytes()
    line = parse_index((tmp_path / "back" / "status").read_text(encoding="latin-1"))[name]
    if name != "beta":  # beta's line was written by hand, without DPjudge's `private`
        assert line == parse_index((GAMES / "status").read_text(encoding="latin-1"))[name]


def test_the_index_keeps_the_lines_already_there(tmp_path):
    games = dpjudge_games(tmp_path)
    back = tmp_path / "back"
    back.mkdir()
    (back / "status").write_text("%32s payola active\n" % "other")
    assert export(games, "gamma", back) == 0
    assert (back / "status").read_text(encoding="latin-1") == (
        "%32s standard preparation unlisted\n%32s payola active\n" % ("gamma", "other"))


def test_a_game_the_judge_made_is_written_in_dpjudge_s_words(tmp_path, capsys):
    store = GameStore(tmp_path / "games")
    new_game(store, "native", "standard", "gm@example.com", "gmpw",
             ["DESC Café à 5 €", "TEAMS ENGLAND-FRANCE"])
    for n in range(6):  # France is England's dummy
        run(store, "native", lambda s, m, n=n: join(s, m, NOW, player(n), f"pw{n}"))
    assert export(store.root, "native", tmp_path / "back") == 0
    text = (tmp_path / "back" / "native" / "status").read_bytes().decode("latin-1")
    assert text.startswith("GAME native\nPHASE SPRING 1901 MOVEMENT\nMAP standard\n"
                           "MASTER |gm@example.com|\n")
    assert "DESC Café à 5 &#8364;\n" in text and "TEAMS" not in text and "NO-ID" not in text
    assert "\n\nAUSTRIA\nPLAYER |player" in text  # a power of a started game: named alone
    assert (tmp_path / "back" / "native" / "status.FORMING").exists()
    notes = capsys.readouterr().err
    assert "native/status: the password of the Master is stored hashed" in notes
    assert "native/status:7: a character latin-1 lacks is written as &#...;" in notes
    assert parse_index((tmp_path / "back" / "status").read_text())["native"].state == "active"
