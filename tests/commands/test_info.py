"""LIST, SUMMARY, HISTORY and MAP."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from judge.commands.documents import unit_name
from judge.commands.reply import PictureRequest
from judge.runtime.game_files import index_game
from judge.runtime.store import GameDir
from judge.status.model import GameStage
from tests.support.commands import Judge, eml


def test_list_shows_games_to_join_or_waiting(judge):
    judge.add("vienna")
    judge.add("forming")
    judge.add("fall")
    sent = judge.send("list_all.eml")
    text = "\n".join(sent.outcome("LIST").lines)
    assert "forming" in text and "6 seats open" in text
    assert "vienna" in text and "needs ITALY" in text
    assert "fall " not in text  # running, nobody needed
    assert "JOIN gamename" in text and "TAKEOVER power@gamename" in text


def test_list_of_vacancies_only_invites_a_takeover(vienna):
    text = "\n".join(vienna.send("list_all.eml").outcome("LIST").lines)
    assert "needs ITALY" in text
    assert "TAKEOVER power@gamename yourPassword" in text and "JOIN" not in text


def test_list_of_a_game(vienna):
    text = vienna.send("list_game.eml").text
    assert "Game 'vienna' is waiting for Italy to be taken over." in text
    assert "\nStatus of the Movement phase for Spring of 1902.  (vienna.S1902M)\n\n" \
           "Austria: Army Budapest.\n" in text
    assert "  France:                  5/5      someone@somewhere\n" in text
    assert "France: Army Burgundy.\n" in text and "Ownership of supply centers:" in text
    assert "anna" not in text and "chloe" not in text  # no player's address


def test_list_of_a_game_without_deadlines_shows_none(judge):
    judge.add("vienna", rules=("NO_DEADLINE",))  # its DEADLINE line is not in force
    text = judge.send("list_game.eml").text
    assert "(vienna.S1902M)" in text and "has a deadline" not in text and ":: Deadline:" not in text


def test_list_of_a_blind_game_hides_the_board(judge):
    judge.add("vienna", rules=("BLIND",))
    text = judge.send("list_game.eml").text
    assert "  France:                  ?/?      someone@somewhere" in text
    assert "Army Burgundy" not in text and "Ownership" not in text


def test_list_of_a_blind_game_to_its_player_shows_what_its_units_see(judge):
    judge.add("vienna", rules=("BLIND",))
    text = judge.send(eml("list_other_after_signon.eml", (b"LIST forming", b"LIST"))).text
    assert "Army Burgundy" in text and "Fleet Mid-Atlantic Ocean" in text  # France's own
    assert "Army Ruhr" in text and "Army Munich" in text  # German, both next to Burgundy
    assert "Army Belgium" in text  # English, next to Burgundy and Picardy
    assert "Army Budapest" not in text and "Ownership" in text and "Vienna" not in text


def test_summary_of_a_blind_game_in_play_shows_no_centres(judge):
    judge.add("vienna", rules=("BLIND",))
    signed = eml("list_other_after_signon.eml", (b"LIST forming", b"SUMMARY"))
    for mail in ("summary.eml", signed):
        text = "\n".join(judge.send(mail).outcome("SUMMARY").lines)
        assert "Supply centres" not in text and "@" not in text


def test_history_of_a_blind_game_in_play_is_refused(judge):
    judge.add("vienna", rules=("BLIND",))
    (judge.store.root / "vienna" / "results").write_text("Spring 1901 results\nA PAR - BUR\n")
    sent = judge.send("history.eml")
    assert sent.failed and "A PAR" not in sent.text


def test_history_of_a_finished_blind_game_shows_every_part(judge):
    judge.add("vienna", rules=("BLIND",), phase=GameStage.COMPLETED)
    (judge.store.root / "vienna" / "results").write_text(
        "Results\nSHOW MASTER FRANCE\nFrance: Army Paris HOLD.\nSHOW GERMANY\n"
        "France: Army Burgundy FOUND.\nSHOW\nEnd\n")
    text = judge.send("history.eml").text
    assert "Results\nFrance: Army Paris HOLD.\nFrance: Army Burgundy FOUND.\nEnd\n" in text
    assert "SHOW" not in text


def test_after_signon_list_is_for_that_game_only(vienna):
    vienna.add("forming")
    sent = vienna.send("list_other_after_signon.eml")
    assert sent.failed and "only for game 'vienna'" in sent.text


def test_summary_hides_the_players_until_the_end(vienna):
    archive = Path(__file__).parent.parent / "game" / "fixtures" / "dpjudge" / "hist.results"
    (vienna.store.root / "vienna" / "results").write_bytes(archive.read_bytes())
    text = vienna.send("summary.eml").text
    assert "  Italy:                                 someone@somewhere\n" \
           "   from S1902M:   vacant                 *\n" in text
    assert "elena" not in text and "Anna" not in text
    assert "Summary of game vienna through W1901A." in text


def test_history_of_a_game_without_results(vienna):
    sent = vienna.send("history.eml")
    assert "No history available for game 'vienna'." in sent.text


def test_history_mails_the_results_archive_as_it_is(vienna):
    (vienna.store.root / "vienna" / "results").write_text("Spring 1901 results\nA PAR - BUR\n")
    sent = vienna.send("history.eml")
    assert "> HISTORY vienna\n\nSpring 1901 results\nA PAR - BUR\n" in sent.text


def test_map_asks_for_the_board_as_a_png_and_the_mail_goes_on(vienna):
    sent = vienna.send("map.eml")
    assert "The board of game 'vienna', SPRING 1902 MOVEMENT, is attached (PNG)." in sent.text
    assert sent.reply.pictures == (PictureRequest("vienna", "png"),) and not sent.failed
    assert sent.outcome("LIST").ok


@pytest.mark.parametrize("line, kind", [(b"MAP vienna pdf", "pdf"), (b"MAP vienna SVG", "svg"),
                                        (b"MAP vienna gif", "png"), (b"MAP vienna ps", "pdf")])
def test_map_takes_a_format_as_dpjudge_does(vienna, line, kind):
    sent = vienna.send(eml("map.eml", (b"MAP vienna", line)))
    assert sent.reply.pictures == (PictureRequest("vienna", kind),)


def test_map_of_a_blind_game_in_play_needs_a_signon(judge):
    judge.add("vienna", rules=("BLIND",))
    sent = judge.send("map.eml")
    assert sent.failed and "SIGNON first: each power of BLIND game 'vienna' sees its own MAP" in sent.text
    assert sent.reply.pictures == ()


def test_map_of_a_blind_game_draws_what_list_shows_the_power(judge, standard):
    judge.add("vienna", rules=("BLIND",))
    sent = judge.send(eml("list_other_after_signon.eml", (b"LIST forming", b"LIST\nMAP")))
    [request] = sent.reply.pictures
    listed = set(re.findall(r"^(\w+): ((?:Army|Fleet) [^.]+)\.$", sent.text, re.M))
    drawn = {(standard.powers[p].display, unit_name(standard, u))
             for p, units in request.seen.units.items() for u in units}
    assert drawn == listed and ("Germany", "Army Ruhr") in drawn and len(drawn) == 8
    assert dict(request.seen.centers) == {"FRANCE": {"BRE", "MAR", "PAR", "POR", "SPA"}}
    assert request.full_sight == {"FRANCE"}


def test_map_of_a_blind_game_shows_the_master_everything(judge):
    judge.add("vienna", rules=("BLIND",))
    sent = judge.send(eml("master_preview.eml", (b"PREVIEW", b"MAP")))
    [request] = sent.reply.pictures
    assert sum(len(us) for us in request.seen.units.values()) == 34
    assert request.full_sight == set(request.seen.units)


def test_map_of_an_unknown_game_is_refused(vienna):
    sent = vienna.send(eml("map.eml", (b"MAP vienna", b"MAP nowhere png")))
    assert sent.failed and "there is no game 'nowhere'" in sent.text


def test_a_path_is_not_a_game(vienna):
    (vienna.store.root.parent / "status").write_text("GAME secret\nPHASE FORMING\n")
    sent = vienna.send(eml("list_game.eml", (b"LIST vienna", b"LIST ../")))
    assert sent.failed and "there is no game '../'" in sent.text
    sent = vienna.send(eml("list_game.eml", (b"LIST vienna", b"SUMMARY ..")))
    assert sent.failed and "secret" not in sent.text


ARCHIVE = ("From judge@example.org Mon Nov 30 04:00:00 2026\n"
           "Subject: Diplomacy results vienna F1901M\n\n"
           "Movement results for Fall of 1901.  (vienna.F1901M)\n\n"
           "Ownership of supply centers:\n\n"
           "Austria:    Budapest, Serbia, Trieste, Vienna.\n"
           "France:     Brest, Marseilles, Paris, Spain.\n\n")


def completed_with_archive(judge, *rules: str) -> None:
    from judge.status.model import GameStage
    judge.add("vienna", rules=rules, phase=GameStage.COMPLETED)
    (judge.store.root / "vienna" / "results").write_text(ARCHIVE)


def test_summary_of_a_completed_game_names_the_players(judge):
    completed_with_archive(judge)
    assert "someone@somewhere" not in judge.send("summary.eml").text


def test_summary_of_a_completed_no_reveal_game_hides_them_until_reveal(judge):
    completed_with_archive(judge, "NO_REVEAL")
    text = judge.send("summary.eml").text
    assert "someone@somewhere" in text and "France" in text
    assert "are revealed" in judge.send("master_reveal.eml").text
    assert "NO_REVEAL" in judge.status("vienna").rules_off
    assert "someone@somewhere" not in judge.send("summary.eml").text


def test_list_never_names_eavesdrop(judge):
    judge.add("vienna", rules=("EAVESDROP", "NO_DRAW"))
    text = judge.send("list_game.eml").text
    assert "Rules:    CIVIL_DISORDER, DEFAULT_UNORDERED, NO_DRAW." in text and "EAVESDROP" not in text


@pytest.mark.parametrize("rules, said", [
    ((), "One or more powers have not yet submitted orders."),
    (("LIST_UNORDERED",),
     "The following players have not yet submitted orders:\nEngland, Germany, Italy, and Russia\n"),
])
def test_list_unordered_names_the_powers_that_owe_orders(judge, rules, said):
    judge.add("vienna", rules=rules, need=())  # (no seat to fill: the deadline is what LIST tells)
    text = judge.send("list_game.eml").text
    assert said in text and ("England" in text.split("submitted orders")[1][:40]) == bool(rules)


def test_list_shows_a_dummy_as_dpjudge_does_under_hide_dummies_too(judge):
    """DPjudge's roster marks a dummy `dummy` whatever the rules; HIDE_DUMMIES hides only whose
    vassal it is (and a dummy's part in press and votes)."""
    judge.add("winter", rules=("HIDE_DUMMIES",), fixture="winter")
    text = judge.send(eml("list_game.eml", (b"LIST vienna", b"LIST winter"))).text
    assert "  Russia:         dummy    6/5      *" in text


def test_a_game_named_with_a_dash_is_reached_by_mail(judge):
    """DPjudge's game names may hold a dash: a game moved in keeps its name."""
    judge.add("old-game", fixture="vienna")
    sent = judge.send(eml("list_game.eml", (b"LIST vienna", b"LIST old-game")))
    assert not sent.failed and "Game: old-game" in sent.text


LISTED = Path(__file__).parent / "dpjudge" / "list"


def test_a_bare_list_names_the_games_dpjudge_names(tmp_path):
    """Two forming games, `privy` PRIVATE: DPjudge's LIST, from a stranger (recorded in
    `dpjudge/list/`), names `open` alone. Its Master still finds `privy` in the judge's LIST,
    marked private."""
    judge = Judge(tmp_path)
    for game in ("open", "privy"):
        judge.store.create(game, (LISTED / f"{game}.status").read_text())
    named = [line.split()[0] for line in (LISTED / "stranger.reply").read_text().splitlines()
             if line[:1].isalpha()]
    lines = judge.send(eml("list_all.eml")).outcome("LIST").lines
    assert [line.split()[0] for line in lines[1:-1]] == named == ["open"]
    for_master = judge.send(eml("list_all.eml", (b"sam@example.net", b"gm@example.org")))
    assert "6 seats open (private)" in for_master.text


def test_a_bare_list_reads_only_the_games_the_index_may_list(tmp_path):
    """A DPjudge games folder: DPjudge's LIST reads its games index alone, naming the games it
    says are forming or waiting. A game it says is active or completed is not even read (its
    status file here would say FORMING, and a broken one would be logged as unreadable); a game
    with no line is read to know."""
    judge = Judge(tmp_path)
    for game in ("open", "stale", "ended", "unindexed"):
        judge.store.create(game, (LISTED / "open.status").read_text().replace(
            "GAME open", f"GAME {game}"))
    (judge.store.root / "ended" / "status").write_text("GAME ended\nNO SUCH LINE\n")
    (judge.store.root / "status").write_text(
        "%32s standard forming\n%32s standard active\n%32s standard completed\n"
        % ("open", "stale", "ended"))
    lines = judge.send(eml("list_all.eml")).outcome("LIST").lines
    assert [line.split()[0] for line in lines[1:-1]] == ["open", "unindexed"]


def test_list_names_a_variant_beside_the_map_as_dpjudge_does(judge):
    """DPjudge's LIST: `Variant: standard xtalball` in its `::` line (the standard game leaves it
    unsaid), and the map, the variant and No DIAS in its parameters."""
    status = judge.add("vienna", variant="xtalball", rules=("NO_DIAS",))
    index_game(GameDir(judge.store.root / "vienna"), status)  # the variant is the index's word
    text = judge.send("list_game.eml").text
    assert ":: Judge: TEST  Game: vienna  Variant: standard xtalball\n" in text
    assert "  Variant:  Standard, Xtalball, No DIAS.\n" in text


def test_list_of_a_standard_game_names_its_map_alone(vienna):
    text = vienna.send("list_game.eml").text
    assert ":: Judge: TEST  Game: vienna  Variant: standard \n" in text
    assert "  Variant:  Standard.\n" in text


def test_a_bare_list_parses_the_games_index_once_however_many_games(judge, monkeypatch):
    """Games DPjudge left (no state file: their standing is the games index's): a stranger's LIST
    reads the index through the judge's kept reader, not once a game."""
    import judge.runtime.game_files as game_files

    for name in ("forming", "fall", "vienna"):
        index_game(GameDir(judge.store.root / name), judge.add(name))
        (judge.store.root / name / "state").unlink(missing_ok=True)
    parses = []
    real = game_files.parse_index
    monkeypatch.setattr(game_files, "parse_index", lambda text: parses.append(1) or real(text))
    text = "\n".join(judge.send("list_all.eml").outcome("LIST").lines)
    assert "forming" in text and "vienna" in text
    assert len(parses) == 1
