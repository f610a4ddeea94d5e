"""The pages through Starlette's test client: the index, a game's page, signing on, each form and
its refusals; every form is the mail it stands for."""
from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from judge.web.app import base_path
from judge.web.deadline import deadlines
from tests.support.games import forming

from .conftest import BASE, MASTER, form, outbox_of, raw_mail, sign_on


def test_index_lists_the_game_in_play_linking_to_its_page(client):
    page = client.get(BASE)
    assert page.status_code == 200
    assert f'href="{BASE}?game=quiet"' in page.text
    assert "In play" in page.text


def test_the_game_page_is_at_the_url_the_mails_print(client):
    page = client.get(BASE + "?game=quiet")
    assert page.status_code == 200
    assert "Game quiet" in page.text and "SPRING 1901 MOVEMENT" in page.text.upper()
    assert "<svg" in page.text  # the board drawn inline, as MAP draws it


def test_an_unknown_game_is_refused_with_a_page(client):
    page = client.get(BASE + "?game=nosuch")
    assert page.status_code == 404
    assert "no game" in page.text


def test_every_page_has_a_strict_content_security_policy(client):
    policy = client.get(BASE).headers["content-security-policy"]
    assert "default-src 'none'" in policy and "script-src 'self';" in policy
    assert "unsafe" not in policy


def test_sign_on_with_the_right_password_opens_the_powers_page(client, config):
    answer = sign_on(client, config)
    assert answer.status_code == 303
    page = client.get(BASE + "/power")
    assert page.status_code == 200
    assert "FRANCE in" in page.text


def test_a_wrong_password_is_refused_with_the_mails_words(client, config):
    answer = sign_on(client, config, password="wrong")
    assert answer.status_code == 403
    assert "wrong password" in answer.text


def test_the_powers_page_needs_a_sign_on(client):
    assert client.get(BASE + "/power", follow_redirects=False).status_code == 303


def test_orders_by_web_are_answered_line_by_line(client, config):
    sign_on(client, config)
    answer = form(client, "/do/orders", orders="A PAR-BUR\nA MAR-XYZ\nF BRE-MAO")
    assert answer.status_code == 200
    assert "A MAR-XYZ: no such place &#39;XYZ&#39;" in answer.text
    assert "were not stored" in answer.text
    answer = form(client, "/do/orders", orders="A PAR-BUR\nA MAR-SPA\nF BRE-MAO")
    status = (config.paths.games / "quiet" / "status").read_text()
    assert "BUR" in status.split("POWER FRANCE")[1].split("POWER")[0]


def test_a_form_before_sign_on_is_refused(client):
    assert form(client, "/do/orders", orders="A PAR-BUR").status_code == 403


def test_press_to_a_chosen_power_reaches_it_by_mail(client, config):
    sign_on(client, config)
    before = len(outbox_of(config))
    answer = form(client, "/do/press", to="ENGLAND", text="Shall we talk?")
    assert answer.status_code == 200
    new = outbox_of(config)[before:]
    england = config.paths.games / "quiet" / "status"
    address = england.read_text().split("POWER ENGLAND\n")[1].split("ADDRESS ")[1].split()[0]
    assert any(address.encode() in raw and b"Shall we talk?" in raw for raw in new)


def test_a_vote_and_the_settings_go_through_the_mail_commands(client, config):
    sign_on(client, config)
    assert form(client, "/do/vote", vote="SOLO").status_code == 200
    assert form(client, "/do/address", address="new@players.test").status_code == 200
    status = (config.paths.games / "quiet" / "status").read_text()
    assert "new@players.test" in status.split("POWER FRANCE")[1].split("POWER")[0]


def test_a_field_of_two_lines_is_refused(client, config):
    sign_on(client, config)
    answer = form(client, "/do/vote", vote="SOLO\nRESIGN")
    assert answer.status_code == 400


def test_a_new_password_set_by_web_keeps_the_sign_on(client, config):
    sign_on(client, config)
    assert form(client, "/do/password", password="fresh1").status_code == 200
    assert client.get(BASE + "/power").status_code == 200
    client.cookies.clear()
    assert sign_on(client, config, password="fresh1").status_code == 303


def test_the_master_processes_by_web(client, config):
    assert sign_on(client, config, power="MASTER", password="masterpw").status_code == 303
    page = client.get(BASE + "/power")
    assert "PROCESS" in page.text
    answer = form(client, "/do/master", action="PROCESS")
    assert "not ready for processing: orders are missing" in answer.text
    answer = form(client, "/do/master", action="PROCESS!")
    assert answer.status_code == 200
    status = (config.paths.games / "quiet" / "status").read_text()
    assert "FALL 1901 MOVEMENT" in status


def test_an_unknown_master_action_is_refused(client, config):
    sign_on(client, config, power="MASTER", password="masterpw")
    assert form(client, "/do/master", action="PURGE").status_code == 400


def test_sign_off_ends_the_session(client, config):
    sign_on(client, config)
    form(client, "/signoff")
    assert client.get(BASE + "/power", follow_redirects=False).status_code == 303


@pytest.mark.parametrize("url, base", [("", ""), ("https://judge.test/games", "/games"),
                                       ("https://judge.test/", ""),
                                       ("http://judge.test:8080/a/b/", "/a/b")])
def test_the_pages_answer_at_the_path_of_the_judges_url(url, base):
    assert base_path(url) == base


def test_the_powers_page_shows_its_orders_on_file(client, config):
    sign_on(client, config)
    form(client, "/do/orders", orders="A PAR-BUR\nA MAR-SPA\nF BRE-MAO")
    page = client.get(BASE + "/power").text
    assert "Orders on file for SPRING 1901 MOVEMENT" in page
    assert "A PAR - BUR" in page and "F BRE - MAO" in page


def test_the_results_archive_phase_by_phase_with_each_phases_board(client, handler, clock):
    for n in range(2):
        handler(raw_mail(MASTER, "SIGNON MASTER@quiet masterpw\nPROCESS!", f"p{n}"), clock())
    page = client.get(BASE + "?game=quiet&phase=0").text
    assert "<h2>Diplomacy results quiet S1901M</h2>" in page
    assert "phase=1\">next</a>" in page and "previous" not in page
    assert "<svg" in page
    last = client.get(BASE + "?game=quiet&phase=1").text
    assert "Diplomacy results quiet F1901M" in last and "phase=0\">previous</a>" in last


def test_the_index_treats_the_games_as_a_bare_list_does(client, handler, clock):
    for n, body in enumerate(["CREATE open1 pw1\nmap standard\nform",
                              "CREATE shy pw2\nmap standard\nform",
                              "SIGNON MASTER@shy pw2\nSET UNLISTED",
                              "CREATE soon pw3\nmap standard"]):
        handler(raw_mail(MASTER, body, f"i{n}"), clock())
    page = client.get(BASE).text
    open_to_join = page.split("<h2>Open to join</h2>")[1].split("<h2>")[0]
    assert "?game=open1" in open_to_join
    assert "?game=quiet" in page.split("<h2>In play</h2>")[1].split("<h2>")[0]
    assert "?game=shy" not in page and "?game=soon" not in page  # unlisted; in preparation
    assert client.get(BASE + "?game=soon").status_code == 404


def test_a_finished_games_page_tells_its_summary(client, config):
    path = config.paths.games / "quiet" / "status"
    path.write_text(path.read_text().replace("PHASE SPRING 1901 MOVEMENT", "PHASE COMPLETED", 1))
    page = client.get(BASE + "?game=quiet").text
    assert "No LIST available" not in page
    assert "&gt; SUMMARY quiet" in page and "<svg" in page


def test_a_board_the_page_draws_is_not_said_to_be_attached(client, config):
    sign_on(client, config)
    for page in (client.get(BASE + "?game=quiet").text, client.get(BASE + "/power").text):
        assert "attached" not in page
        assert "is drawn below." in page and "<svg" in page


def master_page(client, config):
    assert sign_on(client, config, power="MASTER", password="masterpw").status_code == 303
    return client.get(BASE + "/power").text


def test_the_masters_state_pulldown_offers_what_dpjudges_does(client, config):
    page = master_page(client, config)
    pulldown = page.split('<select name="state">')[1].split("</select>")[0]
    assert pulldown == ('<option value="active" selected>Active</option>'
                        '<option value="waiting">Waiting</option>'
                        '<option value="terminated">Terminated</option>')


def test_the_master_holds_and_resumes_the_game_by_its_state(client, config):
    master_page(client, config)
    answer = form(client, "/do/state", state="waiting")
    assert answer.status_code == 200 and "is waiting" in answer.text
    assert '<option value="waiting" selected>' in client.get(BASE + "/power").text
    form(client, "/do/state", state="active")
    assert '<option value="active" selected>' in client.get(BASE + "/power").text


@pytest.mark.parametrize("state", ["completed", "preparation", "ACTIVATE"])
def test_a_state_the_master_cannot_choose_is_refused(client, config, state):
    master_page(client, config)
    answer = form(client, "/do/state", state=state)
    assert answer.status_code == 400 and "completed by its end" in answer.text


def test_morph_by_web_changes_the_games_map_as_the_mail_does(client, config):
    master_page(client, config)
    answer = form(client, "/do/morph", lines="VICTORY 17\n")
    assert answer.status_code == 200 and "1 map line added" in answer.text
    status = (config.paths.games / "quiet" / "status").read_text()
    assert "VICTORY 17" in status


def test_a_morph_that_would_close_its_own_block_is_refused(client, config):
    master_page(client, config)
    answer = form(client, "/do/morph", lines="VICTORY 17\nEND MORPH\nPROCESS!")
    assert answer.status_code == 400
    assert "VICTORY 17" not in (config.paths.games / "quiet" / "status").read_text()


def zone_token(client, game: str = "quiet") -> str:
    page = client.get(BASE + f"/zone?game={game}").text
    return page.split('name="csrftoken" value="')[1].split('"')[0]


def the_deadline(config) -> datetime:
    status = (config.paths.games / "quiet" / "status").read_text()
    stamp = status.split("\nDEADLINE ")[1].split()[0]
    return datetime.strptime(stamp, "%Y%m%d%H%M").replace(tzinfo=ZoneInfo("GMT"))


def test_the_deadline_is_shown_in_the_zone_the_reader_chose(client, config):
    page = client.get(BASE + "?game=quiet").text
    assert "Asia/Tokyo" not in page and "Show it in your time zone" in page
    answer = client.post(BASE + "/zone", data={"csrftoken": zone_token(client), "zone": "Asia/Tokyo",
                                               "game": "quiet"}, follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == BASE + "?game=quiet"
    tokyo = the_deadline(config).astimezone(ZoneInfo("Asia/Tokyo"))
    page = client.get(BASE + "?game=quiet").text
    assert f"{tokyo:%a %b %d %Y %H:%M} Asia/Tokyo" in page
    assert f"{the_deadline(config):%a %b %d %Y %H:%M} GMT" in page


def test_the_readers_zone_is_kept_across_a_sign_on(client, config):
    client.post(BASE + "/zone", data={"csrftoken": zone_token(client), "zone": "America/Lima"})
    sign_on(client, config)
    assert "America/Lima" in client.get(BASE + "?game=quiet").text


@pytest.mark.parametrize("zone", ["Mars/Olympus", "../../etc/passwd", "", "<b>x</b>"])
def test_a_zone_not_in_the_list_is_refused(client, zone):
    answer = client.post(BASE + "/zone", data={"csrftoken": zone_token(client), "zone": zone})
    assert answer.status_code == 400 and "choose a time zone" in answer.text
    assert "<b>x" not in answer.text


def test_the_zone_page_offers_the_browsers_zone_by_a_script_file_only(client):
    page = client.get(BASE + "/zone?game=quiet").text
    assert '<option>Europe/Paris</option>' in page
    assert page.count("<script") == 1 and f'<script src="{BASE}/web.js" defer></script>' in page
    script = client.get(BASE + "/web.js")
    assert script.headers["content-type"].startswith("text/javascript")
    assert "resolvedOptions().timeZone" in script.text


def test_the_orders_box_carries_any_mail_line_as_the_mail_would(client, config):
    sign_on(client, config)
    answer = form(client, "/do/orders", orders="A PAR-BUR\nSET WAIT")
    assert "FRANCE will wait for the deadline." in answer.text
    status = (config.paths.games / "quiet" / "status").read_text()
    assert "\nWAIT" in status.split("POWER FRANCE")[1].split("POWER")[0]


def test_the_deadline_shown_is_the_one_on_file_on_the_games_clock_and_in_utc():
    paris = replace(forming(), deadline="202501101200", zone="Europe/Paris")
    assert deadlines(paris) == ["Fri Jan 10 2025 12:00 Europe/Paris", "Fri Jan 10 2025 11:00 UTC"]
    assert deadlines(replace(paris, deadline="2025011012")) == []  # unreadable: none shown
    assert deadlines(replace(paris, deadline=None)) == []
