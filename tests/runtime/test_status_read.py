"""A game's status file is parsed once for its text: the step after the one that wrote it reads the
value already parsed; a file changed on disk is parsed again, and one that does not parse is named."""
from __future__ import annotations

import pytest

from judge.errors import StatusError
from judge.runtime.game_files import read_status_file
from judge.runtime.store import GameStore
from tests.support.dpjudge import dpjudge_games


def test_the_same_text_read_twice_is_parsed_once(tmp_path):
    store = GameStore(dpjudge_games(tmp_path))
    with store.locked("delta") as game:
        first = read_status_file(game)[1]
        assert read_status_file(game)[1] is first


def test_a_status_file_changed_on_disk_is_read_again(tmp_path):
    store = GameStore(dpjudge_games(tmp_path))
    with store.locked("delta") as game:
        text, first = read_status_file(game)
        game.write_status(text + "DESC read again\n")
        assert read_status_file(game)[1].description != first.description


def test_a_status_file_that_does_not_parse_is_named(tmp_path):
    store = GameStore(dpjudge_games(tmp_path))
    with store.locked("delta") as game:
        game.write_status(game.read_status() + "POWER\n")
        with pytest.raises(StatusError, match="delta/status"):
            read_status_file(game)
