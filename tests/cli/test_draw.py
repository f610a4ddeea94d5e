"""`judge map draw` (a map at its start, a game's position or processed phase, to a file) and the
drawing data `judge map check` reports."""
from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

from PIL import Image

from judge.cli import main
from judge.drawing.borders import Break, BreakKind
from judge.game import join
from judge.maps.loader import bundled_maps_dir
from judge.runtime.commit import run
from judge.runtime.store import GameStore
from judge.status.model import GameResult, GameStage
from tests.support.drawing import parts
from tests.support.games import NOW, player
from tests.support.master import process


def test_a_map_at_its_start_to_png_svg_and_pdf(tmp_path, capsys):
    assert main(["map", "draw", "standard", "-o", str(tmp_path / "s.png")]) == 0
    assert Image.open(tmp_path / "s.png").size[0] == 1200
    assert main(["map", "draw", "standard", "--format", "svg", "-o", str(tmp_path / "s.out")]) == 0
    assert len(parts((tmp_path / "s.out").read_text(), "unit")) == 22
    assert main(["map", "draw", "pure", "-o", str(tmp_path / "p.pdf")]) == 0
    assert (tmp_path / "p.pdf").read_bytes().startswith(b"%PDF-")
    assert "s.png: png, standard SPRING 1901 MOVEMENT" in capsys.readouterr().out


def started_game(tmp_path: Path) -> tuple[Path, GameStore]:
    """Game g1 on the standard map, its seven seats taken: the games folder and its store."""
    games = tmp_path / "games"
    assert main(["new", "g1", "--map", "standard", "--password", "pw", "--games", str(games)]) == 0
    store = GameStore(games)
    for n in range(7):
        run(store, "g1", lambda s, m, n=n: join(s, m, NOW, player(n), "pw"))
    return games, store


def test_a_games_position_and_a_processed_phase(tmp_path):
    games, store = started_game(tmp_path)
    process(store, "g1", NOW, force=True)
    out = tmp_path / "now.svg"
    assert main(["map", "draw", "--game", "g1", "--games", str(games), "-o", str(out)]) == 0
    svg = out.read_text()
    assert "g1: Fall 1901 Movement" in svg and not parts(svg, "order")
    assert main(["map", "draw", "--game", "g1", "--games", str(games), "--phase", "S1901M",
                 "-o", str(out)]) == 0
    svg = out.read_text()
    assert "g1: Spring 1901 Movement (results)" in svg and len(parts(svg, "hold")) == 22


def test_bad_requests_are_refused(tmp_path, capsys):
    out = str(tmp_path / "x.png")
    assert main(["map", "draw", "-o", out]) == 2
    assert main(["map", "draw", "standard", "--game", "g", "-o", out]) == 2
    assert main(["map", "draw", "standard", "--phase", "S1901M", "-o", out]) == 2
    assert main(["map", "draw", "--game", "nosuch", "--games", str(tmp_path), "-o", out]) == 2
    assert main(["map", "draw", "nosuchmap", "-o", out]) == 2
    err = capsys.readouterr().err
    assert "give a map (NAME_OR_PATH) or --game GAME, not both" in err and "--phase needs --game" in err


def test_check_reports_a_map_without_drawing_data(tmp_path, capsys):
    shutil.copy(bundled_maps_dir() / "pure.map", tmp_path / "mine.map")
    assert main(["map", "check", str(tmp_path / "mine.map")]) == 0
    err = capsys.readouterr().err
    assert "mine: no drawing data (no .draw file beside the map): drawn as a schematic layout (drawing)" in err
    (tmp_path / "mine.draw").write_text("SIZE 100 100\nBER 10 10\nXYZ 1 1\nBER 2\n")
    main(["map", "check", str(tmp_path / "mine.map")])
    assert f"{tmp_path / 'mine.draw'}:4: expected a word and two numbers, not 'BER 2'" in capsys.readouterr().err
    (tmp_path / "mine.draw").write_text("SIZE 100 100\nBER 10 10\nXYZ 1 1\n")
    main(["map", "check", str(tmp_path / "mine.map")])
    err = capsys.readouterr().err
    assert "no point for CON LON MOS PAR ROM VIE (drawn schematically)" in err
    assert "places not on the map: XYZ" in err


def test_check_reports_of_the_shipped_maps_only_their_listed_drawn_border_breaks(capsys):
    listed = Path(__file__).resolve().parents[1] / "drawing" / "fixtures" / "drawn_borders"
    assert main(["map", "check", "standard", "fleetrome", "youngstown"]) == 0
    expected = [f"{bundled_maps_dir() / draw}: {_listed_break(line)} (drawing)"
                for name, draw in (("standard", "standard.draw"), ("fleetrome", "standard.draw"),
                                   ("youngstown", "youngstown.draw"))
                for line in (listed / f"{name}.txt").read_text().splitlines()
                if line and not line.startswith("#")]
    err = capsys.readouterr().err.splitlines()
    assert err == expected
    assert f"{bundled_maps_dir() / 'youngstown.draw'}: OBA and OBB are adjacent but meet only beyond the frame " \
           "(beyond-frame) (drawing)" in err


def _listed_break(line: str) -> Break:
    first, second, kind = line.split("  #", 1)[0].split()
    return Break(first, second, BreakKind(kind))


def test_a_map_given_by_path_is_named_without_its_folder(tmp_path):
    shutil.copy(bundled_maps_dir() / "pure.map", tmp_path / "mine.map")
    assert main(["map", "draw", str(tmp_path / "mine.map"), "-o", str(tmp_path / "m.svg")]) == 0
    svg = (tmp_path / "m.svg").read_text()
    assert "mine: Spring 1901 Movement" in svg and "map mine has no drawing data" in svg
    assert str(tmp_path) not in svg


def test_a_finished_game_is_drawn_in_its_last_position(tmp_path):
    games, store = started_game(tmp_path)
    run(store, "g1", lambda s, m: (replace(
        s.with_power(replace(s.power("FRANCE"), units=s.power("FRANCE").units[:1])),
        phase=GameStage.COMPLETED, result=GameResult("F1903M", ("FRANCE",))), []))
    out = tmp_path / "end.svg"
    assert main(["map", "draw", "--game", "g1", "--games", str(games), "-o", str(out)]) == 0
    svg = out.read_text()
    assert "g1: Fall 1903 Movement" in svg and "Spring 1901" not in svg
    assert len(parts(svg, "unit")) == 22 - 2
