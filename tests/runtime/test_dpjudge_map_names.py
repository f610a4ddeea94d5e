"""A game DPjudge played on a map the judge does not ship plays on when the judgekeeper points
`--map-dir` (or `[paths] maps`) at a folder holding DPjudge's map file."""
from __future__ import annotations

from judge.cli import main
from tests.support.dpjudge import dpjudge_games


def test_a_dpjudge_map_is_found_in_the_map_folder_given(tmp_path, capsys):
    games = dpjudge_games(tmp_path)
    status = games / "alpha" / "status"
    status.write_bytes(status.read_bytes().replace(b"MAP standard", b"MAP Oldstyle"))
    maps = tmp_path / "dpjudge-maps"
    maps.mkdir()
    (maps / "oldstyle.map").write_bytes("# a variant kept by DPjudge, on the standard board\n"
                                        "MAP standard\n".encode("latin-1"))
    assert main(["status", "alpha", "--games", str(games)]) == 1
    assert "not found" in capsys.readouterr().err
    assert main(["status", "alpha", "--games", str(games), "--map-dir", str(maps)]) == 0
    assert "game alpha on oldstyle" in capsys.readouterr().out
