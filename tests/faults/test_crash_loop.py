"""The crash loop: a judge process doing real work (a game's processing by hand, a deadline cycle with
its mails, the inbox worker) is killed with SIGKILL at a random instant of that work, again and again.

After each kill every game's status file parses and is the status before the work or after it; once
the judge has read it back (which completes a change a crash left in flight) its results log and
snapshots agree with that status; every mail in the inbox is still there or done, never lost or
doubled. Then the judge runs again to the end: the games, the results logs, the snapshots and the
outbox are exactly those of a run that was never killed (for the tick: or of two cycles run in the
same slot, since a DELAY on file counts down at every cycle); no mail is queued twice.

`FAULT_RUNS` sets the kills per kind of work (a few in CI; `FAULT_RUNS=200` is the benchmark-sized
loop); `FAULT_SEED` the random instants (one in each of `FAULT_RUNS` equal slices of the work).
"""
from __future__ import annotations

import os
import random
import signal
from collections import Counter
from pathlib import Path

import pytest

from judge.runtime.journal import pending
from judge.runtime.game_files import read_game
from judge.runtime.press_file import PRESS_FILE
from judge.status import parse_status
from judge.runtime.store import GameStore
from tests.support.faults import (
    NOW,
    start,
    TICK_AT,
    copy_judge,
    game_files,
    inbox_items,
    make_judge,
    outbox_mails,
    work,
)

pytestmark = pytest.mark.faults

RUNS = int(os.environ.get("FAULT_RUNS", "3"))
SEED = int(os.environ.get("FAULT_SEED", "20250106"))
WHEN = {"process": NOW + (TICK_AT - NOW) / 2, "tick": TICK_AT, "mail": NOW}


def games(config) -> dict[str, dict[str, str]]:
    return {name: game_files(config, name) for name in GameStore(config.paths.games).names()}


def snapshots(files: dict[str, str]) -> dict[str, str]:
    return {name: text for name, text in files.items() if name.startswith("status.")}


def check_killed(config, before, after) -> None:
    """What a kill may leave: each game before or after the work, in every file once read back."""
    store = GameStore(config.paths.games)
    for name, was in before.items():
        files = game_files(config, name)
        parse_status(files["status"])
        assert files["status"] in (was["status"], after[name]["status"]), name
        with store.locked(name) as game:  # what the judge does first on reading a game
            read_game(game)
        files = game_files(config, name)
        # the kept press without the message or with it once, whatever the status
        assert files.get(PRESS_FILE) in (was.get(PRESS_FILE), after[name].get(PRESS_FILE)), name
        if files["status"] == after[name]["status"]:
            assert files.get("results") == after[name].get("results"), name
            assert snapshots(files) == snapshots(after[name]), name
        else:
            assert files["status"] == was["status"]
            assert files.get("results") == was.get("results"), name
            assert snapshots(files) in (snapshots(was), snapshots(after[name])), name
    assert not [j for j in pending(Path(config.paths.games)) if not _mails_waiting(config, j)]


def _mails_waiting(config, name: str) -> bool:
    """A journal left after a read is one whose mails wait for the next cycle to send them."""
    import json
    entry = json.loads((Path(config.paths.games) / ".journal" / f"{name}.json").read_text())
    return entry["done"] and bool(entry["mails"])


def check_inbox(config, reference) -> None:
    found = inbox_items(config)
    assert sorted(found) == sorted(reference), "an inbox mail lost or added"
    assert all(len(places) == 1 for places in found.values()), found


@pytest.mark.parametrize("kind", ["process", "tick", "mail"])
def test_sigkill_at_a_random_instant_loses_nothing_and_doubles_nothing(kind, tmp_path):
    base = make_judge(tmp_path / "base", kind)
    before = games(base)
    # A first, cold run (compiling, filling the OS caches) is slower than the killed runs will be:
    # time a warm one, so the random instants fall inside the work rather than after it.
    work(copy_judge(tmp_path / "base", tmp_path / "warm-up"), kind, WHEN[kind], None)
    reference = copy_judge(tmp_path / "base", tmp_path / "reference")
    inbox_before = inbox_items(reference)
    clean = work(reference, kind, WHEN[kind], None)
    after, mails = games(reference), outbox_mails(reference)
    assert after != before and (mails or kind == "process")
    assert kind != "mail" or PRESS_FILE in after["g"]  # the press mail's message kept
    twice = after
    if kind == "tick":
        work(reference, kind, WHEN[kind], None)
        twice = games(reference)
        assert outbox_mails(reference) == mails  # the second cycle in the slot mails nothing new
    assert len({m[0] for m in mails}) == len(mails) == len(set(mails))
    rng = random.Random(f"{SEED}-{kind}")
    kills = 0
    for number in range(RUNS):
        config = copy_judge(tmp_path / "base", tmp_path / "run")
        # Stratified: run n is killed in the n-th of RUNS equal slices of the window, at random
        # within it, so even a CI budget of three kills spreads over the work (three uniform draws
        # could all land after it).
        window = clean.seconds * 1.2
        run = work(config, kind, WHEN[kind], window * (number + rng.random()) / RUNS)
        kills += run.killed
        if kind == "mail":
            check_inbox(config, inbox_before)
        check_killed(config, before, after)
        if kind != "process" or games(config) != after:  # the judge started again (the keeper
            work(config, kind, WHEN[kind], None)          # runs `judge process` again if need be)
        else:  # killed after its commit point: the mails wait in the journal for the next cycle
            work(config, "tick", WHEN[kind], None)
        final = games(config)
        assert all(final[g] in (after[g], twice[g]) for g in after) and final.keys() == after.keys(), \
            f"run {number}: the games differ from an unkilled run"
        again = outbox_mails(config)
        assert Counter(again) == Counter(mails), f"run {number}: a mail lost or sent twice"
        if kind == "mail":
            assert all(places == ["done"] for places in inbox_items(config).values())
    assert kills >= RUNS // 2, "most runs must be killed mid-work (the work took too little time?)"


def test_a_process_by_hand_killed_at_its_commit_point_has_its_mails_sent_by_the_next_cycle(tmp_path):
    """The status is rolled forward when the game is next read, so the keeper has no reason to
    run `judge process` again: the results wait in the journal, and the daemon's next cycle sends
    them, once."""
    base = make_judge(tmp_path / "base", "process")
    before = games(base)
    reference = copy_judge(tmp_path / "base", tmp_path / "reference")
    work(reference, "process", WHEN["process"], None)
    after, mails = games(reference), outbox_mails(reference)
    config = copy_judge(tmp_path / "base", tmp_path / "run")
    killed = start(config, "process", WHEN["process"], JUDGE_TEST_KILL_AFTER_JOURNAL="1")
    output = killed.communicate(timeout=120)[0].decode()
    assert killed.returncode == -signal.SIGKILL, output
    check_killed(config, before, after)
    assert games(config) == after and outbox_mails(config) == []
    work(config, "tick", WHEN["process"], None)
    assert games(config) == after
    assert Counter(outbox_mails(config)) == Counter(mails), "the results lost or sent twice"
