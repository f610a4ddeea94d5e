"""PNG and PDF made from the SVG, with the shipped font: opened again and looked at."""
from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageChops

from judge.drawing.raster import MAX_PNG_BYTES, _render, encode, to_pdf, to_png
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


def _busy_svg() -> str:
    """A picture of many small coloured discs, whose full-colour PNG is over the mail size."""
    rng = random.Random(7)
    discs = "".join(f'<circle cx="{rng.uniform(0, 1200):.1f}" cy="{rng.uniform(0, 1200):.1f}" '
                    f'r="{rng.uniform(2, 9):.1f}" fill="#{rng.randrange(1 << 24):06x}"/>' for _ in range(3000))
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="1200">'
            f'<rect width="1200" height="1200" fill="#efe4c4"/>{discs}</svg>')


def test_a_picture_over_the_mail_size_is_cut_to_an_opaque_palette_quickly_compressed():
    svg = _busy_svg()
    full = Image.open(io.BytesIO(_render(svg, None)))
    png = to_png(svg)
    image = Image.open(io.BytesIO(png))
    image.load()
    assert len(_render(svg, None)) > MAX_PNG_BYTES >= len(png)
    assert image.mode == "P" and "transparency" not in image.info and image.size == full.size
    same = ImageChops.difference(full.convert("RGB"), image.convert("RGB")).convert("L").histogram()
    assert sum(same[:48]) > 0.99 * sum(same)  # nearly every pixel within a few shades of its colour
    # zlib's header names the level it was made at (FLEVEL 1: a fast level), the palette pass's
    # main cost at the default level
    idat = png.index(b"IDAT") + 4
    assert png[idat + 1] >> 6 == 1
