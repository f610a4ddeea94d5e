"""The press on the pages: a power's own archive (sent and received, newest first, paged), the
public press on the game's page, the Master's, each showing a reader only what its mail showed
(anonymity, FAKE FROM and FAKE TO, BLIND), and everything a player wrote escaped."""
from __future__ import annotations

import re
from datetime import timedelta

import pytest

from judge.runtime.inbox import MailHandler
from judge.runtime.press_file import PRESS_FILE
from judge.web.deadline import moments
from judge.web.views import PRESS_PAGE

from .conftest import (
    BASE,
    MASTER,
    NOW,
    Clock,
    form,
    judge_config,
    pages,
    raw_mail,
    sign_on,
    start_game,
)

SCRIPT = "<script>alert(1)</script>"


def player_of(config, power: str, game: str) -> tuple[str, str]:
    """The address and password of the player who JOINed as `power`."""
    block = (config.paths.games / game / "status").read_text().split(f"POWER {power}\n")[1]
    address = block.split("ADDRESS ")[1].split()[0]
    return address, "pw" + address.removeprefix("player").split("@")[0]


def mail_press(handler, config, game: str, power: str, lines: list[str], n: int) -> None:
    address, password = player_of(config, power, game)
    if power == "MASTER":
        address, password = MASTER, "masterpw"
    body = "\n".join([f"SIGNON {power}@{game} {password}", *lines, "SIGNOFF"])
    handler(raw_mail(address, body, f"press{game}{n}"), NOW + timedelta(hours=1, minutes=n))


def judge_with(tmp_path, game: str, *rules: str):
    config = judge_config(tmp_path)
    handler = MailHandler(config)
    start_game(handler, game, *(f"rule {r}" for r in rules))
    return config, handler


def page_of(config, handler, power: str | None, game: str, query: str = "") -> str:
    with pages(config, handler, Clock()) as client:
        if power is None:
            return client.get(f"{BASE}?game={game}{query}").text
        password = "masterpw" if power == "MASTER" else player_of(config, power, game)[1]
        assert sign_on(client, config, power, password, game).status_code == 303
        return client.get(f"{BASE}/power{query}").text


def press_part(page: str) -> str:
    """The page's press archive, up to the next heading after it."""
    return page.split('id="press"')[1].split("<h2")[0]


@pytest.fixture
def fake_game(tmp_path):
    """FRANCE writes to ENGLAND as from GERMANY and tells her it went to ENGLAND and ITALY;
    RUSSIA broadcasts; TURKEY writes to AUSTRIA."""
    config, handler = judge_with(tmp_path, "fake", "FAKE_PRESS")
    mail_press(handler, config, "fake", "FRANCE",
               ["PRESS TO ENGLAND FAKE TO ENGLAND,ITALY FROM GERMANY", "Secret plan", "ENDPRESS"], 1)
    mail_press(handler, config, "fake", "RUSSIA", ["BROADCAST", "Hello all", "ENDBROADCAST"], 2)
    mail_press(handler, config, "fake", "TURKEY", ["PRESS TO AUSTRIA", "Just us", "ENDPRESS"], 3)
    return config, handler


def test_the_receiver_sees_only_what_its_mail_told(fake_game):
    config, handler = fake_game
    england = press_part(page_of(config, handler, "ENGLAND", "fake"))
    assert "Secret plan" in england and "from GERMANY" in england
    assert "to ENGLAND, ITALY" in england and "FRANCE" not in england
    assert "Just us" not in england and "Hello all" in england


def test_the_sender_sees_the_truth_and_what_was_shown(fake_game):
    config, handler = fake_game
    france = press_part(page_of(config, handler, "FRANCE", "fake"))
    assert "Secret plan" in france and "you sent this" in france
    assert "shown as from GERMANY" in france and "in truth from FRANCE to ENGLAND" in france


def test_a_power_neither_sender_nor_reader_sees_nothing_of_it(fake_game):
    config, handler = fake_game
    italy = press_part(page_of(config, handler, "ITALY", "fake"))
    assert "Secret plan" not in italy and "Just us" not in italy and "Hello all" in italy


def test_the_public_page_shows_broadcasts_only(fake_game):
    config, handler = fake_game
    public = press_part(page_of(config, handler, None, "fake"))
    assert "Hello all" in public and "from RUSSIA" in public
    assert "Secret plan" not in public and "Just us" not in public


def test_the_master_sees_what_the_masters_mail_shows(fake_game):
    config, handler = fake_game
    master = press_part(page_of(config, handler, "MASTER", "fake"))
    # the Master reads broadcasts (without PRESS_MASTER), not private press he was not sent
    assert "Hello all" in master and "Secret plan" not in master and "Just us" not in master


def test_the_master_listening_reads_private_press_as_it_was(tmp_path):
    config, handler = judge_with(tmp_path, "ears", "EAVESDROP", "FAKE_PRESS")
    mail_press(handler, config, "ears", "FRANCE",
               ["PRESS TO ENGLAND FROM GERMANY", "Overheard", "ENDPRESS"], 1)
    master = press_part(page_of(config, handler, "MASTER", "ears"))
    assert "Overheard" in master and "in truth from FRANCE to ENGLAND" in master


def test_grey_press_is_anonymous_to_its_reader(tmp_path):
    config, handler = judge_with(tmp_path, "grey", "GREY_PRESS")
    mail_press(handler, config, "grey", "FRANCE", ["PRESS TO ENGLAND", "Guess who", "ENDPRESS"], 1)
    england = press_part(page_of(config, handler, "ENGLAND", "grey"))
    assert "Guess who" in england and "from anonymous" in england and "FRANCE" not in england


def test_a_blind_games_press_shows_each_reader_its_own(tmp_path):
    config, handler = judge_with(tmp_path, "dark", "BLIND")
    mail_press(handler, config, "dark", "FRANCE", ["PRESS TO ENGLAND", "Dark words", "ENDPRESS"], 1)
    seen = {power: press_part(page_of(config, handler, power, "dark"))
            for power in ("FRANCE", "ENGLAND", "RUSSIA")}
    assert "Dark words" in seen["FRANCE"] and "Dark words" in seen["ENGLAND"]
    assert "Dark words" not in seen["RUSSIA"]
    assert "Dark words" not in page_of(config, handler, None, "dark")


def test_payloads_in_bodies_and_fake_names_are_escaped(tmp_path):
    config, handler = judge_with(tmp_path, "xss", "FAKE_PRESS")
    mail_press(handler, config, "xss", "FRANCE", ["BROADCAST", SCRIPT, "ENDBROADCAST"], 1)
    mail_press(handler, config, "xss", "FRANCE",
               ["PRESS TO ENGLAND FROM GERMANY", '"><img src=x onerror=alert(1)>', "ENDPRESS"], 2)
    for power in (None, "ENGLAND", "FRANCE", "MASTER"):
        page = page_of(config, handler, power, "xss")
        assert "<script>alert" not in page and "<img" not in page
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_the_archive_is_newest_first_and_paged(tmp_path):
    config, handler = judge_with(tmp_path, "talky")
    for n in range(PRESS_PAGE + 2):
        mail_press(handler, config, "talky", "FRANCE", ["BROADCAST", f"Word {n:02}", "ENDBROADCAST"], n)
    first = press_part(page_of(config, handler, "ENGLAND", "talky"))
    numbers = [int(w) for w in re.findall(r"Word (\d+)", first)]
    assert numbers == list(range(PRESS_PAGE + 1, 1, -1)) and "older" in first
    second = press_part(page_of(config, handler, "ENGLAND", "talky", "?press=1"))
    assert re.findall(r"Word (\d+)", second) == ["01", "00"] and "newer" in second
    assert "Word 00" in press_part(page_of(config, handler, None, "talky", "&press=1"))


def test_a_bad_page_number_shows_the_newest(tmp_path):
    config, handler = judge_with(tmp_path, "odd")
    mail_press(handler, config, "odd", "FRANCE", ["BROADCAST", "Only one", "ENDBROADCAST"], 1)
    assert "Only one" in page_of(config, handler, None, "odd", "&press=x")


def test_a_press_sent_by_web_is_on_the_pages(tmp_path):
    config, handler = judge_with(tmp_path, "webby")
    with pages(config, handler, Clock()) as client:
        sign_on(client, config, "FRANCE", player_of(config, "FRANCE", "webby")[1], "webby")
        form(client, "/do/press", to="ENGLAND", text="By the web")
        assert "By the web" in press_part(client.get(BASE + "/power").text)
    assert "By the web" in press_part(page_of(config, handler, "ENGLAND", "webby"))
    assert (config.paths.games / "webby" / PRESS_FILE).exists()


def test_a_name_in_the_kept_file_is_escaped_too(tmp_path):
    """FROM takes only a power of the game, so a name in the file is one a hand put there: still
    escaped."""
    config, handler = judge_with(tmp_path, "edited", "FAKE_PRESS")
    mail_press(handler, config, "edited", "FRANCE", ["BROADCAST FROM GERMANY", "Hi", "ENDBROADCAST"], 1)
    path = config.paths.games / "edited" / PRESS_FILE
    path.write_text(path.read_text().replace('"GERMANY"', '"<img src=x onerror=alert(1)>"'))
    page = page_of(config, handler, None, "edited")
    assert "<img" not in page and "&lt;img src=x onerror=alert(1)&gt;" in page


def test_a_damaged_kept_file_shows_no_press_and_no_error(tmp_path):
    config, handler = judge_with(tmp_path, "broken")
    (config.paths.games / "broken" / PRESS_FILE).write_text("{not json\n")
    assert "None" in press_part(page_of(config, handler, None, "broken"))


def test_a_messages_time_is_shown_in_utc_not_as_stored(fake_game):
    config, handler = fake_game
    public = press_part(page_of(config, handler, None, "fake"))
    sent = NOW + timedelta(hours=1, minutes=2)  # Russia's broadcast
    assert f"{sent:%a %b %d %Y %H:%M} UTC" in public and sent.isoformat() not in public


def test_a_kept_time_is_shown_in_the_readers_zone_too():
    assert moments("2026-03-01T13:01:00+00:00", "Europe/Paris") == \
        "Sun Mar 01 2026 13:01 UTC, Sun Mar 01 2026 14:01 Europe/Paris"
    assert moments("2026-03-01T13:01:00+00:00") == "Sun Mar 01 2026 13:01 UTC"
    assert moments("not a time") == "not a time"
