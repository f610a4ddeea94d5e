"""The Master's status-file page: an edit is saved only when the whole file passes the checks a
game must pass to be played, a bad one refused with file:line: what and nothing written; the
rules form edits the same file the same way; only the game's Master may use either."""
from __future__ import annotations

import pytest

from .conftest import BASE, form, sign_on

pytestmark = pytest.mark.security
SCRIPT = "<script>alert(1)</script>"


def status_path(config):
    return config.paths.games / "quiet" / "status"


@pytest.fixture
def master(client, config):
    assert sign_on(client, config, power="MASTER", password="masterpw").status_code == 303
    return client


def test_the_master_reads_the_status_file_in_the_editor(master, config):
    page = master.get(BASE + "/status")
    assert page.status_code == 200
    assert "GAME quiet\nPHASE SPRING 1901 MOVEMENT" in page.text
    assert 'href="' + BASE + '/status"' in master.get(BASE + "/power").text


def test_a_good_edit_is_saved(master, config):
    text = status_path(config).read_text().replace("MAP standard\n", "MAP standard\nDESC Club game\n")
    answer = form(master, "/do/status", text=text)
    assert answer.status_code == 200 and "is saved" in answer.text
    assert "DESC Club game" in status_path(config).read_text()
    assert "Club game" in master.get(BASE + "?game=quiet").text


@pytest.mark.parametrize("old, new, problem", [
    ("DEADLINE 202603091200", "DEADLINE 20261391200", "quiet/status:7: "),
    ("A PAR\n", "A XYZ\n", "quiet/status:"),
    ("MAP standard\n", "MAP standard\nRULE NO_SUCH_RULE\n", "quiet/status:4: "),
    ("MAP standard", "MAP nosuchmap", "quiet/status:3: "),
    ("GAME quiet", "GAME other", "quiet/status:1: the game is quiet"),
])
def test_a_bad_edit_is_refused_with_where_and_what_and_nothing_written(master, config, old,
                                                                         new, problem):
    before = status_path(config).read_bytes()
    text = before.decode().replace(old, new, 1)
    answer = form(master, "/do/status", text=text)
    assert answer.status_code == 400
    assert "nothing was written" in answer.text and problem in answer.text
    assert status_path(config).read_bytes() == before
    assert new.strip().split()[-1] in answer.text  # the edit is kept in the editor to mend


def test_text_that_is_no_status_file_is_refused(master, config):
    before = status_path(config).read_bytes()
    answer = form(master, "/do/status", text="hello\x00world\n\nPOWER\n")
    assert answer.status_code == 400 and "quiet/status" in answer.text
    assert status_path(config).read_bytes() == before


def test_the_rules_form_turns_rules_on_and_off(master, config):
    assert form(master, "/do/rules", rule=["NO_PRESS"]).status_code == 200
    assert "RULE NO_PRESS" in status_path(config).read_text()
    page = master.get(BASE + "/status").text
    assert 'value="NO_PRESS" checked' in page
    form(master, "/do/rules")
    assert "NO_PRESS" not in status_path(config).read_text()


def test_rules_that_exclude_each_other_are_refused(master, config):
    before = status_path(config).read_bytes()
    answer = form(master, "/do/rules", rule=["MOBILIZE", "BLANK_BOARD"])
    assert answer.status_code == 400 and "quiet/status" in answer.text
    assert status_path(config).read_bytes() == before


def test_a_rule_the_judge_does_not_know_is_refused(master, config):
    before = status_path(config).read_bytes()
    assert form(master, "/do/rules", rule=["NO_PRESS", "EVIL"]).status_code == 400
    assert status_path(config).read_bytes() == before


def test_a_player_is_not_shown_the_status_file_nor_may_save_it(client, config):
    sign_on(client, config)
    assert client.get(BASE + "/status").status_code == 403
    before = status_path(config).read_bytes()
    text = before.decode().replace("DEADLINE 202603091200", "DEADLINE 202612011200")
    assert form(client, "/do/status", text=text).status_code == 403
    assert form(client, "/do/rules", rule=["NO_PRESS"]).status_code == 403
    assert status_path(config).read_bytes() == before


def test_the_editor_needs_a_sign_on(client, config):
    assert client.get(BASE + "/status", follow_redirects=False).status_code == 303
    before = status_path(config).read_bytes()
    assert form(client, "/do/status", text="GAME quiet\n").status_code == 403
    assert status_path(config).read_bytes() == before


@pytest.mark.parametrize("path", ["/do/status", "/do/rules"])
def test_the_editors_forms_need_their_csrf_token(master, config, path):
    before = status_path(config).read_bytes()
    text = before.decode().replace("DEADLINE 202603091200", "DEADLINE 202612011200")
    assert master.post(BASE + path, data={"text": text, "rule": "NO_PRESS"}).status_code == 403
    assert status_path(config).read_bytes() == before


def test_what_the_master_wrote_is_escaped_in_the_editor(master, config):
    text = status_path(config).read_text().replace("MAP standard\n",
                                                   f"MAP standard\nDESC {SCRIPT}</textarea>\n")
    assert form(master, "/do/status", text=text).status_code == 200
    page = master.get(BASE + "/status").text
    assert "<script>" not in page and "&lt;/textarea&gt;" in page
    refused = form(master, "/do/status", text=text.replace("MAP standard", "MAP nosuch")).text
    assert "<script>" not in refused


def test_the_master_signed_off_by_a_new_password_may_not_save(master, config, handler, clock):
    from .conftest import MASTER, raw_mail
    handler(raw_mail(MASTER, "SIGNON MASTER@quiet masterpw\nSET PASSWORD other1", "pw"), clock())
    before = status_path(config).read_bytes()
    answer = form(master, "/do/status", text=before.decode().replace("202603091200",
                                                                      "202612011200"))
    assert answer.status_code == 403 and status_path(config).read_bytes() == before
