"""Names a map brings (powers, places, own words) keep to the characters DPjudge's maps use, and
pictures write every name escaped, whoever wrote it."""
from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import replace
from types import MappingProxyType

import pytest

from judge.adjudicator.model import Position
from judge.drawing.board import board_of_position
from judge.drawing.pictures import picture
from judge.mailout.render import environment
from judge.maps import load_map
from tests.support.commands import Judge
from tests.support.morphs import morph_later

pytestmark = pytest.mark.security


def test_a_power_name_that_is_markup_is_refused(tmp_path):
    judge = Judge(tmp_path / "games")
    sent = morph_later(judge, "svgx", 'X"/><SCRIPT>ALERT(1)</SCRIPT><G VIE')
    assert sent.failed and "bad power name" in sent.prose
    assert "SCRIPT" not in judge.text("svgx")


@pytest.mark.parametrize("line", ["Ba<d = bad", "WATER B<D ABUTS NAO", 'Tyrol (Tyro"l:T) = tyr'])
def test_place_names_and_abbreviations_keep_to_dpjudges_characters(tmp_path, line):
    sent = morph_later(Judge(tmp_path / "games"), "names", line)
    assert sent.failed and "bad " in sent.prose


def test_names_are_escaped_in_the_picture():
    """Whatever a map or a board holds, the SVG stays one well-formed drawing with no new tag."""
    m = load_map("standard", paths=False)
    odd = 'X"/><script>alert(1)</script><g a=\'&'
    locations = dict(m.locations)
    locations["VIE"] = replace(locations["VIE"], name=odd)
    m = replace(m, locations=MappingProxyType(locations))
    board = board_of_position(odd, Position(m.begin, {}, {odd: frozenset({"VIE"})}))
    svg = picture(environment(), m, None, board).svg
    root = ET.fromstring(svg)
    assert not [e for e in root.iter() if e.tag.endswith("script")]
    assert odd in [e.text for e in root.iter() if e.tag.endswith("title")]
    assert odd in [e.get("data-owner") for e in root.iter()]
