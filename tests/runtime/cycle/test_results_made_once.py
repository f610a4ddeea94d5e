"""A processed phase's results in a tick: the mails and the results archive carry the same words (in
a BLIND game each reader has its own version, the archive keeping them in parts)."""
from __future__ import annotations

from email import message_from_bytes, policy

from judge.game.archive import entries
from judge.runtime.config import load_config
from judge.runtime.cycle import run_cycle
from judge.runtime.spool import open_spools
from judge.runtime.store import GameStore
from tests.support.faults import JUDGE, TICK_AT, everyone_ordered, started, write_config

URL = "http://judge.example.test/games"


def judge_folder(tmp_path, *lines: str, url: str = ""):
    config = write_config(tmp_path)
    if url:
        path = tmp_path / "judge.toml"
        path.write_text(path.read_text().replace("[paths]", f'url = "{url}"\n[paths]'))
        config = load_config(path)
    store = GameStore(config.paths.games)
    started(store, "g", *lines)
    everyone_ordered(store, "g")
    return config, store


def archive_of(store: GameStore) -> str:
    with store.locked("g") as game:
        return game.read_results()


def body(entry) -> str:
    return "\n".join(entry.lines).strip("\n")


def text_of(mail) -> str:
    return mail.get_body(("plain",)).get_content().strip("\n")


def outbox_results(config) -> list:
    outbox = open_spools(config).outbox
    mails = [message_from_bytes(outbox.read(item), policy=policy.default) for item in outbox.waiting()]
    return [m for m in mails if str(m["Subject"]).startswith("Diplomacy results")]


def test_a_tick_s_results_mails_and_archive_carry_the_same_words(tmp_path):
    config, store = judge_folder(tmp_path)
    run_cycle(store, config, TICK_AT, outbox=open_spools(config).outbox)
    [entry] = entries(archive_of(store))
    mails = outbox_results(config)
    assert len(mails) == 8  # the seven players and the Master
    assert all(text_of(mail) == body(entry) for mail in mails)


def test_a_blind_game_s_readers_each_get_their_own_results(tmp_path):
    config, store = judge_folder(tmp_path, "RULE BLIND")
    run_cycle(store, config, TICK_AT, outbox=open_spools(config).outbox)
    assert len(outbox_results(config)) == 8  # each of the seven powers, and the Master
    [entry] = entries(archive_of(store))
    assert any(line.startswith("SHOW ") for line in entry.lines)  # parts for some readers only
    assert len({text_of(mail) for mail in outbox_results(config)}) > 1


def test_the_archive_keeps_the_url_line_the_mails_have_as_dpjudge_does(tmp_path):
    config, store = judge_folder(tmp_path, url=URL)
    run_cycle(store, config, TICK_AT, outbox=open_spools(config).outbox)
    mails = outbox_results(config)
    assert mails and all(f":: URL: {URL}?game=g" in text_of(mail) for mail in mails)
    archived = archive_of(store)
    assert ":: Judge: CRASH  Game: g" in archived and f":: URL: {URL}?game=g\n" in archived
    assert archived.startswith(f"From {JUDGE} ")
