"""The process that draws pictures (`judge.runtime.picture_process` starts it by this file's path):
`python picture_child.py MEMORY_MB SECONDS`, then one request after another on standard input, each
`KIND LENGTH` on a line and the SVG's LENGTH bytes, each answered on standard output by `OK LENGTH`
and the PNG or PDF, or `ERROR LENGTH` and why. It ends at the end of its input (its parent closed
the pipe, or died). It loads the renderer's module (`judge/drawing/raster.py`) alone, by its path,
not the `judge` package: the process costs the start of resvg and Pillow, once for many pictures."""
from __future__ import annotations

import importlib.util
import resource
import sys
from pathlib import Path
from types import ModuleType
from typing import BinaryIO

MEGABYTE = 1024 * 1024
RASTER = Path(__file__).resolve().parents[1] / "drawing" / "raster.py"


def main(memory_mb: int, seconds: int) -> int:
    """The address space capped first, then each request drawn with the CPU time it may take
    capped too: the process dies of SIGXCPU past it, even when its parent is gone. A request
    that ran out of memory ends the process (its parent starts another)."""
    limit = memory_mb * MEGABYTE
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    raster = _renderer()
    if raster is None:
        return 1
    source, answers = sys.stdin.buffer, sys.stdout.buffer
    while True:
        request = source.readline().split()
        if len(request) != 2:
            return 0  # the end of the input: nothing more to draw
        kind, size = request[0].decode("ascii"), int(request[1])
        svg = source.read(size).decode("utf-8")
        _allow_cpu(seconds)
        try:
            data = raster.encode(svg, kind)
        except MemoryError:
            _answer(answers, b"ERROR", f"more memory than the {memory_mb} MB a picture may take")
            return 1
        except Exception as exc:  # a picture resvg or Pillow cannot make: this one only
            _answer(answers, b"ERROR", str(exc) or type(exc).__name__)
            continue
        _answer(answers, b"OK", data)


def _renderer() -> ModuleType | None:
    spec = importlib.util.spec_from_file_location("judge_raster", RASTER)
    if spec is None or spec.loader is None:
        print(f"cannot load {RASTER}", file=sys.stderr)
        return None
    raster = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(raster)
    return raster


def _allow_cpu(seconds: int) -> None:
    """This much more CPU time than the process has used so far (the limit counts its whole life)."""
    used = resource.getrusage(resource.RUSAGE_SELF)
    hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
    soft = int(used.ru_utime + used.ru_stime) + seconds + 1
    resource.setrlimit(resource.RLIMIT_CPU, (soft if hard == resource.RLIM_INFINITY else
                                             min(soft, hard), hard))


def _answer(out: BinaryIO, status: bytes, data: bytes | str) -> None:
    body = data.encode("utf-8", "replace") if isinstance(data, str) else data
    out.write(b"%s %d\n" % (status, len(body)))
    out.write(body)
    out.flush()


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]), int(sys.argv[2])))
