"""The results archive in DPjudge's layout: entries written, read, cut by a rollback, and what one
reader of a BLIND game may see (SHOW lines), against archives and replies DPjudge itself wrote."""
from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from judge.game.archive import cut_at, entries, entry_text, for_reader, from_line, restated
from judge.status.parser import decode_status

FIXTURES = Path(__file__).parent / "fixtures" / "dpjudge"


def recorded(name: str) -> str:
    return decode_status((FIXTURES / name).read_bytes())[0]


def reply_body(name: str) -> str:
    return recorded(name).split("\n\n", 1)[1]


def test_the_entries_of_an_archive_dpjudge_wrote():
    found = entries(recorded("hist.results"))
    assert [e.subject for e in found] == [f"Diplomacy results hist {p}"
                                          for p in ("S1901M", "F1901M", "W1901A")]
    assert [e.phase for e in found] == ["S1901M", "F1901M", "W1901A"]
    assert found[0].lines[0].startswith(":: Judge: DPJT  Game: hist")


def test_a_rollback_leaves_the_archive_as_dpjudge_leaves_it():
    cut = cut_at(recorded("hist.results"), "hist", "F1901M")
    assert cut == recorded("hist.rolled_back_to_F1901M.results")
    assert cut == reply_body("history_after_rollback.reply")


def test_a_rollback_to_a_phase_not_archived_keeps_everything():
    text = recorded("hist.results")
    assert cut_at(text, "hist", "S1905M") == text
    assert cut_at(text, "hist", "S1901M") == ""


def test_a_blind_reader_sees_what_dpjudge_mailed_him():
    assert for_reader(recorded("blindy.results"), {"AUSTRIA"}) == \
        reply_body("history_blind_austria.reply")


def test_the_master_sees_the_parts_shown_to_the_master():
    seen = for_reader(recorded("blindy.results"), {"MASTER"})
    assert "Austria: Army Budapest -> Serbia." in seen
    assert "FOUND" not in seen and "SHOW" not in seen


def test_a_completed_blind_game_shows_every_part():
    seen = for_reader(recorded("blindy.results"))
    assert "Austria: Army Serbia FOUND." in seen and "Turkey: Army Smyrna -> Armenia." in seen
    assert not any(line.startswith("SHOW") for line in seen.split("\n"))


def test_an_archive_without_show_lines_is_read_as_it_is():
    text = recorded("hist.results")
    assert for_reader(text, {"AUSTRIA"}) == text


def test_latin1_archives_are_read():
    text = "From j@x Mon Nov 30 04:00:00 2026\nSubject: Diplomacy results g S1901M\n\nGen\u00e8ve.\n"
    assert decode_status(text.encode("latin-1"))[0] == text
    assert decode_status(text.encode("utf-8"))[0] == text


@pytest.mark.parametrize("when, line", [
    (datetime(2026, 11, 24, 8, 18, tzinfo=UTC), "From judge@localhost Tue Nov 24 08:18:00 2026"),
    (datetime(2026, 11, 1, 4, 0, tzinfo=UTC), "From judge@localhost Sun Nov  1 04:00:00 2026"),
])
def test_the_from_line_is_a_mail_box_separator(when, line):
    assert from_line("judge@localhost", when) == line


def test_an_entry_written_is_read_back_like_dpjudge_s():
    first = recorded("hist.results").split("From judge@localhost", 2)[1]
    subject, body = first.split("\n", 2)[1][len("Subject: "):], first.split("\n\n", 1)[1]
    text = entry_text("judge@localhost", datetime(2026, 11, 24, 8, 18, tzinfo=UTC), subject, body)
    assert text == "From judge@localhost" + first


def test_parts_for_some_readers_are_marked_with_show_lines():
    text = entry_text("j@x", datetime(2026, 1, 1, tzinfo=UTC), "Diplomacy results g S1901M",
                      [("Movement results.\n", None), ("Austria: Army Vienna HOLD.", ("AUSTRIA", "MASTER")),
                       ("Italy: Army Venice FOUND.", ("AUSTRIA",)), ("\nThe next phase.", None)])
    body = entries(text)[0].lines
    assert list(body) == ["Movement results.", "SHOW AUSTRIA MASTER", "Austria: Army Vienna HOLD.",
                          "SHOW AUSTRIA", "Italy: Army Venice FOUND.", "SHOW", "", "The next phase.",
                          "", ""]
    assert "Italy" not in for_reader(text, {"MASTER"}) and "Italy" in for_reader(text, {"AUSTRIA"})


LAST = "The next phase of 'g' will be Movement for Fall of 1901.\n"


def test_the_last_deadline_sentence_is_restated_when_the_deadline_moved():
    text = LAST + "The deadline for orders will be Monday 30 November 2026 04:00 GMT.\n\n"
    assert restated(text, "Wednesday 2 December 2026 18:00 GMT") == (
        LAST, "The deadline for orders will be Wednesday 2 December 2026 18:00 GMT.\n\n")


@pytest.mark.parametrize("text", [
    LAST + "The deadline for orders will be Monday 30 November 2026 04:00 GMT.\n\n",  # unchanged
    LAST + "SHOW\n\n",  # a BLIND entry's last part: DPjudge leaves it too
    "The game is over.  Thank you for playing.\n\n", ""])
def test_an_archive_not_ending_with_another_deadline_stays(text):
    assert restated(text, "Monday 30 November 2026 04:00 GMT") is None
