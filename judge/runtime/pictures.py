"""Pictures for the mails: a map's drawing data read from disk, the pictures MAP asks for, and the
PNG, PDF or SVG files made once for all the mails that carry them."""
from __future__ import annotations

import logging
from functools import lru_cache
from collections.abc import Iterable

import jinja2

from judge.adjudicator.model import Position
from judge.drawing.geometry import Geometry
from judge.drawing.loader import read_geometry
from judge.drawing.pictures import Picture, picture, position_board, seen_picture
from judge.errors import resource_failure
from judge.limits import Limits
from judge.mailout.envelope import Draw
from judge.mailout.audience import PictureMail
from judge.maps import map_for_phase
from judge.maps.model import Map
from judge.runtime.picture_process import PictureRefused, PictureWorker, encode_bounded
from judge.status.model import GameStatus

log = logging.getLogger("judge.pictures")


def geometry_of(m: Map) -> Geometry | None:
    """The map's drawing data; None (a schematic layout) when it has none or a broken file, which
    `judge map check` reports."""
    geometry, path, problems = read_geometry(m)
    if problems:
        log.warning("map %s: drawing data %s unusable: %s", m.name, path, problems[0])
    return geometry


def position_picture(env: jinja2.Environment, status: GameStatus, m: Map, kind: str,
                     recipients: Iterable[str], seen: Position | None = None,
                     full_sight: frozenset[str] = frozenset()) -> PictureMail:
    """The game's board as it stands, in `kind` for each recipient (MAP); `seen`: only what the
    reader of a BLIND game sees of it (`full_sight`: the powers it sees in full)."""
    if seen is not None:
        drawn = seen_picture(env, map_for_phase(m, seen.phase), geometry_of(m), status.name or "",
                             seen, full_sight)
    else:
        phase_map, board = position_board(status, m)
        drawn = picture(env, phase_map, geometry_of(m), board)
    return PictureMail(drawn, {r.lower(): kind for r in recipients})


KEPT_PICTURES = 8  # pictures an encoder keeps made: a batch's mails of one picture come together


def encoder(limits: Limits, worker: PictureWorker | None = None) -> Draw:
    """`encode_bounded`: each picture made once per format, by `worker` (a child process kept
    for many pictures; without one, the encoder's own) within `limits` (the configuration's:
    every door draws within them); a picture that cannot be made is left out of the mail
    (logged), never holding the mail's text back. The last `KEPT_PICTURES` made are kept, so
    that the mails of a batch after a picture's last reader do not hold it."""
    drawer = worker or PictureWorker()

    @lru_cache(maxsize=KEPT_PICTURES)
    def draw(drawn: Picture, kind: str) -> bytes | None:
        try:
            data = encode_bounded(drawn.svg, kind, limits, drawer)
        except PictureRefused as exc:
            log.warning("picture %s: no %s made: %s", drawn.stem, kind, exc)
            data = None
        except Exception as exc:
            if resource_failure(exc):
                raise
            log.exception("picture %s: no %s made", drawn.stem, kind)
            data = None
        return data

    return draw
