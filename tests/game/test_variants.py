"""The variant seam: a variant's stages are what processing a phase runs, in their order."""
from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from judge.events import PhaseResults
from judge.game.process import process_phase
from judge.game.stages import Processing, Stage
from judge.game.variants import (
    PAYOLA,
    STANDARD,
    XTALBALL,
    Variant,
    played_variant,
    played_variants,
    variant_named,
)
from judge.status import parse_status

NOW = datetime(2026, 11, 24, 8, 18, tzinfo=UTC)
SPRING = """GAME seam
PHASE SPRING 1901 MOVEMENT
MAP standard

FRANCE
A PAR
ORDERS
A PAR - BUR
"""


def test_the_standard_pipeline_is_a_short_list_of_named_stages():
    assert [s.name for s in STANDARD.stages] == [
        "gather orders", "adjudicate", "sight", "write back", "rotate after", "move on",
        "look for the end", "set the next deadline", "bring NEED up to date", "report"]


def test_a_variant_is_found_by_dpjudges_game_class_in_any_case():
    assert variant_named("Standard") is STANDARD
    assert variant_named("chess") is None
    assert variant_named("XTALBALL") is XTALBALL
    assert variant_named("payola") is PAYOLA


def test_payola_settles_the_bribes_first_and_collects_income_once_the_game_has_moved_on():
    names = [s.name for s in PAYOLA.stages]
    assert names[0] == "settle the bribes"
    assert names.index("empty the gone powers' treasuries") == names.index("write back") + 1
    assert names.index("collect income") == names.index("move on") + 1
    assert names[-2:] == ["tell of the income", "free the transfers"]
    own = ("settle the bribes", "empty the gone powers' treasuries", "collect income", "tell of the income",
           "free the transfers")
    assert [n for n in names if n not in own] == [s.name for s in STANDARD.stages]


def test_the_judge_plays_standard_crystal_ball_and_payola_games_and_no_other_variant():
    assert played_variant("standard") is STANDARD
    assert played_variant("xtalball") is XTALBALL
    assert played_variant("payola") is PAYOLA
    assert played_variant("chess") is None
    assert played_variants() == "standard, xtalball, payola"


def test_processing_runs_the_variants_stages_in_order(standard):
    seen: list[str] = []

    def watch(name: str) -> Stage:
        def run(p: Processing) -> Processing:
            seen.append(name)
            return p
        return Stage(name, run)

    stages = tuple(s for pair in zip(STANDARD.stages, (watch(s.name) for s in STANDARD.stages))
                   for s in pair)
    status = parse_status(SPRING)
    after, events = process_phase(status, standard, NOW, replace(STANDARD, stages=stages))
    assert seen == [s.name for s in STANDARD.stages]
    assert (after, events) == process_phase(status, standard, NOW)


def test_a_variant_without_the_adjudication_stage_leaves_the_units_where_they_stand(standard):
    stages = tuple(s for s in STANDARD.stages if s.name != "adjudicate")
    after, events = process_phase(parse_status(SPRING), standard, NOW,
                                  Variant("still", "Still Diplomacy", stages))
    results = next(e for e in events if isinstance(e, PhaseResults))
    assert results.resolution is None
    assert next(p for p in after.powers if p.name == "FRANCE").units == parse_status(SPRING).powers[0].units
