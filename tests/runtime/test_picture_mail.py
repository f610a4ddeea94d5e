"""Pictures in the mails the runner sends: MAP's reply carries the board, results mails carry the
processed phase (PNG by default, as `[maps] attach` says otherwise), text parts unchanged."""
from __future__ import annotations

import io
import re
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from PIL import Image

from judge.limits import Limits
from judge.runtime.config import Config, JudgeSection, MapsSection, PathsSection
from judge.runtime.inbox import MailHandler
from judge.status import parse_status, write_status
from judge.status.model import GameResult, GameStage

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
MASTER = "gm@players.test"
PLAYERS = tuple(f"player{n}@players.test" for n in range(7))


def config(tmp_path: Path, attach: str = "png") -> Config:
    return Config(judge=JudgeSection(id="TEST", address="judge@judge.test", keeper="keeper@judge.test"),
                  paths=PathsSection(games=tmp_path / "games", maps=tmp_path / "maps", spool=tmp_path / "spool"),
                  maps=MapsSection(attach=attach))


def send(handler: MailHandler, sender: str, body: str, n: int):
    raw = (f"Return-Path: <{sender}>\r\nFrom: {sender}\r\nTo: judge@judge.test\r\n"
           f"Subject: m{n}\r\nMessage-ID: <m{n}@players.test>\r\n\r\n{body}\r\n").encode()
    return handler(raw, NOW + timedelta(minutes=n))


@pytest.fixture
def started(tmp_path: Path) -> Path:
    handler = MailHandler(config(tmp_path))
    for n, (sender, body) in enumerate([(MASTER, "CREATE quiet masterpw\nmap standard\nform"),
                                        *((p, f"JOIN quiet pw{k}") for k, p in enumerate(PLAYERS))]):
        send(handler, sender, body, n)
    return tmp_path


def test_map_replies_with_the_board_attached(started):
    [reply] = send(MailHandler(config(started)), "stranger@elsewhere.test", "MAP quiet", 20)
    text, picture = reply.iter_parts()
    assert "The board of game 'quiet', SPRING 1901 MOVEMENT, is attached (PNG)." in text.get_content()
    assert picture.get_content_type() == "image/png" and picture.get_filename() == "quiet-S1901M.png"
    assert Image.open(io.BytesIO(picture.get_content())).size[0] == 1200


def test_map_of_a_finished_game_shows_its_last_position(started):
    path = started / "games" / "quiet" / "status"
    status = parse_status(path.read_text())
    path.write_text(write_status(replace(status, phase=GameStage.COMPLETED,
                                         result=GameResult("F1903M", ("FRANCE",)))))
    [reply] = send(MailHandler(config(started)), "stranger@elsewhere.test", "MAP quiet svg", 20)
    picture = list(reply.iter_parts())[1]
    assert picture.get_filename() == "quiet-F1903M.svg"
    assert "quiet: Fall 1903 Movement" in picture.get_content().decode()


def test_map_in_pdf_and_svg(started):
    handler = MailHandler(config(started))
    [pdf] = send(handler, "stranger@elsewhere.test", "MAP quiet pdf", 20)
    assert list(pdf.iter_parts())[1].get_content().startswith(b"%PDF-")
    [svg] = send(handler, "stranger@elsewhere.test", "MAP quiet svg", 21)
    assert list(svg.iter_parts())[1].get_content_type() == "image/svg+xml"


@pytest.mark.parametrize("limit", [{"picture_pixels": 1000}, {"picture_bytes": 1000}])
def test_a_map_past_the_picture_limits_says_it_is_not_attached(started, limit):
    limited = replace(config(started), limits=replace(Limits(), **limit))
    [reply] = send(MailHandler(limited), "stranger@elsewhere.test", "MAP quiet pdf", 20)
    assert not reply.is_multipart()
    text = " ".join(reply.get_content().split())
    assert "The board of game 'quiet', SPRING 1901 MOVEMENT, could not be drawn as PDF within " \
           "the judge's limits: no picture is attached." in text and "is attached (PDF)" not in text


def test_the_bytes_of_maps_pictures_count_against_the_senders_replies(started):
    [probe] = send(MailHandler(config(started)), "probe@elsewhere.test", "MAP quiet", 19)
    size = len(list(probe.iter_parts())[1].get_content())
    unit = size // 4  # a board counts as four replies more
    limited = replace(config(started), limits=replace(Limits(), replies_per_sender=7,
                                                      reply_picture_bytes=unit))
    handler = MailHandler(limited)
    [first] = send(handler, "stranger@elsewhere.test", "MAP quiet", 20)
    assert first.is_multipart()
    [second] = send(handler, "stranger@elsewhere.test", "MAP quiet", 21)
    assert not second.is_multipart()
    assert "is not attached: its size would pass the replies this address may get now" in \
        " ".join(second.get_content().split())
    other = replace(config(started), limits=replace(Limits(), replies_per_sender=3))
    assert all(send(MailHandler(other), "else@elsewhere.test", "MAP quiet", 30 + n)[0]
               .is_multipart() for n in range(3))  # by default a board counts as one reply


def test_a_failed_map_has_no_picture(started):
    [reply] = send(MailHandler(config(started)), "stranger@elsewhere.test", "MAP nowhere", 20)
    assert not reply.is_multipart()


@pytest.mark.parametrize("attach, kind", [("png", "image/png"), ("none", None)])
def test_results_mails_carry_the_processed_phase(started, attach, kind):
    handler = MailHandler(config(started, attach))
    sent = send(handler, MASTER, "SIGNON Mquiet masterpw\nPROCESS!", 30)
    results = [m for m in sent if str(m["Subject"]).startswith("Diplomacy results")]
    assert len(results) == 8  # the seven players and the Master
    for mail in results:
        if kind is None:
            assert not mail.is_multipart()
        else:
            text, picture = mail.iter_parts()
            assert text.get_content_type() == "text/plain" and picture.get_content_type() == kind
            assert picture.get_filename() == "quiet-S1901M.png"


def test_map_of_a_forming_game_shows_the_maps_start(tmp_path):
    handler = MailHandler(config(tmp_path))
    send(handler, MASTER, "CREATE quiet masterpw\nmap standard\nform", 0)
    [reply] = send(handler, "stranger@elsewhere.test", "MAP quiet svg", 1)
    svg = list(reply.iter_parts())[1].get_content()
    svg = svg.decode() if isinstance(svg, bytes) else svg
    assert svg.count('class="unit"') == 22 and "quiet: Spring 1901 Movement" in svg


def test_map_of_a_blind_game_draws_what_the_power_signed_on_sees(tmp_path):
    handler = MailHandler(config(tmp_path))
    for n, (sender, body) in enumerate([(MASTER, "CREATE dark masterpw\nmap standard\nrule BLIND\nform"),
                                        *((p, f"JOIN dark pw{k}") for k, p in enumerate(PLAYERS))]):
        send(handler, sender, body, n)
    status = (tmp_path / "games" / "dark" / "status").read_text()
    player = int(re.search(r"^POWER ENGLAND\nPLAYER [^|]*\|player(\d)@", status, re.M).group(1))
    [reply] = send(handler, PLAYERS[player], f"SIGNON Edark pw{player}\nMAP svg", 20)
    svg = list(reply.iter_parts())[1].get_content()
    svg = svg.decode() if isinstance(svg, bytes) else svg
    drawn = set(re.findall(r'class="unit" data-power="(\w+)"', svg))
    assert drawn == {"ENGLAND"}  # no foreign unit stands next to England's at the start
    [whole] = send(handler, MASTER, "SIGNON Mdark masterpw\nMAP svg", 21)
    svg = list(whole.iter_parts())[1].get_content()
    svg = svg.decode() if isinstance(svg, bytes) else svg
    assert svg.count('class="unit"') == 22


def test_preview_mails_the_master_the_picture_after_the_text(started):
    sent = send(MailHandler(config(started)), MASTER, "SIGNON Mquiet masterpw\nPREVIEW", 30)
    [preview] = [m for m in sent if m.is_multipart()]
    text, picture = preview.iter_parts()
    assert "Movement results for Spring of 1901" in text.get_content()
    assert picture.get_content_type() == "image/png" and picture.get_filename() == "quiet-S1901M.png"


def test_only_the_first_map_of_a_mail_says_attached_and_is(started):
    [reply] = send(MailHandler(config(started)), "stranger@elsewhere.test",
                   "MAP quiet\nMAP quiet svg\nMAP quiet", 20)
    text, picture, *more = reply.iter_parts()
    assert more == [] and picture.get_filename() == "quiet-S1901M.png"
    said = " ".join(text.get_content().split())
    board = "The board of game 'quiet', SPRING 1901 MOVEMENT,"
    assert said.count("is attached") == 1 and f"{board} is attached (PNG)." in said
    assert f"{board} as SVG, is not attached: a reply carries one picture, that of the first " \
           "MAP." in said
    assert f"{board} as PNG, is not attached" in said
