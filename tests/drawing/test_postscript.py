"""DPjudge's drawing of a position: the PostScript page in its protocol, `psinfo`, and Ghostscript's
rendering (only where `gs` is installed)."""
from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
from PIL import Image

from judge.adjudicator.model import Position
from judge.drawing import board_of_position
from judge.drawing.postscript import PageInfo, page_info, postscript_page, read_postscript_map
from judge.maps import load_map, map_for_phase
from judge.types import Unit, UnitType

FIXTURES = Path(__file__).parent / "fixtures"
needs_gs = pytest.mark.skipif(shutil.which("gs") is None, reason="Ghostscript (gs) is not installed")


@pytest.fixture(scope="module")
def standard():
    base = load_map("standard")
    return map_for_phase(base, base.begin)


def board(m):
    units = {"FRANCE": (Unit(UnitType.ARMY, "PAR"), Unit(UnitType.FLEET, "BRE")),
             "GERMANY": (Unit(UnitType.ARMY, "MUN"),)}
    return board_of_position("tiny", Position(m.begin, units, {"FRANCE": frozenset({"PAR"})}))


def test_the_drawing_file_names_its_places_powers_and_procedures():
    ps = read_postscript_map((FIXTURES / "tiny.ps").read_text())
    assert ps.places == {"PAR": (100, 100), "BUR": (200, 100), "MUN": (300, 100)}
    assert ps.powers == ("FRANCE", "GERMANY", "UNOWNED")
    assert {"DrawArmy", "DrawFleet", "DrawMap", "supply"} <= ps.defined and "DrawTitle" not in ps.defined


def test_the_page_draws_units_and_centres_in_the_protocol(standard):
    ps = read_postscript_map((FIXTURES / "tiny.ps").read_text())
    page = postscript_page(ps, standard, board(standard), "tiny, Spring (1901)")
    body = page[page.index("%%Page: 1 1"):]
    assert body.startswith("%%Page: 1 1\nDrawMap\nDrawNames\n(tiny, Spring \\(1901\\)) DrawTitle\n")
    assert "FRANCE\n\t100 100 DrawArmy\nGERMANY\n\t300 100 DrawArmy\n" in body  # BRE is not on it
    assert "(FRANCE     \\(2/1\\)   PAR) WriteOwner" in body
    assert "FRANCE\nPAR supply\nUNOWNED\nMUN supply\n" in body
    assert body.rstrip().endswith("Black\nShowPage\n%%PageTrailer\n%%Trailer\n%%Pages: 1 1")
    setup = page[:page.index("%%EndSetup")]
    assert "/DrawTitle where {pop} { /DrawTitle { pop } bind def } ifelse" in setup
    assert "/DrawArmy where" not in setup


def test_psinfo_lines_with_defaults_and_copies():
    text = "# comment\nstandard 21,22,574,510\nmilan - letter\nyoung 15,31,482,452 A4 =\npure _ _ 0\n"
    assert page_info(text, "standard") == PageInfo((21, 22, 574, 510), 3, "letter")
    assert page_info(text, "milan") == PageInfo((21, 22, 574, 510), 3, "letter")
    assert page_info(text, "young") == PageInfo((15, 31, 482, 452), 3, "a4")
    assert page_info(text, "pure") == PageInfo(None, 0, "letter")
    assert page_info(text, "absent") is None


@needs_gs
def test_ghostscript_renders_the_page_upright_and_cut_to_the_map(standard):
    from judge.runtime.ghostscript import RESOLUTION, dpjudge_picture

    png = dpjudge_picture(FIXTURES / "tiny.ps", standard, board(standard), "tiny", "png")
    image = Image.open(io.BytesIO(png)).convert("RGB")
    scale = RESOLUTION / 72
    assert image.size == (round(400 * scale), round(200 * scale))
    assert image.getpixel((round(100 * scale), round(100 * scale))) == (0, 0, 255)  # French army
    assert image.getpixel((round(300 * scale), round(100 * scale))) == (255, 0, 0)  # German army
    pdf = dpjudge_picture(FIXTURES / "tiny.ps", standard, board(standard), "tiny", "pdf")
    assert pdf.startswith(b"%PDF-")
