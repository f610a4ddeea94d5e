"""The process that draws one picture (`judge.runtime.picture_process` starts it by this file's
path): `python picture_child.py KIND MEMORY_MB SECONDS`, the SVG on standard input, the PNG or PDF
on standard output. It loads the renderer's module (`judge/drawing/raster.py`) alone, by its path,
not the `judge` package: a picture costs the start of resvg and Pillow, nothing more."""
from __future__ import annotations

import importlib.util
import resource
import sys
from pathlib import Path

MEGABYTE = 1024 * 1024
RASTER = Path(__file__).resolve().parents[1] / "drawing" / "raster.py"


def main(kind: str, memory_mb: int, seconds: int) -> int:
    """Memory and CPU time capped first (the CPU time too, so that a child whose parent was
    killed does not draw on for long), then the SVG on stdin drawn to stdout."""
    limit = memory_mb * MEGABYTE
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    resource.setrlimit(resource.RLIMIT_CPU, (seconds + 1, seconds + 1))
    spec = importlib.util.spec_from_file_location("judge_raster", RASTER)
    if spec is None or spec.loader is None:
        print(f"cannot load {RASTER}", file=sys.stderr)
        return 1
    raster = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(raster)
    svg = sys.stdin.buffer.read().decode("utf-8")
    try:
        data = raster.encode(svg, kind)
    except MemoryError:
        print(f"more memory than the {memory_mb} MB a picture may take", file=sys.stderr)
        return 1
    sys.stdout.buffer.write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
