"""A Payola game begins as DPjudge begins one (`fixtures/payola_start.json`, recorded by
`tests/support/record_payola_game.py --start`): when the last JOIN starts it, each power has its
first year's income on its FUNDS line and an acceptance list preferring itself, the other powers
left to `?`; a dummy's list is `?` alone, and under VASSAL_DUMMIES a dummy has no purse."""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from judge.game.start import start_game
from judge.maps import MapCache
from judge.status import parse_status
from tests.game.test_dpjudge_games import NOW, SETTINGS, raw_mail
from tests.support.commands import Judge
from tests.support.record_dpjudge_games import player

RECORDED = json.loads((Path(__file__).parent / "fixtures" / "payola_start.json").read_text(encoding="utf-8"))
STANDARD = MapCache().get("standard")


def purses(text: str) -> dict[str, tuple[str, ...]]:
    """Each power's FUNDS and ACCEPT lines."""
    status = parse_status(text)
    return {b.name: (" ".join(str(f) for f in b.funds or ()), b.accept or "") for b in status.powers if b.units}


def test_the_last_join_starts_the_game_with_dpjudges_purses_and_acceptance_lists(tmp_path):
    judge = Judge(tmp_path, SETTINGS)
    judge.store.create(RECORDED["game"], RECORDED["forming"])
    (tmp_path / "status").write_text(f"{RECORDED['game']:>32} payola forming\n")
    for n in range(7):
        address, password = player(n)
        judge.send(raw_mail(address, f"JOIN {RECORDED['game']} {password}\nSIGNOFF\n"), NOW)
    started = (tmp_path / RECORDED["game"] / "status").read_text()
    assert parse_status(started).phase == STANDARD.begin
    assert purses(started) == purses(RECORDED["started"])
    assert purses(started)["RUSSIA"] == ("$62", "R?")


def forming_with_a_dummy(*rules: str):
    seats = "".join(f"\nPOWER POWER#{n}\nPLAYER |p{n}@example.org|p{n}\nPASSWORD pw{n}\n" for n in range(1, 7))
    text = RECORDED["forming"] + "".join(f"RULE {r}\n" for r in rules) + seats
    return replace(parse_status(text), variant="payola")


def test_a_power_nobody_took_is_a_dummy_accepting_any_bribe_first():
    started, _ = start_game(forming_with_a_dummy(), STANDARD, NOW, seed="one dummy")
    dummy = next(b for b in started.powers if b.player is not None and b.player.dummy)
    assert dummy.accept == "?" and dummy.funds and dummy.funds[0].amount > 0


def test_under_vassal_dummies_a_dummy_has_no_purse():
    started, _ = start_game(forming_with_a_dummy("VASSAL_DUMMIES"), STANDARD, NOW, seed="one dummy")
    dummy = next(b for b in started.powers if b.player is not None and b.player.dummy)
    assert dummy.funds is None and dummy.accept is None


def test_a_standard_game_begins_with_no_purse():
    status = replace(forming_with_a_dummy(), variant="standard")
    started, _ = start_game(status, STANDARD, NOW, seed="one dummy")
    assert all(b.funds is None and b.accept is None for b in started.powers)
