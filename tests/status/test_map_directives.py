"""A map's `[variant] DIRECTIVES` stanzas applied to a game: the map's lines first, the game's own
lines over them, RULE !X after every rule, variant stanzas only for their variant."""
from __future__ import annotations

import pytest

from judge.errors import StatusError
from judge.maps.loader import load_map
from judge.maps.model import Stanza
from judge.status import apply_map_directives, parse_status, write_status
from judge.status.model import Tax
from tests.support.status import game

GENERAL = Stanza(None, ("RULE CD_DUMMIES CD_BUILDS", "ZONE Europe/London", "TIMING NEXT 3D WARN 1D",
                        "DESC Played on the map's own terms.", "ALLOW INVESTOR"))
PAYOLA = Stanza("PAYOLA", ("RULE PAY_DUMMIES", "ZONE Asia/Tokyo"))


def test_general_stanza_lines_apply_to_every_game():
    status = apply_map_directives(game("GAME g"), [GENERAL, PAYOLA])
    assert status.rules == {"CD_DUMMIES", "CD_BUILDS"}
    assert (status.zone, status.timing, status.allow) == ("Europe/London", "NEXT 3D WARN 1D",
                                                          {"INVESTOR"})


def test_variant_stanza_applies_only_to_its_variant_after_the_general_ones():
    status = apply_map_directives(game("GAME g"), [PAYOLA, GENERAL], variant="payola")
    assert status.rules == {"CD_DUMMIES", "CD_BUILDS", "PAY_DUMMIES"}
    assert status.zone == "Asia/Tokyo"


def test_the_games_own_value_wins():
    status = apply_map_directives(game("ZONE America/Denver"), [GENERAL])
    assert status.zone == "America/Denver"


def test_timing_keys_the_game_sets_win_the_others_are_the_maps():
    status = apply_map_directives(game("TIMING WARN 12H GRACE 1D"), [GENERAL])
    assert status.timing == "NEXT 3D WARN 12H GRACE 1D"


def test_a_maps_rule_off_turns_off_the_games_rule_after_all_rules():
    status = apply_map_directives(game("RULE BUILD_ANY"), [Stanza(None, ("RULE !BUILD_ANY",))])
    assert status.rules == {"BUILD_ANY"} and status.rules_off == {"BUILD_ANY"}


def test_map_lines_come_before_the_games_own():
    status = apply_map_directives(game("DESC Our game.\nMORPH DUMMY ITALY"),
                                  [GENERAL, Stanza(None, ("MORPH UNPLAYED GERMANY",))])
    assert status.description == ("Played on the map's own terms.", "Our game.")
    assert status.morphs == ("UNPLAYED GERMANY", "DUMMY ITALY")


def test_phase_map_and_powers_are_always_the_games():
    mine = parse_status("PHASE SPRING 1901 MOVEMENT\nMAP pure\n\nFRANCE\nA PAR\n")
    status = apply_map_directives(mine, [Stanza(None, ("PHASE FORMING", "MAP chaos"))])
    assert (status.phase, status.map_name, status.powers) == (mine.phase, "pure", mine.powers)


def test_applying_again_or_after_a_save_changes_nothing():
    stanzas = [GENERAL, Stanza(None, ("MORPH UNPLAYED GERMANY", "RULE !NO_PRESS"))]
    applied = apply_map_directives(game("TIMING WARN 12H\nDESC Ours.\nRULE NO_PRESS"), stanzas)
    assert apply_map_directives(applied, stanzas) == applied
    assert apply_map_directives(parse_status(write_status(applied)), stanzas) == applied


def test_the_testing_maps_stanza():
    status = apply_map_directives(game("GAME g\nMAP testing"), load_map("testing").stanzas)
    assert status.rules == {"IMMOBILE_DUMMIES"}


def test_bad_stanza_lines_are_reported_with_the_stanza_and_its_line():
    with pytest.raises(StatusError) as caught:
        apply_map_directives(game("GAME g"), [Stanza("PAYOLA", ("RULE X", "BRIBE 1", "OWNS PAR"))],
                             variant="PAYOLA", file="payola.map")
    found = [(p.file, p.line, p.message) for p in caught.value.problems]
    assert found == [("payola.map (PAYOLA DIRECTIVES)", 2, "unknown game directive 'BRIBE'"),
                     ("payola.map (PAYOLA DIRECTIVES)", 3,
                      "OWNS belongs in a power's block (after a blank line and the power's name)")]


def test_a_payola_stanza_sets_the_taxes_and_cap_under_the_games_own():
    stanzas = [Stanza("PAYOLA", ("TAX 1", "TAX PAR 3", "CAP 30"))]
    applied = apply_map_directives(game("GAME g\nTAX VIE 2\nCAP 40"), stanzas, variant="payola")
    assert applied.taxes == (Tax(1), Tax(3, "PAR"), Tax(2, "VIE")) and applied.cap == 40
    assert apply_map_directives(applied, stanzas, variant="payola") == applied


def test_stanzas_of_another_variant_are_not_read():
    bad = Stanza("PAYOLA", ("TAX 1",))
    assert apply_map_directives(game("GAME g"), [bad]) == game("GAME g")
