"""SET ABSENCE, SET ZONE and SET LISTED as use cases, without a door: who may set them, and when."""
from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, date, datetime

import pytest

from judge.app.game_settings import absence_settable, listing, set_absence, set_game_zone
from judge.app.refusal import Refusal
from judge.game.standing import FREE
from judge.notices import AbsenceSet, StateChanged, ZoneChanged
from judge.status.model import GameStage
from tests.support.games import game, in_hand


@dataclass(frozen=True)
class Days:
    """An absence of `length` whole days from 10 January 2025."""

    length: int
    first = datetime(2025, 1, 10, tzinfo=UTC)
    timed = False

    @property
    def last(self) -> datetime:
        return datetime(2025, 1, 9 + self.length, tzinfo=UTC)

    def days(self, today: date) -> int:
        return self.length

    def stamps(self) -> tuple[str | None, str]:
        return "20250110", f"202501{9 + self.length:02d}"


def test_a_player_s_absence_is_kept_within_the_judge_s_limit(standard):
    status = game(standard)
    kept = set_absence(in_hand(standard, status), False, Days(3), 14, "FRANCE")
    assert "NOT 20250110-20250112" in kept.status.timing
    with pytest.raises(Refusal, match="longer than 2 days"):
        set_absence(in_hand(standard, status), False, Days(3), 2, "FRANCE")
    assert set_absence(in_hand(standard, status), True, Days(3), 2, "MASTER").status.timing


@pytest.mark.parametrize("rules, by, master_only", [
    ((), "FRANCE", False),
    (("RULE HIDE_ABSENTEES",), None, False),
    (("RULE SILENT_ABSENCES",), "FRANCE", True),
])
def test_an_absence_is_told_to_everyone_as_the_rules_say(standard, rules, by, master_only):
    kept = set_absence(in_hand(standard, game(standard, *rules)), False, Days(3), 14, "FRANCE")
    assert kept.events == (AbsenceSet("demo", Days(3).first, Days(3).last, False, by, "FRANCE",
                                      master_only),)


def test_no_absences_leaves_them_to_the_master_and_a_game_over_takes_none(standard):
    with pytest.raises(Refusal, match="NO_ABSENCES"):
        absence_settable(in_hand(standard, game(standard, "RULE NO_ABSENCES")), False)
    absence_settable(in_hand(standard, game(standard, "RULE NO_ABSENCES")), True)
    over = replace(game(standard), phase=GameStage.COMPLETED)
    with pytest.raises(Refusal, match="game is over"):
        absence_settable(in_hand(standard, over), True)


def test_the_master_sets_the_game_s_zone_and_a_player_cannot(standard):
    status = game(standard)
    paris = set_game_zone(in_hand(standard, status), True, "Europe/Paris")
    assert paris.status.zone == "Europe/Paris" and paris.events == (ZoneChanged("demo", "Europe/Paris"),)
    assert set_game_zone(in_hand(standard, status), True, None).status.zone is None
    with pytest.raises(Refusal, match="own time zones"):
        set_game_zone(in_hand(standard, status), False, "Europe/Paris")
    with pytest.raises(Refusal):
        set_game_zone(in_hand(standard, status), True, "Mars/Olympus")


def test_a_game_is_listed_or_unlisted_once():
    unlisted = listing("demo", FREE, False)
    assert unlisted is not None and not unlisted.standing.listed
    assert unlisted.events == (StateChanged("demo", "unlisted"),)
    assert listing("demo", unlisted.standing, False) is None
    assert listing("demo", FREE, True) is None
