"""`judge map check` and `judge map show --json`: the command-line faces of the map engine."""
from __future__ import annotations

import json

from judge.cli import main
from judge.maps.loader import FileLoader


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_check_prints_a_summary_per_map(capsys):
    code, out, _ = run(capsys, "map", "check", "standard", "pure")
    assert code == 0
    assert out.splitlines() == ["standard: 75 places (82 locations), 34 centres, 7 powers",
                                "pure: 7 places (7 locations), 7 centres, 7 powers"]


def test_check_reports_every_error_with_file_and_line(tmp_path, capsys):
    bad = tmp_path / "bad.map"
    bad.write_text("USE standard\nAMEND PAR ABUTS QQQ\nVICTORY many\n")
    code, out, _ = run(capsys, "map", "check", str(bad), "standard")
    assert code == 1
    assert f"{bad}:2: PAR ABUTS QQQ: no such place" in out
    assert f"{bad}:3: VICTORY takes one or more positive centre counts" in out
    assert "standard: 75 places" in out


def test_check_unknown_map(capsys):
    code, out, _ = run(capsys, "map", "check", "nosuchmap")
    assert code == 1 and "cannot read map file 'nosuchmap'" in out


def test_show_json_standard(capsys):
    code, out, _ = run(capsys, "map", "show", "standard", "--json")
    assert code == 0
    j = json.loads(out)
    assert j["name"] == "standard" and j["begin"] == "SPRING 1901 MOVEMENT" and j["victory"] == [18]
    assert j["flow"] == [["SPRING", ["MOVEMENT", "RETREATS"]], ["FALL", ["MOVEMENT", "RETREATS"]],
                         ["WINTER", ["ADJUSTMENTS"]]]
    assert j["locations"]["PAR"] == {"name": "Paris", "terrain": "LAND", "center": True}
    assert j["locations"]["SPA/NC"]["terrain"] == "COAST"
    assert j["army_moves"]["PAR"] == ["BRE", "BUR", "GAS", "PIC"]
    assert j["fleet_moves"]["BRE"] == ["ENG", "GAS", "MAO", "PIC"]
    assert j["fleet_moves"]["SPA/NC"] == ["GAS", "MAO", "POR"]
    assert "SPA" not in j["fleet_moves"] and "SPA/NC" not in j["army_moves"]
    assert j["powers"]["FRANCE"] == {"abbrev": "F", "adjective": "French", "homes": ["BRE", "MAR", "PAR"],
                                     "centers": ["BRE", "MAR", "PAR"], "units": ["A MAR", "A PAR", "F BRE"]}
    assert len(j["unowned"]) == 12 and j["unowned"] == sorted(j["unowned"])
    assert j["rules"] == []


def test_show_applies_the_begin_phase_in_blocks(tmp_path, capsys):
    path = tmp_path / "seasonal.map"
    path.write_text("USE standard\nIN SPRING: SHUT SWE\n")
    _, out, _ = run(capsys, "map", "show", str(path), "--json")
    assert json.loads(out)["locations"]["SWE"]["terrain"] == "SHUT"


def test_loader_prefers_the_including_files_folder(tmp_path):
    (tmp_path / "standard.map").write_text("# a local override\n")
    (tmp_path / "variant.map").write_text("USE standard\n")
    label, text = FileLoader()("standard", str(tmp_path / "variant.map"))
    assert label == str(tmp_path / "standard.map")


def test_loader_searches_given_folders_before_bundled(tmp_path):
    (tmp_path / "pure.map").write_text("# mine\n")
    label, _ = FileLoader([tmp_path])("pure", None)
    assert label == str(tmp_path / "pure.map")


def test_loader_reads_latin1_files(tmp_path):
    (tmp_path / "old.map").write_bytes("Br\xe9sil = bre\n".encode("latin-1"))
    _, text = FileLoader([tmp_path])("old", None)
    assert text.startswith("Brésil")


def test_show_of_invalid_map_fails_cleanly(tmp_path, capsys):
    bad = tmp_path / "bad.map"
    bad.write_text("LAND QQQ\n")
    code, out, err = run(capsys, "map", "show", str(bad), "--json")
    assert code == 1 and out == "" and "unknown abbreviation QQQ" in err
