"""DPjudge's drawing of a position rendered by Ghostscript (`gs`), where a judgekeeper has DPjudge's
map drawings: `NAME.ps` and `psinfo` in a maps folder. Optional: without `gs` or without the files,
the judge's own drawing is used (`available`)."""
from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

from judge.drawing.board import Board
from judge.drawing.postscript import PageInfo, page_info, postscript_page, read_postscript_map
from judge.maps.loader import read_text
from judge.maps.model import Map

RESOLUTION = 144  # dots per inch: twice DPjudge's 72, for a sharper picture
TIMEOUT = 60  # seconds one rendering may take


def postscript_file(m: Map, folders: list[Path]) -> Path | None:
    """DPjudge's drawing of the map: `NAME.ps` beside one of the map's files, or in a folder given."""
    names = [Path(m.name).stem, *(Path(line.file).stem for line in m.base)]
    candidates = [Path(line.file).parent for line in m.base] + folders
    for name in dict.fromkeys(names):
        for folder in dict.fromkeys(candidates):
            if (folder / f"{name}.ps").is_file():
                return folder / f"{name}.ps"
    return None


def available(m: Map, folders: list[Path]) -> Path | None:
    """The `.ps` file to draw the map with, when Ghostscript is installed too."""
    return postscript_file(m, folders) if shutil.which("gs") else None


def dpjudge_picture(ps_path: Path, m: Map, board: Board, title: str, kind: str) -> bytes:
    """The board as DPjudge draws it, as PNG (turned upright and cut to the map's box, as `psinfo`
    says) or PDF. A failure of Ghostscript is a RuntimeError with what it said."""
    page = postscript_page(read_postscript_map(read_text(ps_path)), m, board, title)
    info_path = ps_path.with_name("psinfo")
    info = (page_info(read_text(info_path), ps_path.stem) if info_path.is_file() else None) or PageInfo()
    device = "pdfwrite" if kind == "pdf" else "png16m"
    done = subprocess.run(["gs", "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", f"-sDEVICE={device}",
                           f"-r{RESOLUTION}", f"-sPAPERSIZE={info.paper}", "-dFIXEDMEDIA",
                           "-sOutputFile=-", "-"], input=page.encode("latin-1", "replace"),
                          capture_output=True, timeout=TIMEOUT, check=False)
    if done.returncode != 0 or not done.stdout:
        raise RuntimeError(f"gs failed on {ps_path.name}: {done.stderr.decode('utf-8', 'replace')[:500]}")
    return done.stdout if kind == "pdf" else _upright(done.stdout, info)


def _upright(png: bytes, info: PageInfo) -> bytes:
    from PIL import Image

    image: Image.Image = Image.open(io.BytesIO(png))
    if info.rotation:
        image = image.rotate(90 * info.rotation, expand=True)  # quarter turns anticlockwise
    if info.bbox is not None:
        scale = RESOLUTION / 72
        x0, y0, x1, y1 = (round(v * scale) for v in info.bbox)
        image = image.crop((x0, y0, x1, y1))
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()
