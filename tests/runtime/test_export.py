"""`judge export GAME FOLDER`: the game as DPjudge reads it (its layout, latin-1, its snapshots, the
results archive, its line in DPjudge's games index). A game DPjudge saved goes back byte for byte."""
from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from judge.cli import main
from judge.game.games_index import parse_index
from judge.runtime.commit import run
from judge.runtime.commit import new_game
from judge.runtime.press_file import PRESS_FILE
from judge.runtime.store import GameStore
from judge.game import join
from judge.status import parse_status, write_status
from tests.support.dpjudge import EXPORTED, GAMES, PHASES, dpjudge_games, position, served
from tests.support.games import NOW, player

SAVED_BY_DPJUDGE = ("alpha", "beta", "epsilon", "eta", "zeta")


def export(games, name, folder) -> int:
    return main(["export", name, str(folder), "--games", str(games)])


@pytest.mark.parametrize("name", SAVED_BY_DPJUDGE)
def test_a_game_dpjudge_saved_goes_back_byte_for_byte(tmp_path, name):
    games = dpjudge_games(tmp_path)
    assert export(games, name, tmp_path / "back") == 0
    for original in (GAMES / name).iterdir():
        assert (tmp_path / "back" / name / original.name).read_bytes() == original.read_bytes()
    line = parse_index((tmp_path / "back" / "status").read_text(encoding="latin-1"))[name]
    if name != "beta":  # beta's line was written by hand, without DPjudge's `private`
        assert line == parse_index((GAMES / "status").read_text(encoding="latin-1"))[name]


def test_the_index_keeps_the_lines_already_there(tmp_path):
    games = dpjudge_games(tmp_path)
    back = tmp_path / "back"
    back.mkdir()
    (back / "status").write_text("%32s payola active\n" % "other")
    assert export(games, "gamma", back) == 0
    assert (back / "status").read_text(encoding="latin-1") == (
        "%32s standard preparation unlisted\n%32s payola active\n" % ("gamma", "other"))


def test_a_game_the_judge_made_is_written_in_dpjudge_s_words(tmp_path, capsys):
    store = GameStore(tmp_path / "games")
    new_game(store, "native", "standard", "gm@example.com", "gmpw",
             ["DESC Café à 5 €", "TEAMS ENGLAND-FRANCE"])
    for n in range(6):  # France is England's dummy
        run(store, "native", lambda s, m, n=n: join(s, m, NOW, player(n), f"pw{n}"))
    assert export(store.root, "native", tmp_path / "back") == 0
    text = (tmp_path / "back" / "native" / "status").read_bytes().decode("latin-1")
    assert text.startswith("GAME native\nPHASE SPRING 1901 MOVEMENT\nMAP standard\n"
                           "MASTER |gm@example.com|\n")
    assert "DESC Café à 5 &#8364;\n" in text and "TEAMS" not in text and "NO-ID" not in text
    assert "\n\nAUSTRIA\nPLAYER |player" in text  # a power of a started game: named alone
    assert (tmp_path / "back" / "native" / "status.FORMING").exists()
    notes = capsys.readouterr().err
    assert "native/status: the password of the Master is stored hashed" in notes
    assert "native/status:7: a character latin-1 lacks is written as &#...;" in notes
    assert parse_index((tmp_path / "back" / "status").read_text())["native"].state == "active"


def test_a_game_the_judge_processed_goes_back_as_dpjudge_loaded_and_played_it(tmp_path):
    """DPjudge (run once, recorded) loaded this export after the judge processed FALL 1902, took
    two players' orders, saved the file back unchanged but for them, and processed WINTER 1902.
    The results archive, which DPjudge only appends to, is the judge's (see the cycle's tests)."""
    games = served(tmp_path)
    assert export(games, "alpha", tmp_path / "back") == 0
    written = {str(p.relative_to(tmp_path / "back")): p.read_bytes()
               for p in (tmp_path / "back").rglob("*") if p.is_file()}
    assert written.pop("alpha/results") == (games / "alpha" / "results").read_bytes()
    assert written == {str(p.relative_to(EXPORTED)): p.read_bytes()
                       for p in EXPORTED.rglob("*") if p.is_file()}
    with_orders = (PHASES / "alpha.W1902A.orders").read_bytes()  # as DPjudge saved it
    assert with_orders.replace(b"BUILD A BUD\n", b"").replace(b"REMOVE A BUR\n", b"") == \
        written["alpha/status"]


def test_dpjudge_s_next_phase_of_an_exported_game_is_the_judge_s(tmp_path):
    games = dpjudge_games(tmp_path)
    (games / "alpha" / "status").write_bytes((PHASES / "alpha.W1902A.orders").read_bytes())
    assert main(["process", "alpha", "--force", "--games", str(games)]) == 0
    judged = parse_status((games / "alpha" / "status").read_bytes().decode("latin-1"))
    dpjudge = parse_status((PHASES / "alpha.S1903M.dpjudge").read_bytes().decode("latin-1"))
    assert position(judged) == position(dpjudge)


HIDDEN = Path(__file__).parent.parent / "game" / "fixtures" / "blind" / "hidden"
HIDDEN_BUILDS = {"austria": ("A", "auspw", "BUILD A TRI\nBUILD A VIE"),
                 "england": ("E", "engpw", "BUILD F LON"),
                 "france": ("F", "frapw", "BUILD F BRE\nBUILD A PAR"),
                 "germany": ("G", "gerpw", "BUILD F KIE\nBUILD A BER"),
                 "italy": ("I", "itapw", "BUILD F NAP"),
                 "russia": ("R", "ruspw", "BUILD F STP/NC\nBUILD A MOS")}


def builds_mailed(tmp_path):
    """The winter of `winter.saved` under HIDE_BUILDS with no orders in, then the builds each
    player mailed DPjudge for it (Turkey's not yet); the judge and the replies."""
    from tests.support.commands import Judge
    saved = (HIDDEN / "winter.saved").read_text(encoding="latin-1")
    judge = Judge(tmp_path / "games")
    judge.store.create("blind", "".join(line for line in saved.splitlines(keepends=True)
                                        if not line.startswith("BUILD ")))
    sent = {power: judge.send(f"From: {power}@example.org\nTo: judge@example.org\nSubject: o\n\n"
                              f"SIGNON {letter}blind {password}\n{orders}\nSIGNOFF\n".encode(),
                              now=datetime(2026, 11, 24, 12, 0, tzinfo=UTC))
            for power, (letter, password, orders) in HIDDEN_BUILDS.items()}
    return judge, sent


def test_a_winter_of_hidden_builds_goes_back_as_dpjudge_keeps_it(tmp_path):
    """Under HIDE_BUILDS DPjudge keeps a build ordered as `BUILD A TRI HIDDEN`, and builds a
    `BUILD A TRI` in the open. After the same mails the judge's export is DPjudge's file."""
    judge, _ = builds_mailed(tmp_path)
    assert export(judge.store.root, "blind", tmp_path / "back") == 0
    assert (tmp_path / "back" / "blind" / "status").read_bytes() == (HIDDEN / "winter.saved").read_bytes()


def test_dpjudges_winter_of_hidden_builds_is_written_back_byte_for_byte():
    text = (HIDDEN / "winter.saved").read_text(encoding="latin-1")
    status = parse_status(text)
    assert [(o.unit.text, o.hidden) for o in status.power("ENGLAND").adjustments] == [("F LON", True)]
    assert write_status(status) == text


def test_the_kept_press_is_left_out(tmp_path):
    """`press.json` is the judge's own (DPjudge reads its `press` file, in another layout):
    the export carries neither."""
    store = GameStore(tmp_path / "games")
    new_game(store, "chatty", "standard", "gm@example.com", "gmpw", [])
    (store.root / "chatty" / PRESS_FILE).write_text('{"number": 1}\n')
    assert export(store.root, "chatty", tmp_path / "back") == 0
    assert sorted(p.name for p in (tmp_path / "back" / "chatty").iterdir()) == ["status"]


def test_a_crystal_ball_games_lists_file_goes_back_as_it_is(tmp_path):
    """DPjudge keeps a Crystal Ball game's locked lists in its `lists` file: the export carries it."""
    store = GameStore(tmp_path / "games")
    new_game(store, "ball", "standard", "gm@example.com", "gmpw", [])
    (store.root / "ball" / "lists").write_bytes(b"SPRING 1901 MOVEMENT ORDERS\n")
    assert export(store.root, "ball", tmp_path / "back") == 0
    assert (tmp_path / "back" / "ball" / "lists").read_bytes() == b"SPRING 1901 MOVEMENT ORDERS\n"
