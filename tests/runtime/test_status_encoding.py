"""A status file is read as UTF-8, else latin-1 (DPjudge's), and written back, snapshots too, in the
encoding it was read in whenever every character fits."""
from __future__ import annotations

from judge.cli import main
from judge.runtime.store import GameStore
from tests.support.dpjudge import dpjudge_games

RENE = "René_Dürr"


def test_a_latin1_game_is_read_and_written_back_in_latin1(tmp_path):
    games = dpjudge_games(tmp_path)
    assert main(["process", "alpha", "--force", "--games", str(games)]) == 0
    status = (games / "alpha" / "status").read_bytes()
    assert RENE.encode("latin-1") in status and b"PHASE FALL 1902 MOVEMENT" not in status
    assert "DESC Une partie à l'été, pour René\n".encode("latin-1") in status
    snapshot = (games / "alpha" / "status.F1902M").read_bytes()
    assert RENE.encode("latin-1") in snapshot


def test_a_character_latin1_lacks_turns_the_file_to_utf8(tmp_path):
    games = dpjudge_games(tmp_path)
    store = GameStore(games)
    with store.locked("alpha") as game:
        text = game.read_status()
        assert game.status_encoding() == "latin-1"
        game.write_status(text.replace("Une partie", "Une partie à 5 €"))
    assert "Une partie à 5 € à l'été".encode() in (games / "alpha" / "status").read_bytes()


def test_a_utf8_game_stays_utf8(tmp_path):
    games = dpjudge_games(tmp_path)
    store = GameStore(games)
    with store.locked("delta") as game:  # made by a CREATE mail in UTF-8
        text = game.read_status()
        game.write_status(text)
    assert "DESC Réservée".encode() in (games / "delta" / "status").read_bytes()


def test_the_cli_shows_a_latin1_game(tmp_path, capsys):
    games = dpjudge_games(tmp_path)
    assert main(["status", "alpha", "--games", str(games)]) == 0
    assert RENE in capsys.readouterr().out
