"""CREATE with status lines and FORM, PURGE, RENAME."""
from __future__ import annotations

import pytest

from judge.app.game_names import Creator
from judge.commands.dispatch import run_mail
from judge.notices import GameRenamed
from judge.commands.session import NotReadAhead, ReadAhead
from judge.mailin.message import Incoming
from judge.passwords import verify
from judge.runtime.game_files import read_index, read_status_file
from judge.runtime.store import GameDir
from judge.status.model import Dppd
from tests.support.commands import NOW, SETTINGS, eml


def test_create_with_status_lines_and_form(judge):
    sent = judge.send("create.eml")
    assert "Game 'mygame' has been created on the standard map" in sent.text
    assert "JOIN mygame password privacyPassword." in sent.text
    assert "CREATE mygame ***" in sent.text and "masterPw" not in sent.text
    status = judge.status("mygame")
    assert status.forming and status.master == Dppd("NO-ID", "gm@example.org", "")
    assert verify("masterPw", status.password) and status.private == "PRIVACYPW"
    assert {"NO_PRESS", "COASTAL_CONVOY", "POWER_CHOICE"} <= status.rules
    assert status.description == ("A standard game on the standard map.",)
    assert status.timing == "move 2d"


def test_create_without_lines(judge):
    sent = judge.send("create_plain.eml")
    assert not sent.failed and judge.status("plain").map_name == "standard"
    assert "It is in preparation" in sent.text and "SIGNON Mplain password" in sent.text


def test_create_ignores_game_master_and_phase_lines(judge):
    sent = judge.send("create_ignored_lines.eml")
    status = judge.status("other")
    assert status.name == "other" and status.forming
    assert status.master.email == "gm@example.org" and "PUBLIC_PRESS" in status.rules
    assert "GAME hijack (ignored: the judge writes it)" in sent.text


def test_create_with_bad_lines_creates_nothing(judge):
    sent = judge.send("create_bad_lines.eml")
    assert sent.failed and "the game was not created" in sent.text
    assert "TIMING NEXT: expected a whole number" in sent.text
    assert "unknown time zone 'Mars/Olympus'" in sent.text
    assert "MAP nosuchmap: there is no such map on this judge" in sent.text
    assert not judge.store.exists("broken")


def test_create_refuses_a_taken_name_a_variant_and_a_bad_name(vienna):
    assert "already exists" in vienna.send("create_exists.eml").text
    assert "'chess' is not played" in vienna.send("create_variant.eml").text
    assert "is not a game name" in vienna.send("create_bad_name.eml").text


def test_create_a_crystal_ball_game_names_its_variant_in_the_games_index(judge):
    assert not judge.send(eml("create_plain.eml", (b"CREATE plain pw1", b"CREATE plain pw1 xtalball"))).failed
    assert read_index(judge.store.root)["plain"].variant == "xtalball"
    assert read_status_file(GameDir(judge.store.root / "plain"))[1].variant == "xtalball"


def test_create_with_a_morph_stanza(judge):
    assert not judge.send("create_morph.eml").failed
    assert judge.status("morphed").morphs == ("DUMMY ITALY GERMANY",)


def test_purge_a_game_nobody_joined(judge):
    judge.add("empty")
    sent = judge.send("purge.eml")
    assert sent.outcome("PURGE").lines == ("Game 'empty' has been purged.",)
    assert not judge.store.exists("empty")
    assert next((judge.store.root / ".purged").iterdir()).name.startswith("empty-")


def test_purge_refused_once_players_joined(judge):
    judge.add("forming")
    sent = judge.send("purge_joined.eml")
    assert sent.failed and "players have joined (POWER#1)" in sent.text
    assert judge.store.exists("forming")


def test_purge_needs_the_masters_password(judge):
    judge.add("empty")
    assert "wrong Master password" in judge.send("purge_wrong.eml").text
    assert judge.store.exists("empty")


def test_the_judgekeeper_purges_any_game(vienna):
    assert not vienna.send("purge_keeper.eml").failed
    assert not vienna.store.exists("vienna")


def test_rename(vienna):
    (vienna.store.root / "vienna" / "status.S1901M").write_text(vienna.text("vienna"))
    sent = vienna.send("rename.eml")
    assert "Game 'vienna' is now called 'wien'." in sent.text
    assert vienna.status("wien").name == "wien" and not vienna.store.exists("vienna")
    assert (vienna.store.root / "wien" / "status.S1901M").read_text().startswith("GAME wien")
    renamed = sent.events_of(GameRenamed)[0]
    assert "chloe@example.fr" in renamed.addresses and "joe@blow.com" in renamed.addresses


def test_rename_to_a_taken_name(vienna):
    vienna.add("forming")
    sent = vienna.send("rename_taken.eml")
    assert sent.failed and "already exists" in sent.text


def test_create_solitaire_starts_at_once_with_every_power_a_dummy(judge):
    """SOLITAIRE, as DPjudge: a private game (privacy word SOLITAIRE) with no seat to fill, begun
    as it forms, every power a dummy for the Master."""
    sent = judge.send(eml("create.eml", (b"private privacyPw\r\n", b""),
                          (b"rule power_choice", b"rule solitaire")))
    assert "Game 'mygame' has started: the phase is SPRING 1901 MOVEMENT." in sent.text
    status = judge.status("mygame")
    assert status.private == "SOLITAIRE" and str(status.phase) == "SPRING 1901 MOVEMENT"
    assert all(b.player.dummy for b in status.powers if b.is_power)


def test_form_starts_a_solitaire_game(judge):
    judge.send(eml("create.eml", (b"rule power_choice", b"rule solitaire"), (b"\nform\r\n", b"\n")))
    assert judge.status("mygame").forming
    sent = judge.send(eml("master_form.eml", (b"Mforming gmpass", b"Mmygame masterPw")))
    assert "has started" in sent.text and not judge.status("mygame").forming


def test_create_refuses_unknown_excluding_and_other_variant_rules(judge):
    from tests.support.commands import eml
    sent = judge.send(eml("create_bad_lines.eml", (b"TIMING NEXT soon\r\nZONE Mars/Olympus\r\nMAP nosuchmap",
                                                    b"RULE NO_DRAW FOOBAR\nRULE PUBLIC_TOTALS\n"
                                                    b"RULE BUILD_ANY HOME_BUILDS")))
    assert sent.failed and "the game was not created" in sent.text
    assert "broken (CREATE):5: NO SUCH RULE: FOOBAR" in sent.text
    assert "broken (CREATE):6: RULE PUBLIC_TOTALS REQUIRES PAYOLA VARIANT" in sent.text
    assert "broken (CREATE):7: RULE BUILD_ANY AND RULE HOME_BUILDS EXCLUDE EACH OTHER" in sent.text
    assert not judge.store.exists("broken")


def test_create_refuses_a_rule_the_judge_does_not_apply_yet(judge, monkeypatch):
    """Every rule of the standard game is applied today: one is marked otherwise for the test."""
    from dataclasses import replace as changed

    from judge.game import rules
    from tests.support.commands import eml
    monkeypatch.setitem(rules.TABLE, "GARRISON", changed(rules.TABLE["GARRISON"], implemented=False))
    sent = judge.send(eml("create_bad_lines.eml", (b"TIMING NEXT soon\r\nZONE Mars/Olympus\r\nMAP nosuchmap",
                                                    b"RULE GARRISON")))
    assert "broken (CREATE):5: RULE GARRISON IS NOT IMPLEMENTED ON THIS JUDGE" in sent.text
    assert not judge.store.exists("broken")


class NothingToRead:
    """A door that has read everything ahead: the commands may ask it nothing."""

    def __getattr__(self, name):
        raise AssertionError(f"the commands read {name} of the store")


def create_mail(*lines: str) -> Incoming:
    return Incoming("anne@example.org", "create", "<1@example.org>", (), lines)


@pytest.mark.parametrize("ahead, refused", [
    (ReadAhead(taken={"mygame": True}, creator=Creator(0, 0)), "a game named 'mygame' already exists"),
    (ReadAhead(taken={"mygame": False}, creator=Creator(5, 0)), "Master of 5 games not yet started"),
    (ReadAhead(taken={"mygame": False}, creator=Creator(0, 10)), "created 10 games in the last 24"),
])
def test_create_reads_the_names_taken_and_the_senders_games_as_its_door_read_them(ahead, refused):
    reply, _, _ = run_mail(create_mail("CREATE mygame masterPw"), NothingToRead(), SETTINGS, NOW, ahead)
    assert reply is not None and refused in " ".join(reply.outcomes[0].lines)


@pytest.mark.parametrize("ahead, needed", [
    (ReadAhead(), ("mygame", False)),
    (ReadAhead(taken={"mygame": False}), (None, True)),
])
def test_create_asks_its_door_for_what_it_has_not_read(ahead, needed):
    with pytest.raises(NotReadAhead) as asked:
        run_mail(create_mail("CREATE mygame masterPw"), NothingToRead(), SETTINGS, NOW, ahead)
    assert (asked.value.taken, asked.value.creator) == needed
