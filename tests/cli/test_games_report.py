"""`judge games`: every game with its state, every problem as `file:line: what is wrong`, exit 1 when
a game cannot be played."""
from __future__ import annotations

import shutil

from judge.cli import main
from tests.support.dpjudge import dpjudge_games


def run(capsys, *words: str) -> tuple[int, list[str]]:
    code = main(["games", *words])
    return code, capsys.readouterr().out.splitlines()


def test_a_dpjudge_games_folder_is_listed_with_each_state(tmp_path, capsys):
    games = dpjudge_games(tmp_path)
    code, lines = run(capsys, "--games", str(games))
    assert code == 0
    assert [line.split()[:2] for line in lines[:-1]] == [
        ["alpha", "active"], ["beta", "active"], ["delta", "forming"], ["epsilon", "waiting"],
        ["eta", "terminated"], ["gamma", "preparation"], ["zeta", "completed"]]
    assert lines[5].endswith("FORMING                 standard unlisted")
    assert lines[-1] == "7 games; every one can be played"


def test_every_problem_is_shown_at_its_line(tmp_path, capsys):
    games = dpjudge_games(tmp_path)
    alpha = games / "alpha" / "status"
    alpha.write_bytes(alpha.read_bytes().replace(b"\nA SER\n", b"\nA XYZ\n").replace(
        b"OWNS BUD TRI VIE", b"OWNS BUD TRI VIE SIL"))
    beta = games / "beta" / "status"
    beta.write_bytes(beta.read_bytes().replace(b"DEADLINE 202612010800", b"DEADLINE 2026120108"))
    (games / "eta" / "state").write_text("STATE bogus\n")
    (games / "delta" / "status").write_bytes(b"GAME delta\nPHASE FORMING\nMAP nowhere\n")
    with (games / "status").open("a") as index:
        index.write("%32s standard active\n" % "ghost")
    index = games / "status"
    index.write_bytes(index.read_bytes().replace(b"zeta standard", b"zeta chess"))
    code, lines = run(capsys, "--games", str(games))
    assert code == 1
    assert "  alpha/status:18: A XYZ: map standard has no place XYZ" in lines
    assert "  alpha/status:17: OWNS SIL: not a supply centre of map standard" in lines
    assert ("  beta/status:16: DEADLINE: '2026120108' is not a date and time written yyyymmddhhmm"
            in lines)
    assert "  eta/state:1: STATE is preparation, waiting or terminated, not 'bogus'" in lines
    assert any(line.startswith("  delta/status:3: map nowhere: ") for line in lines)
    assert "  status:8: game ghost is in the index but has no folder ghost/ with a status file" in lines
    assert "  status:6: game zeta is a chess game: the judge plays standard, xtalball, payola games" in lines
    assert lines[-1] == "8 games; 6 cannot be played: alpha, beta, delta, eta, zeta, ghost"


def test_the_configuration_names_the_games_folder(tmp_path, capsys):
    games = dpjudge_games(tmp_path)
    (tmp_path / "judge.toml").write_text(f'[paths]\ngames = "{games}"\nmaps = "{tmp_path / "maps"}"\n')
    code, lines = run(capsys, "--config", str(tmp_path / "judge.toml"))
    assert code == 0 and lines[-1] == "7 games; every one can be played"


def test_the_rule_problems_are_shown_at_their_line(tmp_path, capsys):
    games = dpjudge_games(tmp_path)
    beta = games / "beta" / "status"
    beta.write_bytes(beta.read_bytes().replace(b"RULE EAVESDROP\n", b"RULE EAVESDROP FOOBAR\n")
                     .replace(b"RULE !BROADCAST_ORDERS\n", b"RULE !BROADCAST_ORDERS\nRULE ZEROSUM\n"))
    code, lines = run(capsys, "--games", str(games))
    assert code == 1
    assert "  beta/status:14: NO SUCH RULE: FOOBAR" in lines
    assert "  beta/status:16: RULE ZEROSUM REQUIRES PAYOLA VARIANT" in lines
    assert lines[-1] == "7 games; 1 cannot be played: beta"


def test_a_game_with_a_long_name_is_listed_and_one_the_judge_cannot_name_is_reported(tmp_path, capsys):
    games = dpjudge_games(tmp_path)
    long, too_long = "a_game_whose_name_dpjudge_allows_beyond_forty", "x" * 201
    for name in (long, too_long):
        shutil.copytree(games / "alpha", games / name)
        (games / name / "status").write_bytes(
            (games / name / "status").read_bytes().replace(b"GAME alpha\n", f"GAME {name}\n".encode()))
    with (games / "status").open("a") as index:
        index.write("%32s standard active\n" % long)
    code, lines = run(capsys, "--games", str(games))
    assert code == 1
    assert lines[0].split()[:2] == [long, "active"]
    assert (f"  {too_long}/status:1: the judge leaves this game alone: bad game name '{too_long}': "
            "use 1 to 200 of a-z, 0-9, _ and - (not first)") in lines
    assert lines[-1] == f"9 games; 1 cannot be played: {too_long}"
