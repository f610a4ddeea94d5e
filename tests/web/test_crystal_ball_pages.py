"""A Crystal Ball power's page: its lists for the turns ahead shown as its orders mail shows them,
and sent through the orders form into the list the mail would fill; under PUBLIC_LISTS the game
page's phase view shows the lists each movement phase played, as its lists mail shows them."""
from __future__ import annotations

import pytest

from judge.web.views import lists_section

from .conftest import BASE, MASTER, PLAYERS, form, pages, raw_mail, sign_on


HOLDS = {"AUSTRIA": "A VIE", "ENGLAND": "F LON", "GERMANY": "A BER", "ITALY": "A ROM",
         "RUSSIA": "A MOS", "TURKEY": "A CON"}


@pytest.fixture
def ball(config, handler, clock):
    """A Crystal Ball game ("ball") started by mail beside the standard one."""
    mails = [("gm@players.test", "CREATE ball masterpw xtalball\nmap standard\nform"),
             *((p, f"JOIN ball pw{k}") for k, p in enumerate(PLAYERS))]
    for n, (sender, body) in enumerate(mails):
        handler(raw_mail(sender, body, f"ball{n}"), clock.now)
    with pages(config, handler, clock) as made:
        yield made


def send_list(client, config, power, orders):
    sign_on(client, config, power, game="ball")
    return form(client, "/do/orders", orders=orders)


def test_the_first_list_sent_by_the_page_is_the_list_for_this_movement_phase(ball, config):
    send_list(ball, config, "FRANCE", "A PAR-BUR\nA MAR-SPA\nF BRE-MAO")
    page = ball.get(BASE + "/power").text
    assert "are your list for this movement phase" in page
    assert "This movement phase</h3>\n<pre class=\"text\">A PAR - BUR\nA MAR - SPA\nF BRE - MAO</pre>" in page
    status = (config.paths.games / "ball" / "status").read_text()
    assert "SOONER\nA PAR - BUR" in status


def test_once_the_lists_are_locked_the_page_shows_both_and_fills_the_later(ball, config):
    send_list(ball, config, "FRANCE", "A PAR-BUR")
    for power, unit in HOLDS.items():
        answer = send_list(ball, config, power, f"{unit} H")
        assert "were not stored" not in answer.text
    answer = send_list(ball, config, "FRANCE", "A BUR-MUN")
    assert "were not stored" not in answer.text
    page = ball.get(BASE + "/power").text
    assert "Next movement phase (locked)</h3>\n<pre class=\"text\">A PAR - BUR</pre>" in page
    assert "Subsequent movement phase</h3>\n<pre class=\"text\">A BUR - MUN</pre>" in page
    assert "LATER\nA BUR - MUN" in (config.paths.games / "ball" / "status").read_text()


def test_a_standard_games_page_shows_no_lists(client, config):
    sign_on(client, config)
    assert "Crystal Ball" not in client.get(BASE + "/power").text


FRANCE_LIST = "A PAR-BUR\nA PAR-PIC\nA PAR-GAS\nA MAR-SPA\nA PAR-BUR\nF BRE-MAO"  # six lines


def played_spring(client, config, handler, clock, rules: str) -> str:
    """The Spring 1901 lists sent by the pages under `rules`, the phase processed by the Master;
    the game page's view of that phase."""
    path = config.paths.games / "ball" / "status"
    path.write_text(path.read_text().replace("\nMAP standard\n", f"\nMAP standard\n{rules}", 1))
    send_list(client, config, "FRANCE", FRANCE_LIST)
    for power, unit in HOLDS.items():
        send_list(client, config, power, f"{unit} H")
    handler(raw_mail(MASTER, "SIGNON MASTER@ball masterpw\nPROCESS!", "ballp"), clock())
    return client.get(BASE + "?game=ball&phase=0").text


def test_public_lists_shows_the_lists_played_on_the_phase_view_as_the_mail_shows_them(ball, config, handler, clock):
    page = played_spring(ball, config, handler, clock, "RULE PUBLIC_LISTS\n")
    assert "Diplomacy results ball S1901M" in page
    lists = page.split("<h3>Crystal Ball lists played</h3>")[1].split("</pre>")[0]
    assert "SPRING 1901 MOVEMENT ORDERS\n===========================\n" in lists
    assert "France:   [revoked] A PAR - BUR\n" in lists and "France:   [ignored] F BRE - MAO" in lists
    assert "Austria:  [ordered] A VIE H\nAustria:  [default] A BUD H" in lists


def test_limit_lists_cuts_each_list_on_the_page_as_in_the_mail(ball, config, handler, clock):
    """One line more than the largest power's four centres: France's sixth line is not shown, nor
    the default hold after it."""
    page = played_spring(ball, config, handler, clock, "RULE PUBLIC_LISTS\nRULE LIMIT_LISTS\n")
    lists = page.split("<h3>Crystal Ball lists played</h3>")[1].split("</pre>")[0]
    assert "France:   [ignored] A PAR - BUR" in lists and "F BRE - MAO" not in lists and "F BRE H" not in lists


def test_without_public_lists_the_page_shows_no_lists(ball, config, handler, clock):
    page = played_spring(ball, config, handler, clock, "")
    assert "Diplomacy results ball S1901M" in page and "Crystal Ball lists played" not in page
    assert "SPRING 1901 MOVEMENT ORDERS" in (config.paths.games / "ball" / "lists").read_text()


def test_a_blind_games_page_shows_no_lists(ball, config, handler, clock):
    """BLIND turns PUBLIC_LISTS off (the rule table), and its page shows no phase while it is
    played: the lists kept are not shown."""
    page = played_spring(ball, config, handler, clock, "RULE BLIND\n")
    assert "Crystal Ball lists played" not in page
    assert "SPRING 1901 MOVEMENT ORDERS" in (config.paths.games / "ball" / "lists").read_text()


def test_a_phase_played_again_after_a_rollback_shows_its_last_lists():
    kept = ("SPRING 1901 MOVEMENT ORDERS\n===========================\nFrance:   [ordered] A PAR H\n\n"
            "FALL 1901 MOVEMENT ORDERS\n=========================\nFrance:   [ordered] A PAR - BUR\n\n"
            "SPRING 1901 MOVEMENT ORDERS\n===========================\nFrance:   [ordered] A PAR - PIC\n\n")
    assert lists_section(kept, "SPRING 1901 MOVEMENT ORDERS").endswith("[ordered] A PAR - PIC")
    assert lists_section(kept, "FALL 1901 MOVEMENT ORDERS").endswith("[ordered] A PAR - BUR")
    assert lists_section(kept, "SPRING 1902 MOVEMENT ORDERS") is None
