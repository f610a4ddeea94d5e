"""The pages hold what the mail holds: what players wrote is escaped, every form needs its CSRF
token, a tampered session cookie is no sign-on, wrong passwords by web and by mail count together,
and a BLIND game's pages show each reader what its mails show."""
from __future__ import annotations

import re
from dataclasses import replace
from datetime import timedelta

import pytest

from judge.runtime.config import PasswordsSection
from judge.runtime.inbox import MailHandler

from .conftest import (
    BASE,
    Clock,
    form,
    judge_config,
    pages,
    password_of,
    raw_mail,
    sign_on,
    start_game,
)

pytestmark = pytest.mark.security
SCRIPT = "<script>alert(1)</script>"


def with_lines(config, game: str, **lines: str) -> None:
    """Lines added to the game block, as a Master editing the status file would."""
    path = config.paths.games / game / "status"
    head, _, rest = path.read_text().partition("\n")
    extra = "".join(f"{key} {value}\n" for key, value in lines.items())
    path.write_text(f"{head}\n{extra}{rest}")


def test_desc_and_name_written_by_the_master_are_escaped(client, config):
    with_lines(config, "quiet", DESC=SCRIPT, NAME='"><img src=x onerror=alert(1)>')
    page = client.get(BASE + "?game=quiet").text
    assert "<script>" not in page and "<img" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_press_a_player_wrote_is_escaped_in_the_answer(client, config):
    sign_on(client, config)
    page = form(client, "/do/press", text=SCRIPT).text
    assert "<script>" not in page and "&lt;script&gt;" in page


def test_a_game_name_in_the_address_is_escaped(client):
    page = client.get(BASE, params={"game": SCRIPT}).text
    assert "<script>" not in page


def test_a_form_without_its_csrf_token_is_refused(client, config):
    sign_on(client, config)
    answer = client.post(BASE + "/do/orders", data={"orders": "A PAR-BUR"})
    assert answer.status_code == 403
    status = (config.paths.games / "quiet" / "status").read_text()
    assert "BUR" not in status


def test_a_sign_on_without_its_csrf_token_is_refused(client, config):
    answer = client.post(BASE + "/signon", data={"game": "quiet", "power": "FRANCE",
                                                 "password": password_of(config, "FRANCE")})
    assert answer.status_code == 403


def test_a_wrong_csrf_token_is_refused(client, config):
    sign_on(client, config)
    answer = client.post(BASE + "/do/orders", data={"orders": "A PAR-BUR", "csrftoken": "x.y"})
    assert answer.status_code == 403


def test_a_tampered_session_cookie_is_no_sign_on(client, config):
    sign_on(client, config)
    cookie = client.cookies["judge_session"]
    client.cookies.set("judge_session", cookie[:-4] + ("AAAA" if cookie[-4:] != "AAAA" else "BBBB"),
                       domain="judge.test")
    assert client.get(BASE + "/power", follow_redirects=False).status_code == 303


def test_the_session_cookie_is_httponly_samesite_and_secure(client, config):
    answer = sign_on(client, config)
    cookie = answer.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie and "secure" in cookie
    assert "max-age=7200" in cookie


def test_a_sign_on_lapses_after_its_minutes(client, config, clock):
    sign_on(client, config)
    clock.now += timedelta(minutes=config.web.session_minutes, seconds=1)
    assert client.get(BASE + "/power", follow_redirects=False).status_code == 303


def guessing_judge(tmp_path):
    config = judge_config(tmp_path)
    config = replace(config, passwords=PasswordsSection(free_failures=2))
    handler = MailHandler(config)
    start_game(handler)
    return config, handler


@pytest.mark.parametrize("by_mail", [0, 1])
def test_wrong_passwords_by_web_and_by_mail_count_together(tmp_path, by_mail):
    config, handler = guessing_judge(tmp_path)
    clock = Clock()
    with pages(config, handler, clock) as client:
        assert sign_on(client, config, password="guess1").status_code == 403
        for n in range(by_mail):
            handler(raw_mail("stranger@else.test", f"SIGNON FRANCE@quiet guess{n + 2}\nSIGNOFF",
                             f"guess{n}"), clock())
        right = sign_on(client, config)
    # one wrong password: the right one still opens; a second, by mail, pauses the checks
    assert right.status_code == (303 if by_mail == 0 else 403)


def blind_judge(tmp_path):
    config = judge_config(tmp_path)
    handler = MailHandler(config)
    start_game(handler, "dark", "rule BLIND")
    return config, handler


def units_listed(page: str) -> set[str]:
    return set(re.findall(r"(?:Army|Fleet) ([A-Z][a-z]+)", page))


def test_a_blind_game_page_shows_no_board_to_a_stranger(tmp_path):
    config, handler = blind_judge(tmp_path)
    with pages(config, handler, Clock()) as client:
        page = client.get(BASE + "?game=dark").text
    assert "SIGNON first" in page and "<svg" not in page


def test_a_blind_game_shows_each_power_its_own_view(tmp_path):
    config, handler = blind_judge(tmp_path)
    seen = {}
    for power in ("FRANCE", "RUSSIA"):
        with pages(config, handler, Clock()) as client:
            assert sign_on(client, config, power, game="dark").status_code == 303
            seen[power] = client.get(BASE + "/power").text
    assert "Paris" in units_listed(seen["FRANCE"]) and "Moscow" not in units_listed(seen["FRANCE"])
    assert "Moscow" in units_listed(seen["RUSSIA"]) and "Paris" not in units_listed(seen["RUSSIA"])
    moscow = 'data-power="RUSSIA" data-type="A" data-place="MOS"'
    assert moscow in seen["RUSSIA"] and moscow not in seen["FRANCE"]


@pytest.mark.parametrize("name", ["quiet\nSIGNON FRANCE@quiet guess", "../quiet", "quiet extra"])
def test_a_game_name_that_is_not_one_word_reads_nothing(client, config, name):
    page = client.get(BASE, params={"game": name})
    assert page.status_code == 404
    assert not (config.paths.games / "quiet" / ".password-failures").exists()


@pytest.mark.parametrize("path, fields", [("/do/state", {"state": "terminated"}),
                                          ("/do/morph", {"lines": "VICTORY 17"})])
def test_the_masters_forms_are_refused_to_a_player(client, config, path, fields):
    sign_on(client, config)
    answer = form(client, path, **fields)
    assert "VICTORY 17" not in (config.paths.games / "quiet" / "status").read_text()
    assert "terminated" not in (config.paths.games / "quiet" / "status").read_text().lower()
    assert "Master" in answer.text


@pytest.mark.parametrize("path, fields", [("/do/state", {"state": "terminated"}),
                                          ("/do/morph", {"lines": "VICTORY 17"})])
def test_the_masters_forms_need_their_csrf_token(client, config, path, fields):
    sign_on(client, config, power="MASTER", password="masterpw")
    assert client.post(BASE + path, data=fields).status_code == 403
    assert "VICTORY 17" not in (config.paths.games / "quiet" / "status").read_text()


def test_map_lines_a_master_wrote_are_escaped_in_the_answer(client, config):
    sign_on(client, config, power="MASTER", password="masterpw")
    page = form(client, "/do/morph", lines=SCRIPT).text
    assert "<script>" not in page and "&lt;script&gt;" in page


def test_the_zone_form_needs_its_csrf_token(client):
    assert client.post(BASE + "/zone", data={"zone": "Asia/Tokyo"}).status_code == 403
    assert "Asia/Tokyo" not in client.get(BASE + "?game=quiet").text
