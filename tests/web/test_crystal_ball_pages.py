"""A Crystal Ball power's page: its lists for the turns ahead shown as its orders mail shows them,
and sent through the orders form into the list the mail would fill."""
from __future__ import annotations

import pytest

from .conftest import BASE, PLAYERS, form, pages, raw_mail, sign_on


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
