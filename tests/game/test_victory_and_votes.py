"""Victory at the year's end (VICTORY, ties, SHARED_VICTORY, HOLD_WIN, TEAM_VICTORY, VICTORY_HOMES)
and the end by votes (DIAS, NO_DIAS, PROPOSE_DIAS, NO_DRAW); the rules in force."""
from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

from judge.events import GameCompleted, VoteCast
from judge.game import GameError, cast_vote, propose, rules_in_force
from judge.game.process import process_phase
from judge.game.victory import criterion, hold_win_note, vote_result, winners
from judge.maps import load_map
from judge.status.model import Vote, VoteKind
from judge.status.parser import parse_status
from judge.status.writer import write_status
from tests.support.games import NOW, running, with_centers

EIGHTEEN = "BEL HOL DEN NWY SWE SPA POR TUN MUN KIE BER LON"


def rules(s, m):
    return rules_in_force(s, m)


def test_eighteen_centres_win_the_standard_game(standard):
    s = with_centers(running(standard), standard, FRANCE=EIGHTEEN + " LVP EDI ROM")
    s, won = winners(s, standard, rules(s, standard), 1905)
    assert won == ("FRANCE",)


def test_seventeen_centres_do_not(standard):
    s = with_centers(running(standard), standard, FRANCE=" ".join(EIGHTEEN.split()[:11]))
    assert winners(s, standard, rules(s, standard), 1905)[1] == ()


@pytest.fixture(scope="module")
def small():
    return load_map("standard", morphs=("VICTORY 5",))


def test_a_tie_lets_the_game_go_on_unless_victory_is_shared(small):
    s = with_centers(running(small), small, FRANCE="SPA POR", GERMANY="DEN HOL")
    assert winners(s, small, rules(s, small), 1901)[1] == ()
    shared = replace(s, rules=s.rules | {"SHARED_VICTORY"})
    assert winners(shared, small, rules(shared, small), 1901)[1] in (("FRANCE", "GERMANY"),
                                                                       ("GERMANY", "FRANCE"))


def test_hold_win_needs_two_years_in_a_row(small):
    s = with_centers(running(small, "RULE HOLD_WIN"), small, FRANCE="SPA POR")
    s, won = winners(s, small, rules(s, small), 1901)
    assert won == () and s.power("FRANCE").messages == (hold_win_note(1901),)
    s, won = winners(s, small, rules(s, small), 1902)
    assert won == ("FRANCE",)


def test_hold_win_forgets_a_year_missed(small):
    s = with_centers(running(small, "RULE HOLD_WIN"), small, FRANCE="SPA POR")
    s, _ = winners(s, small, rules(s, small), 1901)
    s = with_centers(s, small, ITALY="SPA")
    s, won = winners(s, small, rules(s, small), 1902)
    assert won == () and s.power("FRANCE").messages == ()


def test_team_victory_counts_the_dummies_controlled(small):
    s = running(small, "TEAMS ENGLAND-FRANCE", "RULE TEAM_VICTORY")
    assert winners(s, small, rules(s, small), 1901)[1] == ("ENGLAND",)  # 3 + 3 centres
    plain = replace(s, rules=frozenset())
    assert winners(plain, small, rules(plain, small), 1901)[1] == ()


def test_victory_homes_counts_foreign_homes_only(standard):
    s = running(standard, "RULE VICTORY_HOMES")
    assert criterion(standard, rules(s, standard), 1901) == 10
    s = with_centers(s, standard, FRANCE="BEL HOL DEN NWY SWE SPA POR TUN GRE SER")
    assert winners(s, standard, rules(s, standard), 1901)[1] == ()
    s = with_centers(s, standard, FRANCE="MUN KIE BER LON EDI LVP ROM NAP VEN TRI")
    assert winners(s, standard, rules(s, standard), 1901)[1] == ("FRANCE",)


def vote_all(s, m, votes):
    events = []
    for power, vote in votes.items():
        s, events = cast_vote(s, m, power, vote, NOW)
    return s, events


DRAW7 = Vote(VoteKind.DRAW, 7)


def test_every_survivor_accepting_the_draw_ends_the_game(standard):
    s, events = vote_all(running(standard), standard, {p: DRAW7 for p in standard.powers})
    assert isinstance(events[-1], GameCompleted) and events[-1].kind == "draw"
    assert s.completed and len(s.result.victors) == 7


def test_garrison_tokens_give_a_vote_and_a_place_in_the_draw(standard):
    """Austria, its centres lost, holds GARRISON's `SC?` tokens: DPjudge counts it among those
    who vote (and so among those who draw)."""
    s = with_centers(running(standard, "RULE GARRISON"), standard, ITALY="VIE BUD TRI")
    s = s.with_power(replace(s.power("AUSTRIA"), owns=("SC?", "SC?")))
    s, events = vote_all(s, standard, {p: DRAW7 for p in standard.powers})
    assert isinstance(events[-1], GameCompleted) and "AUSTRIA" in s.result.victors


def test_a_smaller_draw_is_not_enough_without_no_dias(standard):
    votes = {p: DRAW7 for p in standard.powers} | {"ITALY": Vote(VoteKind.DRAW, 3)}
    s, events = vote_all(running(standard), standard, votes)
    assert not s.completed and isinstance(events[-1], VoteCast)


def test_a_lone_solo_vote_with_every_other_conceding(standard):
    votes = {p: Vote(VoteKind.LOSS) for p in standard.powers} | {"TURKEY": Vote(VoteKind.SOLO)}
    _, events = vote_all(running(standard), standard, votes)
    assert (events[-1].kind, events[-1].victors) == ("concession", ("TURKEY",))


def test_no_dias_draws_those_not_voting_loss(standard):
    votes = {p: Vote(VoteKind.LOSS) for p in standard.powers}
    votes |= {"ENGLAND": Vote(VoteKind.DRAW, 2), "FRANCE": Vote(VoteKind.DRAW, 3)}
    _, events = vote_all(running(standard, "RULE NO_DIAS"), standard, votes)
    assert (events[-1].kind, set(events[-1].victors)) == ("draw", {"ENGLAND", "FRANCE"})


def test_no_draw_refuses_every_draw(standard):
    s, _ = vote_all(running(standard, "RULE NO_DRAW"), standard, {p: DRAW7 for p in standard.powers})
    assert not s.completed
    assert vote_result(s, standard, rules(s, standard)) is None


def test_a_proposal_passes_when_all_vote_yes_and_dies_on_a_veto(standard):
    s = running(standard, "RULE PROPOSE_DIAS")
    s, events = propose(s, standard, "FRANCE", "DIAS", NOW)
    assert s.proposal.result == "DIAS" and s.power("FRANCE").vote == Vote(VoteKind.YES)
    s, events = cast_vote(s, standard, "ITALY", Vote(VoteKind.LOSS), NOW)
    assert s.proposal is None and events[0].vetoed
    s, _ = propose(s, standard, "FRANCE", "ENGLAND", NOW)
    s, events = vote_all(s, standard, {p: Vote(VoteKind.YES) for p in standard.powers if p != "FRANCE"})
    assert (events[-1].kind, events[-1].victors) == ("concession", ("ENGLAND",))


def test_yes_is_only_for_proposals(standard):
    with pytest.raises(GameError):
        cast_vote(running(standard), standard, "FRANCE", Vote(VoteKind.YES), NOW)


def test_rules_in_force_take_the_map_and_game_rules_and_turn_offs_unless_brought_in(testing, standard):
    s = running(testing, "RULE CIVIL_DISORDER")
    assert {"HIBERNATE", "CIVIL_DISORDER", "CD_DUMMIES", "NO_LATE_CHANGES"} <= rules_in_force(s, testing)
    s = replace(s, rules_off=frozenset({"HIBERNATE", "CD_DUMMIES"}), rules=s.rules | {"LATE_CHANGES"})
    found = rules_in_force(s, testing)
    # as DPjudge: `RULE !X` loses to a rule in force that brings X in (CIVIL_DISORDER: CD_DUMMIES)
    assert "HIBERNATE" not in found and "CD_DUMMIES" in found and "NO_LATE_CHANGES" not in found
    solitaire = running(standard, "RULE SOLITAIRE")
    assert {"NO_DEADLINE", "CD_DUMMIES", "DEFAULT_UNORDERED", "ALWAYS_WAIT"} <= rules_in_force(
        solitaire, standard)


# --- the RESULT and FINISH lines, as DPjudge writes them ---------------------------------------------

DPJUDGE_ENDED = Path(__file__).parent / "fixtures" / "dpjudge" / "ended"
SOLO = Path(__file__).parent.parent / "mailout" / "dpjudge" / "ended" / "solo.status"


def _ending_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.split(" ")[0] in ("PHASE", "RESULT", "FINISH")]


@pytest.mark.parametrize("before, saved", [(SOLO, "solo.saved"),
                                           (DPJUDGE_ENDED / "quiet.status", "quiet.saved")])
def test_the_game_ends_in_the_adjustment_phase_its_year_reached_as_dpjudge_writes(before, saved, standard):
    """A solo, or the votes counted at the year's end, in Fall 1901: DPjudge's processing had moved
    on to Winter 1901 when it found the end (even with nothing to adjust there): `RESULT W1901A ...`,
    and `FINISH` the day in its form."""
    after, _ = process_phase(parse_status(before.read_text()), standard, datetime(2026, 11, 24, 11, 34, tzinfo=UTC))
    recorded = (DPJUDGE_ENDED / saved).read_text(encoding="latin-1")
    assert _ending_lines(write_status(after)) == _ending_lines(recorded)


@pytest.mark.parametrize("saved", ["solo.saved", "quiet.saved"])
def test_dpjudges_ended_game_is_read_and_written_back_unchanged(saved, standard):
    text = (DPJUDGE_ENDED / saved).read_text(encoding="latin-1")
    status = parse_status(text)
    assert status.completed and status.result.last_phase == "W1901A"
    assert write_status(status) == text


def test_votes_between_phases_end_the_game_in_the_phase_played(standard):
    """DPjudge's end by agreement outside processing names the phase the game stands in."""
    s, _ = vote_all(running(standard), standard, {p: Vote(VoteKind.LOSS) for p in standard.powers
                                                  if p != "ITALY"} | {"ITALY": Vote(VoteKind.SOLO)})
    assert str(running(standard).phase) == "SPRING 1901 MOVEMENT"
    assert s.result.last_phase == "S1901M" and s.result.victors == ("ITALY",)
