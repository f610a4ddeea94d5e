"""The rule table and the rules in force, against what DPjudge's own rule combination gives.

`fixtures/dpjudge_rules.json` was recorded by running DPjudge's rule validation (its rule page's
metadata) on each rule alone and on a few combinations: the rules asked for, those turned off
(`RULE !X`), what DPjudge then has in force and the errors it reports."""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from judge.game.rule_table import ALIASES, RULES
from judge.game.rules import TABLE, check_rules, combine, conflicts, listed_rules, rules_in_force
from tests.support.games import forming, running

CASES = json.loads((Path(__file__).parent / "fixtures" / "dpjudge_rules.json").read_text())


def messages(found) -> list[str]:
    return [str(p) for p in found.problems]


def case_id(case: dict) -> str:
    return "+".join(case["rules"]) + "".join(f"-!{r}" for r in case["off"])


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_rules_combine_as_dpjudge_combines_them(case):
    in_force, problems = combine(case["rules"], case["off"])
    assert (sorted(in_force), [str(p) for p in problems]) == (case["in_force"], case["errors"])


def test_the_table_holds_every_rule_dpjudge_knows():
    singles = {c["rules"][0] for c in CASES if len(c["rules"]) == 1 and not c["off"]}
    assert {r.name for r in RULES} >= singles - {"FOOBAR"}
    assert len({r.name for r in RULES}) == len(RULES)


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.name)
def test_every_rule_names_only_known_rules(rule):
    named = {*rule.implies, *rule.defaults}
    assert named <= TABLE.keys()
    assert rule.family


@pytest.mark.parametrize("rule", [r for r in RULES if r.variant in ("payola", "xtalball")],
                         ids=lambda r: r.name)
def test_payola_and_crystal_ball_rules_are_refused_in_a_standard_game(rule, standard):
    found = check_rules(forming(f"RULE {rule.name}"), standard)
    assert f"RULE {rule.name} REQUIRES {rule.variant.upper()} VARIANT" in messages(found)
    assert rule.name not in found.in_force


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.name)
def test_a_rule_not_implemented_is_reported(rule, standard):
    found = check_rules(replace(forming(), rules=frozenset({rule.name})), standard)
    unimplemented = sorted(n for n in found.in_force if not TABLE[n].implemented)
    reported = sorted(p.split()[1] for p in messages(found) if p.endswith("NOT IMPLEMENTED ON THIS JUDGE"))
    assert reported == unimplemented


def test_an_unknown_rule_is_a_problem_and_not_in_force(standard):
    found = check_rules(forming("RULE FOOBAR NO_DRAW"), standard)
    assert messages(found) == ["NO SUCH RULE: FOOBAR"]
    assert found.in_force == {"NO_DRAW"}


@pytest.mark.parametrize("alias, rule", sorted(ALIASES.items()))
def test_other_names_read_as_dpjudge_reads_them(alias, rule, standard):
    in_force = rules_in_force(forming(f"RULE {alias}"), standard)
    assert rule in in_force
    assert alias not in in_force  # so the code tests the rule's own name only


@pytest.mark.parametrize("rules, implied", [
    ("BLIND", {"HIDE_DUMMIES", "HIDE_ABSENTEES", "HIDE_LATE_POWERS", "SHOW_PHANTOM", "FICTIONAL_OK"}),
    ("VASSAL_DUMMIES", {"CD_DUMMIES", "CD_BUILDS", "TEAM_VICTORY"}),
    ("TORN_ALLEGIANCE", {"VASSAL_DUMMIES", "CD_DUMMIES", "CD_BUILDS", "TEAM_VICTORY"}),
    ("SEE_NO_UNITS", {"BLIND", "HIDE_DUMMIES"}),
    ("GREEK", {"BLIND", "UNITS_SEE_SAME", "NO_SCS_SEE"}),
])
def test_implications_are_dpjudges(rules, implied, standard):
    assert implied <= rules_in_force(forming(f"RULE {rules}"), standard)


def test_blind_does_not_silence_absences(standard):
    assert "SILENT_ABSENCES" not in rules_in_force(forming("RULE BLIND"), standard)


def test_blind_keeps_hide_dummies_off_when_told(standard):
    s = forming("RULE BLIND", "RULE !HIDE_DUMMIES")
    assert "HIDE_DUMMIES" not in rules_in_force(s, standard)


def test_no_press_removes_the_other_press_rules_of_the_map(standard):
    m = replace(standard, rules=frozenset({"GREY_PRESS", "TOUCH_PRESS"}))
    assert rules_in_force(forming("RULE NO_PRESS"), m) == {"NO_PRESS", "SILENT_ABSENCES"}


def test_two_game_rules_that_exclude_each_other_are_a_problem(standard):
    assert [str(p) for p in conflicts({"NO_PRESS", "GREY_PRESS"})] == [
        "RULE NO_PRESS AND RULE GREY_PRESS EXCLUDE EACH OTHER"]
    assert conflicts({"MYOPIC", "VENETIAN"})  # through what they bring in
    assert conflicts({"BLIND", "HIDE_DUMMIES", "CIVIL_DISORDER"}) == []
    assert "RULE BUILD_ANY AND RULE HOME_BUILDS EXCLUDE EACH OTHER" in messages(check_rules(
        forming("RULE BUILD_ANY HOME_BUILDS"), standard))


def test_a_game_rule_overrides_the_maps(standard):
    m = replace(standard, rules=frozenset({"BUILD_ANY"}))
    found = check_rules(running(m, "RULE HOME_BUILDS"), m)
    assert "HOME_BUILDS" in found.in_force and "BUILD_ANY" not in found.in_force
    assert found.problems == ()


def test_listings_never_name_eavesdrop():
    assert listed_rules({"EAVESDROP", "NO_DRAW"}) == ["NO_DRAW"]
    assert listed_rules({"EAVESDROP!"}) == ["EAVESDROP!"]


def test_problems_are_located_at_the_rule_line_that_names_or_brings_them():
    from judge.game.rules import RuleProblem, located
    text = "GAME g\nRULE NO_DRAW FOOBAR\nRULE BLIND\n"
    found = located([RuleProblem("FOOBAR", "NO SUCH RULE: FOOBAR"),
                     RuleProblem("HIDE_DUMMIES", "RULE HIDE_DUMMIES IS NOT IMPLEMENTED ON THIS JUDGE")],
                    text, "g/status")
    assert [str(p) for p in found] == ["g/status:2: NO SUCH RULE: FOOBAR",
                                       "g/status:3: RULE HIDE_DUMMIES IS NOT IMPLEMENTED ON THIS JUDGE"]


def test_docs_rules_md_shows_the_rule_table():
    from tests.support.rule_docs import DOC, document
    text = DOC.read_text(encoding="utf-8")
    assert text == document(text), "docs/rules.md is stale: run python -m tests.support.rule_docs"
    for rule in RULES:
        assert f"| `{rule.name}` | {rule.family} |" in text


def test_no_eog_is_played_as_the_judge_stores_no_press(standard):
    assert check_rules(forming("RULE NO_EOG"), standard).problems == ()
