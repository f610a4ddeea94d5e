"""DPjudge's games index (`games/status`): read line by line, each game's standing from it, and the
line this judge writes for a game, in DPjudge's layout."""
from __future__ import annotations

from dataclasses import replace

import pytest

from judge.game.games_index import IndexEntry, entry_for, parse_index, write_index
from judge.game.standing import GameState, Standing, indexed_standing
from judge.status import parse_status
from judge.status.model import GameStage, Need
from tests.support.dpjudge import GAMES

ACTIVE = parse_status("GAME g\nPHASE SPRING 1901 MOVEMENT\n")


def from_index(entry: IndexEntry, status):
    return indexed_standing(entry.state, entry.flags, status)


def test_dpjudge_index_is_read_with_every_state_and_flag():
    entries = parse_index((GAMES / "status").read_text(encoding="latin-1"))
    assert {name: (e.variant, e.state, e.flags) for name, e in entries.items()} == {
        "alpha": ("standard", "active", ()), "beta": ("standard", "active", ()),
        "gamma": ("standard", "preparation", ("unlisted",)),
        "delta": ("standard", "forming", ("private",)),
        "epsilon": ("standard", "waiting", ()), "eta": ("standard", "terminated", ()),
        "zeta": ("standard", "completed", ())}
    assert parse_index(write_index(entries)) == entries


def test_lines_are_written_as_dpjudge_writes_them():
    text = write_index({"gamma": IndexEntry("standard", "preparation", ("unlisted",)),
                        "alpha": IndexEntry("payola", "active")})
    assert text == ("                           alpha payola active\n"
                    "                           gamma standard preparation unlisted\n")


@pytest.mark.parametrize("line, need, standing", [
    ("g standard active", False, Standing()),
    ("g standard forming", False, Standing()),
    ("g standard preparation unlisted", False, Standing(GameState.PREPARATION, listed=False)),
    ("g standard terminated", False, Standing(GameState.TERMINATED)),
    ("g standard waiting", True, Standing()),  # waits for replacements, by its NEED line
    ("g standard waiting", False, Standing(GameState.WAITING)),  # held by its Master
    ("g standard active held", False, Standing(GameState.WAITING)),
    ("g standard active private unlisted", False, Standing(listed=False)),
])
def test_the_standing_a_game_arrives_in(line, need, standing):
    status = replace(ACTIVE, need=(Need("ITALY", 4, 4),) if need else ())
    assert from_index(parse_index(line)["g"], status) == standing


def test_a_completed_game_is_completed_whatever_the_index_says():
    done = replace(ACTIVE, phase=GameStage.COMPLETED)
    assert from_index(parse_index("g standard terminated")["g"], done) == Standing()


def test_the_line_written_keeps_the_variant_and_words_the_judge_does_not_use():
    old = IndexEntry("xtalball", "active", ("unlisted", "archived"))
    private = replace(ACTIVE, private="SECRET")
    assert entry_for(private, Standing(GameState.TERMINATED), old) == IndexEntry(
        "xtalball", "terminated", ("private", "archived"))
    assert entry_for(ACTIVE, Standing(listed=False)) == IndexEntry("standard", "active", ("unlisted",))
