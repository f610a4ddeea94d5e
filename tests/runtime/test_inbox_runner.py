"""The inbox runner: the commands of a mail run against the games as read and write nothing; the
runner writes what they did in one commit, reading the game's journal once; a judge-wide count of
wrong passwords changed by another process meanwhile makes it run the mail again, never lose a
count."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from judge.commands.auth import JUDGEKEEPER
from judge.commands.dispatch import run_mail
from judge.commands.throttle import Policy, Scope, Secret, after_wrong, from_json
from judge.mailin.message import read_message
from judge.maps import MapCache
from judge.runtime import journal
from judge.runtime.game_access import FAILURES, StoreGames
from judge.mailin.message import envelope_sender
from judge.runtime.inbox import carry_out
from tests.support.commands import EML, NOW, SETTINGS, Judge
from tests.support.mail import mail

REPO = Path(__file__).resolve().parents[2]
WRONG = ("SIGNON Fvienna guess1",)


@pytest.fixture
def vienna(tmp_path: Path) -> Judge:
    judge = Judge(tmp_path / "games")
    judge.add("vienna")
    return judge


def incoming(raw: bytes):
    from email import message_from_bytes, policy

    return read_message(raw, envelope_sender(message_from_bytes(raw, policy=policy.default)),
                        SETTINGS.address)


def files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.name != ".lock"}


def test_the_command_layer_imports_nothing_that_writes_or_mails():
    """Running a mail's commands needs no file and no mail rendering: nothing to call back."""
    code = ("import sys, judge.commands.dispatch as d; print(sorted(m for m in sys.modules if "
            "m.startswith(('judge.runtime', 'judge.cli', 'judge.mailout'))))")
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO,
                           check=True).stdout.strip()
    assert found == "[]"


def test_running_a_mail_writes_nothing_and_hands_back_the_change(vienna):
    before = files(vienna.store.root)
    orders = incoming((EML / "orders.eml").read_bytes())
    wrong = incoming(mail("mallory@evil.test", *WRONG))
    with StoreGames(vienna.store, SETTINGS) as games:
        reply, _, change = run_mail(orders, games, SETTINGS, NOW)
        assert not reply.failed and change.writes_game and change.game == "vienna"
        assert change.status.power("FRANCE").orders != vienna.status("vienna").power("FRANCE").orders
    with StoreGames(vienna.store, SETTINGS) as games:
        reply, _, change = run_mail(wrong, games, SETTINGS, NOW)
        assert reply.failed and not change.writes_game
        assert change.failures["vienna"]["FRANCE"].failures[0].sender == "mallory@evil.test"
        assert change.judge_failures is not None  # the judgekeeper's password was tested too
    assert files(vienna.store.root) == before


def test_the_runner_writes_the_change_and_the_counts(vienna):
    carry_out(incoming(mail("mallory@evil.test", *WRONG)), vienna.store, SETTINGS, NOW)
    assert "mallory@evil.test" in (vienna.store.root / "vienna" / FAILURES).read_text()
    assert "mallory@evil.test" in (vienna.store.root / FAILURES).read_text()
    before = vienna.status("vienna").power("FRANCE").orders
    assert not vienna.send("orders.eml").failed
    assert vienna.status("vienna").power("FRANCE").orders != before


def test_a_judge_wide_count_changed_meanwhile_runs_the_mail_again_and_keeps_both(vienna):
    keeper = [Secret(JUDGEKEEPER, Scope.JUDGE)]
    runs = []

    def render(reply, events, after):
        """Between the mail's run and its commit, another process counts a failure."""
        runs.append(reply)
        if len(runs) == 1:
            with StoreGames(vienna.store, SETTINGS) as other:
                other.update_judge_password_failures(
                    lambda t: after_wrong(t, keeper, "other@elsewhere.test", NOW, Policy()))
        return []

    carry_out(incoming(mail("mallory@evil.test", *WRONG)), vienna.store, SETTINGS, NOW,
              render=render)
    assert len(runs) == 2
    with StoreGames(vienna.store, SETTINGS) as games:
        counted = {f.sender for f in games.judge_password_failures()[JUDGEKEEPER].failures}
    assert counted == {"other@elsewhere.test", "mallory@evil.test"}
    game = from_json((vienna.store.root / "vienna" / FAILURES).read_text())
    assert game and all(len(record.failures) == 1 for record in game.values())  # once, not per run


def test_the_journal_is_read_once_for_a_mail_that_changes_a_game(vienna, monkeypatch):
    looks = []
    real_read, real_names = journal.read_text, journal.names_in

    def read_text(path, root=None):
        looks.append(("read", Path(path).name))
        return real_read(path, root)

    def names_in(folder, root=None):
        looks.append(("list", Path(folder).name))
        return real_names(folder, root)
    monkeypatch.setattr(journal, "read_text", read_text)
    monkeypatch.setattr(journal, "names_in", names_in)
    sent = vienna.send("orders.eml")
    assert not sent.failed and looks == [("read", "vienna.json")]


def test_the_map_cache_keeps_a_map_per_name_and_morphs_and_its_size():
    maps = MapCache(size=2)
    standard = maps.get("standard")
    assert maps.get("standard") is standard and maps.get("standard", ()) is standard
    morphed = maps.get("standard", ("VICTORY 5",))
    assert morphed is not standard and morphed is maps.get("standard", ["VICTORY 5"])
    maps.get("standard", ("VICTORY 6",))  # a third: the oldest goes (the process keeps it parsed)
    assert len(maps.maps) == 2 and ("standard", ()) not in maps.maps
