"""PNG and PDF made from a picture's SVG: resvg renders the raster with the fonts shipped beside
this module (DejaVu Sans), so the text is the same on every machine whatever fonts it has; the PDF
is that raster on a page, made by Pillow."""
from __future__ import annotations

import io
import re
from pathlib import Path

import resvg_py
from PIL import Image

FONTS = Path(__file__).resolve().parent / "fonts"
PDF_DPI = 150
# the PDF's page is rendered at this many times the PNG's width: at twice, the largest map a
# stranger may MORPH cost over a second of CPU a MAP; the PNG's own width prints at 150 dpi
PDF_ZOOM = 1
MAX_PNG_BYTES = 300_000  # a PNG larger than this is cut down to a palette of colours
PALETTE_LEVEL = 3  # zlib level of a palette PNG


def to_png(svg: str, width: int | None = None) -> bytes:
    """The picture at `width` pixels (default: the canvas's own width, where every label is at its
    designed size and the crisp region borders one pixel wide); one too big for a mail is
    re-encoded with a palette, which keeps it legible."""
    png = _render(svg, width)
    return png if len(png) <= MAX_PNG_BYTES else _with_palette(png)


def _render(svg: str, width: int | None) -> bytes:
    fonts = sorted(str(p) for p in FONTS.glob("*.ttf"))
    return bytes(resvg_py.svg_to_bytes(svg_string=svg, width=width, skip_system_fonts=True,
                                       font_files=fonts, font_family="DejaVu Sans",
                                       sans_serif_family="DejaVu Sans"))


def _with_palette(png: bytes) -> bytes:
    """The picture in 128 colours. Quantised as resvg hands it (RGBA: no conversion) and its
    palette's alpha dropped (the canvas is opaque, so a transparency chunk would only cost
    bytes); zlib at level `PALETTE_LEVEL` takes a third of the default's time for a PNG about
    a sixth larger, still well under `MAX_PNG_BYTES`."""
    image = Image.open(io.BytesIO(png)).quantize(colors=128, method=Image.Quantize.FASTOCTREE)
    rgb = image.getpalette("RGB")  # a quantised image always has one
    if rgb:
        image.putpalette(rgb, "RGB")
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=PALETTE_LEVEL)
    return out.getvalue()


def to_pdf(svg: str, zoom: int = PDF_ZOOM) -> bytes:
    """One page holding the picture, rendered at `zoom` times the PNG's width, its page as large
    whatever the zoom (`PDF_DPI` a PNG pixel)."""
    found = re.search(r'width="([0-9.]+)"', svg)
    width = int(float(found.group(1))) * zoom if found else None
    image = Image.open(io.BytesIO(_render(svg, width))).convert("RGB")
    out = io.BytesIO()
    image.save(out, "PDF", resolution=PDF_DPI * zoom)
    return out.getvalue()


FORMATS = ("svg", "png", "pdf")


def encode(svg: str, kind: str) -> bytes:
    """The picture in one of `FORMATS`."""
    if kind == "svg":
        return svg.encode("utf-8")
    if kind == "png":
        return to_png(svg)
    if kind == "pdf":
        return to_pdf(svg)
    raise ValueError(f"no picture format {kind!r} (one of {', '.join(FORMATS)})")
