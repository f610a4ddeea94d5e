"""A map parsed once in a process is not parsed again while its files hold the same text: a
CREATE or MORPH of a map already read costs nothing, and a file changed on disk is read again."""
from __future__ import annotations

import pytest

from judge.errors import MapError
from judge.limits import Limits
from judge.maps import load_map

TINY = """\
Alpha = alp
Beta = bet
LAND ALP ABUTS BET
LAND BET ABUTS ALP
"""


def test_the_same_map_and_morph_lines_give_the_map_already_parsed():
    first = load_map("standard", morphs=["# kept"], paths=False)
    assert load_map("standard", morphs=["# kept"], paths=False) is first
    assert load_map("standard", morphs=["# other"], paths=False) is not first


def test_a_map_file_changed_on_disk_is_read_again(tmp_path):
    path = tmp_path / "tiny.map"
    path.write_text(TINY)
    first = load_map("tiny", [tmp_path], paths=False)
    path.write_text(TINY.replace("Alpha", "Gamma"))  # the same size, at once: only the text tells
    again = load_map("tiny", [tmp_path], paths=False)
    assert first.locations["ALP"].name == "Alpha"
    assert again.locations["ALP"].name == "Gamma"


def test_a_map_file_put_in_an_earlier_folder_is_found(tmp_path):
    early, late = tmp_path / "early", tmp_path / "late"
    early.mkdir(), late.mkdir()
    (late / "tiny.map").write_text(TINY)
    assert load_map("tiny", [early, late], paths=False).locations["ALP"].name == "Alpha"
    (early / "tiny.map").write_text(TINY.replace("Alpha", "Gamma"))
    assert load_map("tiny", [early, late], paths=False).locations["ALP"].name == "Gamma"


def test_a_map_file_gone_is_missed(tmp_path):
    path = tmp_path / "tiny.map"
    path.write_text(TINY)
    load_map("tiny", [tmp_path], paths=False)
    path.unlink()
    with pytest.raises(MapError):
        load_map("tiny", [tmp_path], paths=False)


def test_a_map_kept_without_bounds_is_still_held_to_them():
    lines = ["Atlantis = atl", "WATER ATL ABUTS NAO", "AMEND NAO ABUTS ATL", "# kept unbounded"]
    load_map("standard", morphs=lines, paths=False)
    with pytest.raises(MapError, match="than this judge allows"):
        load_map("standard", morphs=lines, paths=False,
                 bounds=Limits(map_places=82).map_bounds())


def test_a_map_kept_from_other_folders_is_found_again_where_the_search_finds_it(tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir(), second.mkdir()
    (first / "tiny.map").write_text(TINY)
    (second / "tiny.map").write_text(TINY)
    from_first = load_map("tiny", [first], paths=False)
    assert load_map("tiny", [first, second], paths=False) is from_first
    from_second = load_map("tiny", [second], paths=False)
    assert from_second is not from_first and from_second.base[0].file == str(second / "tiny.map")
