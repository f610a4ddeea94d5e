"""The rules that change how the game is played, through a game's processing: the convoy rules,
the start rules (MOBILIZE, BLANK_BOARD), LAST_MAN_STANDING, CD_SUPPORTS... Their adjudication
cases are tables (tests/adjudicator/tables/); here each is seen to reach the game."""
from __future__ import annotations

import pytest

from judge.game import on_process
from judge.game.positions import with_board
from tests.support.games import DAY, NOW, everyone_orders, running, unit, units_of


def on_board(status, m, **units: str):
    """The game with exactly these units on the board (`ENGLAND="A LON, F NTH"`)."""
    placed = {power.upper(): tuple(unit(u.strip()) for u in text.split(",") if u.strip())
              for power, text in units.items()}
    return with_board(status, m, units={p: placed.get(p, ()) for p in m.powers})


@pytest.mark.parametrize("rule, landed", [("", True), ("WEAK_CONVOYS", False)])
def test_weak_convoys_reach_the_game(standard, rule, landed):
    s = on_board(running(standard, f"RULE DEFAULT_UNORDERED {rule}"), standard,
                 ENGLAND="A LON, F NTH", FRANCE="F ENG")
    s = everyone_orders(s, {"ENGLAND": ["A LON - NTH - BEL", "F NTH C A LON - BEL"],
                            "FRANCE": ["F ENG - NTH"]})
    s, _ = on_process(s, standard, NOW + DAY)
    assert ("A BEL" in units_of(s, "ENGLAND")) is landed
