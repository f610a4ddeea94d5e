"""Pictures drawn in a child process within the judgekeeper's limits: refused, never a crash or a
stall, when a picture asks for too many pixels, bytes, seconds or too much memory."""
from __future__ import annotations

import gc
import os
import time
from dataclasses import replace
from pathlib import Path

import pytest

from judge.drawing.pictures import Picture
from judge.drawing.raster import encode
from judge.limits import Limits
from judge.runtime import picture_process
from judge.runtime.picture_process import PictureRefused, PictureWorker, encode_bounded, pixels_of
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


def test_one_child_draws_picture_after_picture():
    worker = PictureWorker()
    first = encode_bounded(canvas(300, 200), "png", LIMITS, worker)
    child = worker.running[0].process
    assert encode_bounded(canvas(30, 20), "pdf", LIMITS, worker)[:5] == b"%PDF-"
    assert encode_bounded(canvas(300, 200), "png", LIMITS, worker) == first
    assert worker.running[0].process is child and child.poll() is None
    worker.close()
    assert not worker.running and child.poll() is not None


def test_each_picture_has_its_own_cpu_time_not_the_childs_whole_life():
    """The child's CPU limit is its time so far and one picture's `picture_seconds`: a child
    kept for many pictures is not killed for the sum of them."""
    worker = PictureWorker()
    limits = replace(LIMITS, picture_seconds=1)
    svg = canvas(1000, 800)  # a small part of a second a picture, so that a busy machine keeps time
    encode_bounded(svg, "png", limits, worker)
    child = worker.running[0].process
    while _cpu_of(child.pid) < 2.5:  # past the 2 s its first picture allowed
        assert encode_bounded(svg, "png", limits, worker)[:4] == b"\x89PNG"
    assert worker.running[0].process is child


def _cpu_of(pid: int) -> float:
    """Seconds of CPU a running process has used (Linux's /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_a_child_over_a_limit_is_replaced_for_the_next_picture():
    worker = PictureWorker()
    with pytest.raises(PictureRefused, match="within 1 s"):
        encode_bounded(blurred(60), "png", replace(LIMITS, picture_seconds=1), worker)
    assert not worker.running  # killed
    assert encode_bounded(canvas(30, 20), "png", LIMITS, worker)[:4] == b"\x89PNG"
    limits = replace(LIMITS, picture_memory_mb=100, picture_pixels=100_000_000)
    with pytest.raises(PictureRefused, match="failed"):
        encode_bounded(canvas(8000, 8000), "png", limits, worker)
    assert encode_bounded(canvas(30, 20), "png", LIMITS, worker)[:4] == b"\x89PNG"


def test_a_worker_let_go_ends_its_child():
    worker = PictureWorker()
    encode_bounded(canvas(30, 20), "png", LIMITS, worker)
    child = worker.running[0].process
    del worker
    gc.collect()
    assert child.poll() is not None


def test_a_child_that_answers_nonsense_is_replaced(tmp_path, monkeypatch):
    garbling = tmp_path / "child.py"
    garbling.write_text("import sys\nsys.stdin.readline()\nprint('nonsense here')\n"
                        "sys.stdout.flush()\nsys.stdin.read()\n")
    worker = PictureWorker()
    monkeypatch.setattr(picture_process, "CHILD", garbling)
    with pytest.raises(PictureRefused, match="failed"):
        encode_bounded(canvas(30, 20), "png", LIMITS, worker)
    assert not worker.running
    monkeypatch.undo()
    assert encode_bounded(canvas(30, 20), "png", LIMITS, worker)[:4] == b"\x89PNG"
