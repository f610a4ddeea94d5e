#!/usr/bin/env python3
"""What the outbox sender spends on a due game's mails with their pictures, and what it holds.

    python benchmarks/sending.py                     # 7 runs; 1,000 games for the memory
    python benchmarks/sending.py --repeat 5 --games 2000

- `game`: the results mails of one processed standard game, stored as the cycle stores them (each
  picture kept as its SVG) to each of its readers, Austria's two addresses wanting the PDF (none
  with `--png-only`), the others the PNG, then sent as
  the outbox sender sends them (`with_pictures` with a batch's maker of pictures, drawn in a child
  process within the default `[limits]`): the CPU of the judge's process and of the drawing child
  (ended after each run, so that its time is counted), per game and per mail; medians.
- `drain`: the peak memory (tracemalloc) while the sender sends, in one batch, the mails of
  `--games` due games, a distinct picture each, 8 readers a game; each picture drawn by a stand-in
  of a standard PNG's size (150 KB), so that drawing costs nothing here: what is measured is what
  the sender keeps.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tracemalloc
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from judge.game.schedule import on_process  # noqa: E402
from judge.identity import JudgeSection  # noqa: E402
from judge.limits import Limits  # noqa: E402
from judge.mailout import envelope  # noqa: E402
from judge.mailout.envelope import envelopes, with_pictures  # noqa: E402
from judge.mailout.mailings import Mailer  # noqa: E402
from judge.mailout.render import environment  # noqa: E402
from judge.maps import load_map  # noqa: E402
from judge.runtime import picture_process, pictures  # noqa: E402
from judge.status import parse_status  # noqa: E402

NOW = datetime(2025, 2, 10, 18, 0, tzinfo=UTC)
JUDGE = JudgeSection(id="TEST", address="judge@example.org", keeper="keeper@example.org")
GAME = REPO / "tests" / "mailout" / "data" / "game.status"
READERS = [f"player{n}@example.org" for n in range(8)]


def results_mailing(pdf: bool = True):
    standard = load_map("standard")
    status = parse_status(GAME.read_text())
    after, events = on_process(status, standard, NOW, force=True)
    if pdf:
        after = after.with_power(replace(after.power("AUSTRIA"), picture="PDF"))
    mails = Mailer(environment(), after, standard, pictures=True).for_events(events, now=NOW)
    return next(m for m in mails if m.rendered.subject.startswith("Diplomacy results"))


def batch_maker(draw):
    """The sender's maker of pictures for a batch (a batch's parts where the judge has them)."""
    parts = getattr(envelope, "PictureParts", None)
    return parts(draw) if parts else draw


def cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def one_game(stored: list[bytes]) -> float:
    worker = picture_process.PictureWorker() if hasattr(picture_process, "PictureWorker") else None
    began = cpu()
    draw = pictures.encoder(Limits(), worker) if worker else pictures.encoder(Limits())
    maker = batch_maker(draw)
    for raw in stored:
        with_pictures(raw, maker)
    if worker is not None:
        worker.close()  # its CPU counted
    return cpu() - began


def drain(games: int) -> float:
    """Peak MB held while sending `games` games' mails, the drawing a stand-in."""
    mailing = results_mailing()._replace(recipients=tuple(READERS))
    drawn = mailing.picture.picture
    png = os.urandom(150_000)
    pictures.encode_bounded = lambda svg, kind, limits, *worker: bytes(bytearray(png))  # a copy each
    tracemalloc.start()
    maker = batch_maker(pictures.encoder(Limits()))
    for game in range(games):  # each game's picture its own
        picture = replace(mailing.picture, picture=replace(drawn, svg=f"{drawn.svg}<!-- {game} -->"))
        for mail in envelopes(JUDGE, mailing._replace(picture=picture), now=NOW, key="k",
                              later=True, default_kind="png"):
            with_pictures(bytes(mail), maker)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--games", type=int, default=1000, help="0: no drain")
    parser.add_argument("--png-only", action="store_true", help="no reader wants the PDF")
    args = parser.parse_args()
    mailing = results_mailing(pdf=not args.png_only)
    stored = [bytes(m) for m in envelopes(JUDGE, mailing, now=NOW, key="k", later=True,
                                          default_kind="png")]
    one_game(stored)  # untimed: templates, fonts and the child's start warmed
    runs = [one_game(stored) for _ in range(args.repeat)]
    game = statistics.median(runs)
    print(f"game: {len(stored)} mails, {game * 1000:.0f} ms of CPU ({game * 1000 / len(stored):.1f} "
          f"ms a mail), median of {args.repeat}")
    if args.games:
        print(f"drain: {args.games} games x {len(READERS)} mails: peak {drain(args.games):.1f} MB held")


if __name__ == "__main__":
    main()
