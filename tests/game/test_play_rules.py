"""The rules that change how the game is played, through a game's processing: the convoy rules,
the start rules (MOBILIZE, BLANK_BOARD), LAST_MAN_STANDING, CD_SUPPORTS... Their adjudication
cases are tables (tests/adjudicator/tables/); here each is seen to reach the game."""
from __future__ import annotations

from dataclasses import replace

import pytest

from judge.game import join, on_process, start_game
from judge.adjudicator.builds import build_options
from judge.game.positions import alive, build_tokens, centers_of, position_of, with_board
from judge.game.rules import rules_in_force
from judge.game.victory import winners
from judge.phases import parse_phase
from judge.status.model import GameResult, GameStage, PlayerHistory, Vacancy
from judge.maps.loader import load_map
from judge.orders import parse_orders
from judge.mailout.mailings import Mailer
from judge.mailout.render import environment
from tests.support.games import (
    DAY,
    NOW,
    build,
    everyone_orders,
    forming,
    player,
    round_trip,
    running,
    unit,
    units_of,
    with_centers,
)


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


# --- MOBILIZE and BLANK_BOARD: the game begins with the adjustment phase before BEGIN --------------

def test_mobilize_starts_with_one_build_token_each_and_no_board(standard):
    s = running(standard, "RULE MOBILIZE")
    assert str(s.phase) == "WINTER 1900 ADJUSTMENTS"
    assert {(b.units, b.owns) for b in s.powers} == {((), ("SC!",))}
    round_trip(s)


def test_mobilize_build_takes_its_home_and_an_unused_token_stays(standard):
    s = build(running(standard, "RULE MOBILIZE"), "FRANCE", "F MAR")
    s, _ = on_process(s, standard, NOW + DAY, force=True)
    assert str(s.phase) == "SPRING 1901 MOVEMENT"
    france, austria = s.power("FRANCE"), s.power("AUSTRIA")
    assert (units_of(s, "FRANCE"), france.owns) == (["F MAR"], ("MAR",))
    assert (austria.units, austria.owns) == ((), ("SC!",))  # DPjudge: "1 unused build pending"
    assert alive(austria)  # its token keeps it in the game, as DPjudge counts it


def test_mobilize_gives_an_immobile_dummy_a_token_per_home(standard):
    s = forming("RULE MOBILIZE IMMOBILE_DUMMIES")
    for n in range(6):
        s, _ = join(s, standard, NOW, player(n), f"pw{n}")
    s, _ = start_game(s, standard, NOW)
    dummy = next(b for b in s.powers if b.player.dummy)
    assert dummy.owns == ("SC!",) * len(standard.powers[dummy.name].homes)


def test_blank_board_starts_owning_the_homes_with_no_unit_on_them(standard):
    s = running(standard, "RULE BLANK_BOARD")
    assert str(s.phase) == "WINTER 1900 ADJUSTMENTS"
    england = s.power("ENGLAND")
    assert (england.units, england.owns) == ((), ("EDI", "LON", "LVP"))
    s = build(s, "ENGLAND", "F LON", "A LVP", "F EDI")
    s, _ = on_process(s, standard, NOW + DAY, force=True)
    assert sorted(units_of(s, "ENGLAND")) == ["A LVP", "F EDI", "F LON"]
    assert str(s.phase) == "SPRING 1901 MOVEMENT"


def test_blank_board_keeps_the_units_off_the_home_centres():
    """On the 1900 map Britain starts with a fleet in Gibraltar, which is no centre of its."""
    m = load_map("1900")
    s = running(m, "RULE BLANK_BOARD")
    assert str(s.phase) == "WINTER 1899 ADJUSTMENTS"
    assert [str(u) for u in s.power("BRITAIN").units] == ["F GIB"]
    assert all(not b.units for b in s.powers if b.name != "BRITAIN")


@pytest.mark.parametrize("rule", ["MOBILIZE", "BLANK_BOARD"])
def test_the_start_mail_shows_the_position_of_the_adjustment_phase(standard, rule):
    s = forming(f"RULE {rule}")
    for n in range(7):
        s, events = join(s, standard, NOW, player(n), f"pw{n}")
    body = next(m.rendered.body for m in Mailer(environment(), s, standard, judge="TEST").for_events(events)
                if "starting" in m.rendered.subject)
    assert "Starting position for Winter of 1900." in body


# --- LAST_MAN_STANDING ------------------------------------------------------------------------------

def _last_two(standard):
    """Fall 1901: England holds London with an army, France has a fleet and no centre."""
    s = running(standard, "RULE LAST_MAN_STANDING DEFAULT_UNORDERED")
    s = on_board(s, standard, ENGLAND="A LON", FRANCE="F ENG")
    s = with_board(s, standard, centers={"ENGLAND": frozenset({"LON"})})
    return replace(s, phase=parse_phase(standard, "F1901M"))


def test_last_man_standing_ends_the_game_when_one_unit_is_left(standard):
    """As DPjudge: France removes its fleet in Winter 1901; the game ends as that phase is left,
    RESULT naming the phase it reached (S1902M) and England; the results mail says so."""
    s, _ = on_process(everyone_orders(_last_two(standard), {}), standard, NOW + DAY, force=True)
    assert str(s.phase) == "WINTER 1901 ADJUSTMENTS"
    s, events = on_process(s, standard, NOW + 2 * DAY, force=True)
    assert s.phase is GameStage.COMPLETED and s.result == GameResult("S1902M", ("ENGLAND",))
    body = results_body(s, standard, events)
    assert "The English army in London is the Last Man Standing.\n" \
           "The game is over.  Thank you for playing." in body


def test_last_man_standing_wins_nobody_by_centres(standard):
    s = running(standard, "RULE LAST_MAN_STANDING")
    s = with_centers(s, standard, ENGLAND=" ".join(sorted(standard.supply_centers)[:20]))
    assert winners(s, standard, rules_in_force(s, standard), 1901) == (s, ())


def results_body(s, m, events) -> str:
    """The results mail as everyone reads it (LAST_MAN_STANDING brings in SOLITAIRE: no player
    is mailed, the archive keeps it)."""
    kept = Mailer(environment(), s, m, judge="TEST").archived(events)
    return next(body for subject, body in kept if "results" in subject)


# --- CD_SUPPORTS ------------------------------------------------------------------------------------

def _germany_in_disorder(standard, rules):
    s = running(standard, f"RULE {rules}")
    s = on_board(s, standard, FRANCE="A BUR, A RUH", GERMANY="A MUN, A BER, F KIE, A TYR",
                 ITALY="A VEN, A PIE", RUSSIA="A SIL")
    orders = everyone_orders(s, {})
    return orders.with_power(replace(orders.power("GERMANY"), orders=None))


def test_cd_supports_orders_a_power_in_civil_disorder_as_dpjudge_does(standard):
    """The position and the orders DPjudge gave Germany (its threatened Munich supported twice,
    Tyrolia, threatened twice, by Munich; Kiel, threatened once, holding)."""
    s, events = on_process(_germany_in_disorder(standard, "CIVIL_DISORDER CD_SUPPORTS"), standard,
                           NOW + DAY, force=True)
    lines = results_body(s, standard, events).splitlines()
    assert {"Germany: Army Munich SUPPORT Army Tyrolia.", "Germany: Army Berlin SUPPORT Army Munich.",
            "Germany: Fleet Kiel HOLD.", "Germany: Army Tyrolia SUPPORT Army Munich."} <= set(lines)


def test_without_cd_supports_a_power_in_civil_disorder_holds(standard):
    s, events = on_process(_germany_in_disorder(standard, "CIVIL_DISORDER"), standard, NOW + DAY,
                           force=True)
    assert "Germany: Army Berlin HOLD." in results_body(s, standard, events)


def test_cd_supports_leaves_a_vacancy_without_civil_disorder_to_hold(standard):
    """CD_SUPPORTS brings CIVIL_DISORDER in unless it is turned off (DPjudge's `=`)."""
    s = _germany_in_disorder(standard, "CD_SUPPORTS !CIVIL_DISORDER")
    s, events = on_process(s, standard, NOW + DAY, force=True)
    assert "Germany: Army Berlin HOLD." in results_body(s, standard, events)


# --- GARRISON -------------------------------------------------------------------------------------

def _garrison_game(standard, rules="GARRISON DEFAULT_UNORDERED"):
    """As checked with DPjudge: Austria and France own nothing; Italy owns Trieste, Germany holds
    Paris. Fall 1901."""
    s = running(standard, f"RULE {rules}")
    s = on_board(s, standard, AUSTRIA="A GAL", FRANCE="A PIC", ITALY="A VEN, A ROM", GERMANY="A PAR")
    s = with_board(s, standard, centers={"ITALY": frozenset({"TRI", "ROM", "NAP", "VEN"}),
                                         "GERMANY": frozenset({"PAR", "MUN"})})
    s, _ = on_process(everyone_orders(replace(s, phase=parse_phase(standard, "F1901M")), {}),
                      standard, NOW + DAY)
    return s


def test_garrison_lets_a_power_without_centres_build_on_a_vacant_home(standard):
    s = _garrison_game(standard)
    assert str(s.phase) == "WINTER 1901 ADJUSTMENTS"
    assert s.power("AUSTRIA").owns == ("SC?", "SC?")  # one more than its units: one build
    assert s.power("FRANCE").owns == ()  # a German army stands in Paris
    s, _ = on_process(build(s, "AUSTRIA", "A TRI"), standard, NOW + 2 * DAY, force=True)
    assert sorted(units_of(s, "AUSTRIA")) == ["A GAL", "A TRI"]
    assert s.power("AUSTRIA").owns == () and "TRI" in s.power("ITALY").owns  # no ownership taken


def test_without_garrison_a_power_without_centres_builds_nothing(standard):
    s = _garrison_game(standard, "DEFAULT_UNORDERED")
    assert s.power("AUSTRIA").owns == ()


def test_no_other_power_builds_on_the_homes_of_a_garrison_builder(standard):
    """DPjudge's buildSites: Italy, owning Trieste under BUILD_ANY, may not build there while Austria
    holds its build tokens."""
    s = _garrison_game(standard, "GARRISON DEFAULT_UNORDERED BUILD_ANY")
    rules = rules_in_force(s, standard)
    options = build_options(standard, position_of(s, standard, s.phase).units, centers_of(s, standard),
                            rules, phase=s.phase, tokens=build_tokens(s, standard))
    assert "TRI" in options["AUSTRIA"].sites() and "TRI" not in options["ITALY"].sites()
    assert "NAP" in options["ITALY"].sites()


# --- VASSAL_DUMMIES and TORN_ALLEGIANCE ---------------------------------------------------------------

def _vassal_game(standard, rules):
    """As checked with DPjudge: Germany, a dummy and France's vassal, has an army in Paris; England
    stands on all of Germany's homes. Fall 1901."""
    s = running(standard, f"RULE DEFAULT_UNORDERED {rules}")
    s = s.with_power(replace(s.power("GERMANY"), player=PlayerHistory(Vacancy.DUMMY), password=None,
                             control=("FRANCE",)))
    s = on_board(s, standard, ENGLAND="F KIE, A MUN, A BER", FRANCE="A BUR", GERMANY="A PAR")
    s = with_board(s, standard, centers={"ENGLAND": frozenset({"LON", "EDI", "LVP"}),
                                         "FRANCE": frozenset({"PAR", "BRE", "MAR"}),
                                         "GERMANY": frozenset({"BER", "KIE", "MUN"})})
    s = everyone_orders(replace(s, phase=parse_phase(standard, "F1901M")), {})
    return on_process(s, standard, NOW + DAY)


def test_vassal_changes_allegiance_and_keeps_its_homes(standard):
    s, events = _vassal_game(standard, "VASSAL_DUMMIES")
    germany = s.power("GERMANY")
    assert germany.control == ("ENGLAND",) and set(germany.owns) == {"BER", "KIE", "MUN"}
    assert "PAR" in s.power("FRANCE").owns  # France's own vassal took nothing from it
    assert units_of(s, "GERMANY") == ["A PAR"]
    body = results_body(s, standard, events)
    assert "\nVassal status of minor powers:\n\nGermany is a vassal of England.\n\n" \
           "Ownership of supply centers:\n\n" in body
    assert "Germany:    Berlin, Kiel, Munich." in body


def test_torn_allegiance_destroys_the_vassal_unit_on_another_sides_centre(standard):
    s, events = _vassal_game(standard, "VASSAL_DUMMIES TORN_ALLEGIANCE")
    assert units_of(s, "GERMANY") == []
    body = results_body(s, standard, events)
    assert "\n\nThe German army in Paris with torn allegiance was destroyed.\n\n" \
           "Vassal status of minor powers:\n" in body
    assert "Germany:     3 Supply centers,  0 Units:  Builds   3 units." in body  # as DPjudge


def test_without_vassal_dummies_centres_are_taken_as_usual(standard):
    s, _ = _vassal_game(standard, "")
    assert s.power("GERMANY").control == ("FRANCE",) and set(s.power("ENGLAND").owns) >= {"BER", "KIE"}
    assert "PAR" in s.power("GERMANY").owns


# --- PORTAGE_CONVOY ---------------------------------------------------------------------------------

def test_portage_convoy_carries_a_fleet_over_land_and_the_results_say_so(standard):
    """As DPjudge adjudicated and wrote it."""
    s = on_board(running(standard, "RULE DEFAULT_UNORDERED PORTAGE_CONVOY"), standard,
                 FRANCE="F MAR, A BUR")
    s = everyone_orders(s, {"FRANCE": ["F MAR - BUR - BEL", "A BUR C F MAR - BEL"]})
    s, events = on_process(s, standard, NOW + DAY)
    assert sorted(units_of(s, "FRANCE")) == ["A BUR", "F BEL"]
    lines = results_body(s, standard, events).splitlines()
    assert {"France: Fleet Marseilles -> Burgundy -> Belgium.",
            "France: Army Burgundy CONVOY Fleet Marseilles -> Belgium."} <= set(lines)


@pytest.mark.parametrize("rules, refused", [(frozenset(), 2), (frozenset({"PORTAGE_CONVOY"}), 0)])
def test_portage_orders_are_taken_only_under_the_rule(standard, rules, refused):
    s = on_board(running(standard), standard, FRANCE="F MAR, A BUR")
    lines = ["F MAR - BUR - BEL", "A BUR C F MAR - BEL"]
    _, errors = parse_orders(standard, "FRANCE", lines, s.phase, {"FRANCE": s.power("FRANCE").units},
                             position_of(s, standard, s.phase), rules)
    assert len(errors) == refused


def test_portage_needs_an_army_on_each_step(standard):
    s = on_board(running(standard), standard, FRANCE="F MAR, A PAR")
    _, errors = parse_orders(standard, "FRANCE", ["F MAR - BUR - BEL", "A PAR C F MAR - BEL"], s.phase,
                             {"FRANCE": s.power("FRANCE").units}, position_of(s, standard, s.phase),
                             frozenset({"PORTAGE_CONVOY"}))
    assert [reason for _, reason in errors] == ["no unit in Burgundy to carry the fleet",
                                                 "no armies carry F MAR from Marseilles to Belgium "
                                                 "through Paris"]
