"""Would a map's static background, drawn once, make a picture cheaper? Measured against drawing it
whole.

    python benchmarks/background.py                      # standard and youngstown, medians of 9
    python benchmarks/background.py --maps youngstown --repeat 15 --seed 2

The picture of draw.py's processed phase (34 units, a random legal order each) is made two ways,
CPU time (`time.process_time`, medians):

- whole: `to_png` on the SVG, as the judge does (resvg renders and encodes it; a PNG over 300 KB
  is written again with a palette);
- layered: the background (the white page, the sea, every province in its plain colour with its
  borders, the straits) rendered by resvg once and kept decoded; per picture, the rest of the SVG
  (the provinces tinted by their owners, the straits drawn over them, labels, centres, units,
  orders, title and legend) rendered by resvg on a transparent canvas, decoded by Pillow, laid
  over the kept background (`alpha_composite`) and encoded by Pillow (the same palette rule).

Also timed, to show where a picture's time goes: resvg on the layered overlay alone, and on an
empty SVG of the picture's size (what resvg costs a canvas, whatever is drawn on it). The two
pictures are compared pixel by pixel (the largest difference in any channel, and the share of
pixels that differ by more than 8 of 255).
"""
from __future__ import annotations

import argparse
import io
import random
import re
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from PIL import Image, ImageChops

sys.path.insert(0, str(Path(__file__).resolve().parent))

from draw import position

from judge.adjudicator import resolve
from judge.drawing import board_of_results, draw_svg
from judge.drawing.geometry import fitted
from judge.drawing.loader import read_geometry
from judge.drawing.raster import MAX_PNG_BYTES, _render, _with_palette, to_png
from judge.drawing.svg import LAND
from judge.mailout.render import environment
from judge.maps import load_map, map_for_phase

OVERLAY_GROUPS = ("title", "labels", "centers", "ghosts", "units", "dislodged", "orders", "legend")
REGIONS = re.compile(r'(<g class="regions"[^>]*>\n)(.*?)(\n</g>\n)', re.S)
STRAITS = re.compile(r'<path class="straits"[^>]*/>\n')
PAGE = re.compile(r'<rect class="background"[^>]*/>\n')


def picture(name: str, seed: int) -> str:
    base = load_map(name)
    m = map_for_phase(base, base.begin)
    board, given = position(m, 34, random.Random(seed))
    geometry = fitted(m, read_geometry(m)[0])
    return draw_svg(environment(), m, geometry, board_of_results(name, resolve(m, board, given)))


def without_groups(svg: str, groups: tuple[str, ...]) -> str:
    for group in groups:
        svg = re.sub(rf'<g class="{group}"[^>]*>.*?\n</g>\n', "", svg, flags=re.S)
    return svg


def background(svg: str) -> str:
    """The page, the sea, the provinces in their plain colours with their borders, the straits."""
    plain = re.sub(r'(<path class="region land"[^>]*) data-owner="[^"]*"([^>]*) fill="[^"]*"',
                   rf'\1\2 fill="{LAND}"', svg)
    return without_groups(plain, OVERLAY_GROUPS)


def overlay(svg: str) -> str:
    """What changes from game to game, on a transparent canvas: the owned provinces (tinted, with
    their borders), the straits over them, and the groups drawn above the provinces."""
    def owned_only(found: re.Match) -> str:
        kept = [line for line in found.group(2).split("\n") if "data-owner=" in line]
        return found.group(1) + "\n".join(kept) + found.group(3)
    return PAGE.sub("", REGIONS.sub(owned_only, svg), count=1)


def empty(svg: str) -> str:
    size = re.search(r'width="([0-9.]+)" height="([0-9.]+)"', svg)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{size.group(1)}" '
            f'height="{size.group(2)}"></svg>')


def layered(kept: Image.Image, svg: str) -> tuple[bytes, Image.Image]:
    top = Image.open(io.BytesIO(_render(overlay(svg), None))).convert("RGBA")
    made = Image.alpha_composite(kept, top).convert("RGB")
    out = io.BytesIO()
    made.save(out, "PNG")
    png = out.getvalue()
    return (png if len(png) <= MAX_PNG_BYTES else _with_palette(png)), made


def cpu_ms(call: Callable[[], object], repeat: int) -> float:
    spent = []
    for _ in range(repeat):
        started = time.process_time()
        call()
        spent.append(time.process_time() - started)
    return statistics.median(spent) * 1000


def compare(whole: Image.Image, made: Image.Image) -> str:
    difference = ImageChops.difference(whole.convert("RGB"), made.convert("RGB"))
    largest = max(high for _, high in difference.getextrema())
    red, green, blue = difference.split()
    over = sum(ImageChops.lighter(ImageChops.lighter(red, green), blue).histogram()[9:])
    return (f"largest difference {largest} of 255, {over / (whole.width * whole.height):.2%} "
            f"of the pixels differ by more than 8")


def bench(name: str, repeat: int, seed: int) -> None:
    svg = picture(name, seed)
    kept = Image.open(io.BytesIO(_render(background(svg), None))).convert("RGBA")
    whole = cpu_ms(lambda: to_png(svg), repeat)
    both = cpu_ms(lambda: layered(kept, svg), repeat)
    alone = cpu_ms(lambda: _render(overlay(svg), None), repeat)
    canvas = cpu_ms(lambda: _render(empty(svg), None), repeat)
    drawn = Image.open(io.BytesIO(_render(svg, None)))
    png, made = layered(kept, svg)
    print(f"{name} ({kept.width}x{kept.height}; CPU medians of {repeat}):\n"
          f"  whole {whole:.0f} ms ({len(to_png(svg)) / 1000:.0f} KB); layered {both:.0f} ms "
          f"({len(png) / 1000:.0f} KB), {both / whole:.2f} of whole\n"
          f"  resvg on the overlay alone {alone:.0f} ms; on an empty canvas of that size {canvas:.0f} ms\n"
          f"  {compare(drawn, made)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--maps", nargs="+", default=["standard", "youngstown"])
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    for name in args.maps:
        bench(name, args.repeat, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
