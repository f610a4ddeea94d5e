"""Pictures drawn in a child process within the judgekeeper's limits: refused, never a crash or a
stall, when a picture asks for too many pixels, bytes, seconds or too much memory."""
from __future__ import annotations

import time
from dataclasses import replace

import pytest

from judge.drawing.pictures import Picture
from judge.drawing.raster import encode
from judge.limits import Limits
from judge.runtime.picture_process import PictureRefused, encode_bounded, pixels_of
from judge.runtime.pictures import encoder

LIMITS = Limits()


def canvas(width: int, height: int, body: str = "") -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}"><rect width="{width}" height="{height}" '
            f'fill="#8ac"/>{body}</svg>')


def blurred(count: int, size: int = 2000) -> str:
    """A picture that takes resvg about a second of CPU for each of `count` blurred squares."""
    shapes = "".join(f'<rect x="{i * 7 % size}" y="{i * 13 % size}" width="{size // 2}" '
                     f'height="{size // 2}" fill="#a84" filter="url(#b)" opacity="0.5"/>'
                     for i in range(count))
    return canvas(size, size, '<defs><filter id="b"><feGaussianBlur stdDeviation="40"/>'
                              f'</filter></defs>{shapes}')


@pytest.mark.parametrize("kind", ["png", "pdf"])
def test_a_picture_is_drawn_by_the_child_as_it_would_be_here(kind):
    svg = canvas(300, 200)
    assert encode_bounded(svg, kind, LIMITS)[:4] == encode(svg, kind)[:4]
    if kind == "png":
        assert encode_bounded(svg, kind, LIMITS) == encode(svg, kind)


def test_a_picture_of_too_many_pixels_is_refused_before_it_is_drawn():
    svg = canvas(5000, 4000)  # 20 million pixels, the PDF's page as many
    assert pixels_of(svg, "png") == 20_000_000 and pixels_of(svg, "pdf") == 20_000_000
    started = time.monotonic()
    with pytest.raises(PictureRefused, match="pixels"):
        encode_bounded(svg, "png", LIMITS)
    assert time.monotonic() - started < 1  # nothing was drawn
    assert encode_bounded(svg, "png", replace(LIMITS, picture_pixels=30_000_000))[:4] == \
        b"\x89PNG"


def test_a_picture_file_of_too_many_bytes_is_refused():
    with pytest.raises(PictureRefused, match="bytes"):
        encode_bounded(canvas(300, 200), "svg", replace(LIMITS, picture_bytes=100))


def test_a_picture_needing_more_memory_than_allowed_is_refused():
    limits = replace(LIMITS, picture_memory_mb=100, picture_pixels=100_000_000)
    with pytest.raises(PictureRefused, match="failed"):
        encode_bounded(canvas(8000, 8000), "png", limits)  # 256 MB of pixels


def test_a_picture_not_drawn_in_time_is_refused_and_its_drawing_stopped():
    started = time.monotonic()
    with pytest.raises(PictureRefused, match="within 1 s"):
        encode_bounded(blurred(60), "png", replace(LIMITS, picture_seconds=1))
    assert time.monotonic() - started < 10  # a minute of drawing cut short


def test_a_picture_that_cannot_be_made_is_left_out_of_its_mail():
    draw = encoder(replace(LIMITS, picture_pixels=1000))
    assert draw(Picture(canvas(300, 200), "g-S1901M"), "png") is None
    assert draw(Picture(canvas(30, 20), "g-S1901M"), "png")[:4] == b"\x89PNG"
