"""Results mails with the board's picture: a second MIME part after the text part, which is byte for
byte the mail without one; each player's SET MAP choice, the judge's default, and BLIND games."""
from __future__ import annotations

import email
import io
from dataclasses import replace
from datetime import UTC, datetime

import pytest
from PIL import Image

from judge.events import PhaseResults
from judge.identity import JudgeSection
from judge.limits import Limits
from judge.mailout.envelope import envelopes
from judge.mailout.mailings import Mailer
from judge.mailout.notices.results import results_picture
from judge.runtime.pictures import encoder

NOW = datetime(2025, 2, 10, 18, 0, tzinfo=UTC)
JUDGE = JudgeSection(id="TEST", address="judge@example.org", keeper="keeper@example.org")


draw = encoder(Limits())  # each picture made once in each format, as the runner makes them


@pytest.fixture
def processed(env, status, standard):
    from judge.game.schedule import on_process
    after, events = on_process(status, standard, NOW, force=True)
    return after, events


def _results(env, status, standard, events, **kw):
    mails = Mailer(env, status, standard, **kw).for_events(events, now=NOW)
    return next(m for m in mails if m.rendered.subject.startswith("Diplomacy results"))


def _sent(mailing, **kw):
    return [email.message_from_bytes(bytes(m)) for m in envelopes(JUDGE, mailing, now=NOW, key="k", **kw)]


def test_the_picture_follows_the_unchanged_text_part(env, standard, processed):
    status, events = processed
    plain = _sent(_results(env, status, standard, events))
    pictured = _sent(_results(env, status, standard, events, pictures=True), draw=draw, default_kind="png")
    assert len(plain) == len(pictured) > 1
    for without, with_ in zip(plain, pictured):
        assert not without.is_multipart()
        assert with_.get_content_type() == "multipart/mixed"
        text, image = with_.get_payload()
        assert text.get_content_type() == "text/plain"
        assert text.get_payload() == without.get_payload()  # as sent, before decoding
        assert text.get_payload(decode=True) == without.get_payload(decode=True)
        assert text["Content-Transfer-Encoding"] == without["Content-Transfer-Encoding"]
        assert text.get_content_charset() == without.get_content_charset()
        assert image.get_content_type() == "image/png"
        assert image.get_filename().endswith("-S1902M.png") and image.get_filename().startswith("jigdy")
        picture = Image.open(io.BytesIO(image.get_payload(decode=True)))
        assert picture.size[0] == 1200
        for header in ("Subject", "From", "To", "Message-ID", "Auto-Submitted"):
            assert with_[header] == without[header]


def test_each_player_gets_the_format_chosen_with_set_map(env, standard, processed):
    status, events = processed
    austria = status.power("AUSTRIA")  # two addresses: both get the PDF
    status = status.with_power(replace(austria, picture="PDF"))
    mailing = _results(env, status, standard, events, pictures=True)
    sent = {m["To"]: m for m in _sent(mailing, draw=draw, default_kind="svg")}
    assert {"anna@example.at", "anna.berg@uni.example.at", "ben@example.co.uk"} <= set(sent)
    for address, mail in sent.items():
        kind = mail.get_payload()[1].get_content_type()
        assert kind == ("application/pdf" if address in austria.address else "image/svg+xml")


def test_none_keeps_the_mail_plain_text(env, standard, processed):
    status, events = processed
    mailing = _results(env, status, standard, events, pictures=True)
    assert all(not m.is_multipart() for m in _sent(mailing, draw=draw, default_kind="none"))


def test_a_blind_games_results_carry_each_readers_own_picture(env, standard, processed):
    status, events = processed
    mails = Mailer(env, status, standard, pictures=True, rules=frozenset({"BLIND"})).for_events(events, now=NOW)
    results = [m for m in mails if m.rendered.subject.startswith("Diplomacy results")]
    assert len({m.picture.picture.svg for m in results}) > 1


def test_year_end_results_draw_the_captured_centres(env, standard, processed):
    status, events = processed
    results = next(e for e in events if isinstance(e, PhaseResults))
    event = replace(results, captured={"BEL": "FRANCE"})
    svg = results_picture(Mailer(env, status, standard, pictures=True), event).picture.svg
    assert 'data-place="BEL" data-owner="FRANCE"' in svg


def test_a_picture_that_cannot_be_made_leaves_the_text(env, standard, processed):
    status, events = processed
    mailing = _results(env, status, standard, events, pictures=True)
    assert all(not m.is_multipart() for m in _sent(mailing, draw=lambda p, k: None, default_kind="png"))


def test_the_picture_shows_the_phase_processed(env, standard, processed):
    status, events = processed
    results = next(e for e in events if isinstance(e, PhaseResults))
    mailing = _results(env, status, standard, events, pictures=True)
    svg = mailing.picture.picture.svg
    assert "jigdy: Spring 1902 Movement (results)" in svg
    assert svg.count('class="order ') == len(results.resolution.results)


def test_the_results_picture_draws_the_units_where_the_game_stands_after_the_phase(env, status, standard):
    import re

    from judge.game.schedule import on_process
    from tests.support.games import everyone_orders

    ordered = everyone_orders(status, {"FRANCE": ["A PAR-BUR", "F BRE-MAO"], "GERMANY": ["A MUN-RUH"]})
    status, events = on_process(ordered, standard, NOW, force=True)
    svg = _results(env, status, standard, events, pictures=True).picture.picture.svg
    drawn = sorted(re.findall(r'class="unit" data-power="(\w+)" data-type="(\w)" data-place="([\w/]+)"', svg))
    dislodged = re.findall(r'class="unit dislodged" data-power="(\w+)" data-type="\w" data-place="([\w/]+)"', svg)
    standing = sorted((p.name, u.type.value, u.location) for p in status.powers for u in p.units)
    assert drawn == standing and not dislodged  # the status written after the phase holds them
    assert ("FRANCE", "A", "BUR") in drawn and ("FRANCE", "A", "PAR") not in drawn


def test_a_preview_carries_the_picture_of_the_phase_it_would_process(env, status, standard):
    from judge.game.process import preview
    event = preview(status, standard, NOW)
    plain = Mailer(env, status, standard).for_events([event], now=NOW)
    [mailing] = Mailer(env, status, standard, pictures=True).for_events([event], now=NOW)
    assert [m.rendered for m in plain] == [mailing.rendered] and mailing.recipients == plain[0].recipients
    assert "jigdy: Spring 1902 Movement (results)" in mailing.picture.picture.svg
    [sent] = _sent(mailing, draw=draw, default_kind="png")
    text, image = sent.get_payload()
    assert text.get_payload() == _sent(plain[0])[0].get_payload() and image.get_content_type() == "image/png"


def test_a_blind_games_preview_shows_the_master_the_whole_board(env, status, standard):
    from judge.game.process import preview
    event = preview(status, standard, NOW)
    [mailing] = Mailer(env, status, standard, pictures=True, rules=frozenset({"BLIND"})).for_events([event], now=NOW)
    svg = mailing.picture.picture.svg
    assert svg.count('class="order ') == len(event.results.resolution.results) and 'data-owner="?"' not in svg
