"""PNG and PDF made from the SVG, with the shipped font: opened again and looked at."""
from __future__ import annotations

import io

import pytest
from PIL import Image

from judge.drawing.raster import MAX_PNG_BYTES, encode, to_pdf, to_png
from tests.support.drawing import start_svg

TEXT_ONLY = ('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="40">'
             '<rect width="200" height="40" fill="#ffffff"/>'
             '<text x="10" y="30" font-size="24" font-family="DejaVu Sans">Paris</text></svg>')


def test_the_png_opens_at_the_pictures_width_under_the_mail_size():
    _, svg = start_svg("standard")
    png = to_png(svg)
    image = Image.open(io.BytesIO(png))
    image.load()
    assert image.format == "PNG" and image.size[0] == 1200 and len(png) < MAX_PNG_BYTES


def test_text_is_drawn_with_the_shipped_font_whatever_the_machine_has():
    image = Image.open(io.BytesIO(to_png(TEXT_ONLY))).convert("L")
    dark = sum(image.histogram()[:128])
    assert dark > 150  # the word is there: system fonts are never asked for


def test_the_largest_board_is_under_the_mail_size_in_full_colour():
    """Region borders drawn crisp keep Youngstown's PNG small enough without a palette's
    re-encoding (the slow part of its drawing)."""
    _, svg = start_svg("youngstown")
    png = to_png(svg)
    image = Image.open(io.BytesIO(png))
    image.load()
    assert len(png) <= MAX_PNG_BYTES and image.mode == "RGBA"


def test_the_pdf_is_one_page_holding_the_picture():
    pdf = to_pdf(TEXT_ONLY)
    assert pdf.startswith(b"%PDF-") and pdf.count(b"/Type /Page\n") + pdf.count(b"/Type /Page ") >= 1


def test_the_pdf_holds_the_pictures_own_pixels_on_a_page_of_150_dpi():
    """Rendered at twice the width, the PDF of the largest map a stranger may MORPH cost over a
    second of CPU."""
    pdf = to_pdf(TEXT_ONLY)
    assert b"/Width 200" in pdf and b"/Height 40" in pdf
    assert b"/MediaBox [ 0 0 96.0 19.2 ]" in pdf  # 200 x 40 pixels at 150 dpi, in points


def test_formats():
    assert encode(TEXT_ONLY, "svg") == TEXT_ONLY.encode()
    with pytest.raises(ValueError, match="no picture format 'gif'"):
        encode(TEXT_ONLY, "gif")
