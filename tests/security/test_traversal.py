"""Game and map names from mail never reach a file outside the judge's folders: `CREATE ../x`,
`MAP ../../etc/passwd`, MORPH lines that USE a path or a file that is no map, odd characters in
names; map problems name files without the judge's folders."""
from __future__ import annotations

import os

import pytest

from judge.maps import load_map
from judge.maps.loader import FileLoader, bundled_maps_dir, plain_map_name
from judge.runtime.store import GameStore
from tests.support.commands import Judge
from tests.support.mail import mail
from tests.support.morphs import morph_later

pytestmark = pytest.mark.security

GM = "gm@example.org"
ODD_NAMES = ["../x", "..", ".", "x/../../y", "/etc", "a\\b", "x%2f..", "ｘ", "x y", "x\x00", "CON",
             "x" * 201, "-", "x.y", "~root", "$HOME", "{{7*7}}", ".purged", ""]


@pytest.fixture
def secret(tmp_path, monkeypatch):
    """A file beside the games that must never be read: the judge's configuration, with the
    judgekeeper's password, in the daemon's working folder."""
    (tmp_path / "judge.toml").write_text("[judge]\npassword = \"TOPSECRET\"\nroot:x:0:0\n")
    monkeypatch.chdir(tmp_path)
    return "TOPSECRET"


def folder_listing(root):
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


@pytest.mark.parametrize("name", ODD_NAMES)
def test_create_with_an_odd_game_name_creates_nothing_anywhere(vienna, tmp_path, name):
    before = folder_listing(tmp_path)
    sent = vienna.send(mail(GM, f"CREATE {name} pw", "FORM"))
    if name in ("CON", "x\x00"):  # `con` is a fine name here (no DOS devices); the NUL is read as a space
        assert vienna.store.exists({"CON": "con", "x\x00": "x"}[name])
    else:
        assert sent.failed and folder_listing(tmp_path) == before


@pytest.mark.parametrize("line", ["SIGNON F{name} paris7", "JOIN {name} pw", "LIST {name}",
                                  "SUMMARY {name}", "HISTORY {name}", "OBSERVE me@{name} pw",
                                  "TAKEOVER F{name} pw", "RESIGN F{name} pw", "PURGE {name} pw",
                                  "RENAME vienna {name} kr4k3n"])
@pytest.mark.parametrize("name", ["../vienna", "../../etc", "vienna/..", ".purged"])
def test_no_command_follows_a_path_as_a_game_name(vienna, tmp_path, line, name):
    (tmp_path / "status").write_text("GAME leak\nPHASE FORMING\nPASSWORD leaked\n")
    before = folder_listing(tmp_path)
    sent = vienna.send(mail("chloe@example.fr", line.format(name=name)))
    assert sent.failed and "leak" not in sent.text
    assert folder_listing(tmp_path) == before


@pytest.mark.parametrize("map_line", ["MAP ../../etc/passwd", "MAP /etc/passwd", "MAP ../judge.toml",
                                      "MAP judge.toml", "TRIAL /etc/passwd", "MAP standard/../../x"])
def test_create_never_reads_a_map_outside_the_map_folders(vienna, secret, map_line):
    sent = vienna.send(mail(GM, "CREATE mine pw", map_line, "FORM"))
    assert sent.failed and "no such map on this judge" in sent.text
    assert secret not in sent.text and "root:" not in sent.text
    assert not vienna.store.exists("mine")


@pytest.mark.parametrize("morph", ["USE /etc/passwd", "USE ../../../../../../etc/passwd",
                                   "USE judge.toml", "USE ../judge.toml", "MAP /etc/passwd",
                                   "USES standard /etc/passwd"])
def test_morph_lines_never_read_another_file(vienna, secret, morph):
    before = vienna.text("vienna")
    sent = vienna.send(mail("joe@blow.com", "SIGNON Mvienna kr4k3n", f"MORPH {morph}"))
    assert sent.failed and secret not in sent.text and "root:" not in sent.text
    assert vienna.text("vienna") == before


def test_morph_use_reads_map_files_only(tmp_path):
    assert (bundled_maps_dir() / "README.md").is_file()
    sent = morph_later(Judge(tmp_path / "games"), "readme", "USE README.md")
    assert sent.failed and "'README.md' is not a map file" in sent.prose
    assert "#" not in sent.text  # not a line of the file


def test_map_problems_name_files_without_their_folders(tmp_path):
    sent = morph_later(Judge(tmp_path / "games"), "fold", "USE fleetrome", "XYZZY VIE MUN")
    assert sent.failed and str(bundled_maps_dir()) not in sent.text
    assert "MORPH:" in sent.prose
    missing = morph_later(Judge(tmp_path / "other"), "gone", "USE nosuchmap")
    assert missing.failed and "not found in the map folders" in missing.prose
    assert str(bundled_maps_dir()) not in missing.text


def test_a_hand_edited_map_path_in_a_status_file_is_not_followed(vienna, secret):
    text = vienna.text("vienna").replace("MAP standard", "MAP ../judge.toml")
    (vienna.store.root / "vienna" / "status").write_text(text)
    sent = vienna.send(mail("chloe@example.fr", "SIGNON Fvienna paris7", "A PAR - BUR"))
    assert sent.failed and secret not in sent.text


def test_only_plain_names_are_map_names():
    assert all(plain_map_name(n) for n in ["standard", "standard.geography", "1900.map", "modern-up"])
    assert not any(plain_map_name(n) for n in ["../x", "a/b", "/etc/passwd", ".hidden", "x..y",
                                               "a\\b", "", "x\x00", "ｘ" * 2])


def test_the_command_line_still_reads_a_map_by_its_path(tmp_path):
    path = tmp_path / "mine.map"
    path.write_text("USE standard\n")
    assert load_map(str(path)).powers and load_map("standard", paths=False).powers
    with pytest.raises(LookupError):
        FileLoader(paths=False).find(str(path), None)


def test_the_store_refuses_odd_names(tmp_path):
    store = GameStore(tmp_path / "games")
    for name in ODD_NAMES:
        if name.lower() in ("con", "-"):  # fine folder names (the store allows `-`, mail does not)
            continue
        with pytest.raises((ValueError, LookupError)):
            store.create(name, "GAME x\nPHASE FORMING\nMAP standard\n")
    assert os.listdir(tmp_path) in ([], ["games"]) and store.names() == []
