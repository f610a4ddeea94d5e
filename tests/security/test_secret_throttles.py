"""Guessing the passwords that are good for more than one role: the judgekeeper's (tested in every
game, and anyone may CREATE games), the Master's and an omniscient player's (tested for every role
of their game), and a private game's privacy password. Each has its own count of the checks that
tested it; while it is paused it is not tested, its owner is told once with an UNLOCK code, and
nobody else's own password stops working."""
from __future__ import annotations

import fcntl
import re
from datetime import datetime, timedelta

import pytest

from judge.commands.auth import JUDGEKEEPER
from judge.notices import PasswordsPaused
from judge.runtime.game_access import FAILURES, StoreGames
from judge.commands.throttle import Policy, Scope, Secret, after_wrong
from judge.runtime.store import LOCK, GameStore
from tests.support.commands import GAMES, NOW, SETTINGS
from tests.support.mail import KEEPER, mail, texts

pytestmark = pytest.mark.security

POLICY = Policy()  # the defaults: 5 free for a role, 10 for the Master's, 20 for the keeper's
SECOND = timedelta(seconds=1)
CHLOE = "chloe@example.fr"  # FRANCE in vienna, password paris7
JOE = "joe@blow.com"  # vienna's Master, password kr4k3n
KIBITZ = "kibitz@example.org"  # vienna's omniscient observer, password w4tch
ROLES = "FEAGIRT"  # vienna's powers, by initial


def stranger(n: int) -> str:
    return f"guesser{n}@botnet{n % 7}.example"


def send(judge, sender, *lines, now=NOW, number=0, unlock=None):
    return judge.send(mail(sender, *([f"UNLOCK {unlock}"] if unlock else []), *lines,
                           number=number), now)


def paused(sent) -> bool:
    return sent.failed and "are paused until" in sent.prose


def notices(sents, kind: str) -> list[PasswordsPaused]:
    return [e for s in sents for e in s.events_of(PasswordsPaused) if e.kind == kind]


# -- the judgekeeper's password, across games -----------------------------------------------------
def many_games(judge, count: int) -> list[str]:
    names = [f"club{n}" for n in range(count)]
    for name in names:
        judge.add(name, fixture="vienna")
    return names


def just_after(sent) -> datetime:
    """A few seconds after the last of `sent` (sent a second apart from NOW)."""
    return NOW + (len(sent) + 5) * SECOND


def guess_across(judge, games, count, *, start=NOW, number=0):
    """`count` wrong passwords, each for France of the next game (none gets near its own
    pause), each from a new address."""
    return [send(judge, stranger(n), f"SIGNON F{games[n % len(games)]} guess{n}x",
                 now=start + n * SECOND, number=number + n) for n in range(count)]


def test_guessing_over_many_games_stops_testing_the_keepers_password(vienna):
    games = many_games(vienna, POLICY.judge_wide_free)
    sent = guess_across(vienna, games, POLICY.judge_wide_free)
    assert all(s.failed and not paused(s) for s in sent)
    later = just_after(sent)
    as_master = send(vienna, stranger(90), "SIGNON Mclub0 jkpass", now=later, number=90)
    assert as_master.failed and "wrong password for MASTER" in as_master.text
    as_france = send(vienna, stranger(91), "SIGNON Fclub1 jkpass", now=later, number=91)
    assert as_france.failed and "wrong password for FRANCE" in as_france.text
    as_keeper = send(vienna, stranger(92), "SIGNON JK@club2 jkpass", now=later, number=92)
    assert paused(as_keeper)


def test_the_keeper_gets_one_notice_per_judge_wide_pause(vienna):
    games = many_games(vienna, 10)
    sent = guess_across(vienna, games, POLICY.judge_wide_free + 8)
    [notice] = notices(sent, "judge")
    assert notice.role == "JUDGEKEEPER" and notice.addresses == (vienna.settings.keeper,)
    assert notice.attempts == POLICY.judge_wide_free
    assert notice.until == NOW + (POLICY.judge_wide_free - 1) * SECOND + POLICY.first_pause
    assert not notices(sent, "game")  # no game saw ten of them


def test_a_players_own_password_works_during_the_judge_wide_pause(vienna):
    games = many_games(vienna, POLICY.judge_wide_free)
    sent = guess_across(vienna, games, POLICY.judge_wide_free)
    later = just_after(sent)
    chloe = send(vienna, CHLOE, "SIGNON Fclub3 paris7", "A PAR - PIC", now=later, number=80)
    assert not chloe.failed and "Signed on as FRANCE" in chloe.text
    master = send(vienna, JOE, "SIGNON Mclub4 kr4k3n", now=later, number=81)
    assert not master.failed and "Signed on as MASTER" in master.text


def test_the_keepers_code_lets_his_password_through(vienna):
    games = many_games(vienna, POLICY.judge_wide_free)
    sent = guess_across(vienna, games, POLICY.judge_wide_free)
    [notice] = notices(sent, "judge")
    later = just_after(sent)
    keeper = send(vienna, KEEPER, "SIGNON Mclub5 jkpass", now=later, number=70,
                  unlock=notice.code)
    assert "Signed on as MASTER in game 'club5' with the judgekeeper's password" in keeper.prose
    assert not paused(send(vienna, KEEPER, "SIGNON JK@club6 jkpass", now=later, number=71,
                           unlock=notice.code))


def test_the_keepers_notice_is_mailed_to_him_alone(handler):
    for n in range(4):
        text = (GAMES / "vienna.status").read_text(encoding="utf-8")
        handler.store.create(f"club{n}", text.replace("GAME vienna", f"GAME club{n}"))
    mails = []
    for n in range(POLICY.judge_wide_free + 3):
        mails += handler(mail(stranger(n), f"SIGNON Fclub{n % 4} Secret{n}Guess", number=n),
                         NOW + n * SECOND)
    [notice] = [m for m in mails if "judgekeeper's password is paused" in m["Subject"]]
    assert [a.addr_spec for a in notice["To"].addresses] == [KEEPER]
    assert re.search(r"UNLOCK \w{4}-\w{4}", notice.get_content())
    assert not re.search(r"(?i)secret\d+guess", texts(mails))


def test_the_judge_wide_count_is_kept_at_the_games_root_code_hashed(vienna):
    sent = guess_across(vienna, many_games(vienna, 4), POLICY.judge_wide_free)
    [notice] = notices(sent, "judge")
    kept = (vienna.store.root / FAILURES).read_text()
    assert "JUDGEKEEPER" in kept
    assert notice.code not in kept and notice.code.replace("-", "") not in kept


def test_the_judge_wide_count_is_changed_under_a_lock_other_processes_see(vienna):
    with vienna.store.judge_wide() as root, open(root / LOCK, "a+b") as other:
        with pytest.raises(BlockingIOError):  # as `judge mail` would find it, beside the daemon
            fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)


def test_a_failure_counted_elsewhere_meanwhile_is_not_lost(vienna):
    keeper = [Secret(JUDGEKEEPER, Scope.JUDGE)]

    def count(sender, now):
        return lambda table: after_wrong(table, keeper, sender, now, POLICY)

    with StoreGames(vienna.store, SETTINGS) as mine, \
            StoreGames(GameStore(vienna.store.root), SETTINGS) as other:
        assert mine.judge_password_failures() == {}  # this mail read the table...
        other.update_judge_password_failures(count(stranger(1), NOW))  # ...another counted...
        mine.update_judge_password_failures(count(stranger(2), NOW + SECOND))
        assert len(mine.judge_password_failures()[JUDGEKEEPER].failures) == 2


# -- the Master's and an omniscient player's passwords, across roles ------------------------------
def rotate(judge, count, *, start=NOW, number=0):
    """`count` wrong passwords, each for the next power of vienna, each from a new address."""
    return [send(judge, stranger(n), f"SIGNON {ROLES[n % len(ROLES)]}vienna guess{n}x",
                 now=start + n * SECOND, number=number + n) for n in range(count)]


def test_rotating_roles_stops_testing_the_masters_password(vienna):
    before = send(vienna, stranger(50), "SIGNON Evienna kr4k3n", number=50)
    assert "with the Master's password" in before.prose  # good for any role, as in DPjudge
    sent = rotate(vienna, POLICY.shared_free, number=100)
    assert all(s.failed and not paused(s) for s in sent)  # no power reached its own five
    later = just_after(sent)
    after = send(vienna, stranger(51), "SIGNON Evienna kr4k3n", now=later, number=51)
    assert after.failed and "wrong password for ENGLAND" in after.text


def test_the_master_gets_one_notice_and_his_code_lets_him_in(vienna):
    sent = rotate(vienna, POLICY.shared_free + 6)
    [notice] = [n for n in notices(sent, "game") if n.role == "MASTER"]
    assert notice.addresses == (JOE,) and notice.attempts == POLICY.shared_free
    later = just_after(sent)
    assert paused(send(vienna, JOE, "SIGNON Mvienna kr4k3n", now=later, number=60))
    master = send(vienna, JOE, "SIGNON Mvienna kr4k3n", now=later, number=61,
                  unlock=notice.code)
    assert not master.failed and "Signed on as MASTER" in master.text
    chloe = send(vienna, CHLOE, "SIGNON Fvienna paris7", now=later, number=62)
    assert not chloe.failed and "Signed on as FRANCE" in chloe.text


def test_rotating_roles_stops_testing_an_omniscient_password(vienna):
    assert "read-only" in send(vienna, stranger(50), "SIGNON Rvienna w4tch", number=50).prose
    sent = rotate(vienna, POLICY.shared_free, number=100)
    [notice] = [n for n in notices(sent, "game") if n.role == "KIBITZ"]
    assert notice.addresses == (KIBITZ,)
    later = just_after(sent)
    after = send(vienna, stranger(51), "SIGNON Rvienna w4tch", now=later, number=51)
    assert after.failed and "wrong password for RUSSIA" in after.text


def test_a_guessed_power_does_not_pause_the_master_before_the_shared_count(vienna):
    sent = [send(vienna, stranger(n), f"SIGNON Fvienna guess{n}x", now=NOW + n * SECOND,
                 number=n) for n in range(POLICY.free + 3)]
    assert not notices(sent, "game")  # France's pause stopped the checks at five
    master = send(vienna, JOE, "SIGNON Mvienna kr4k3n", now=just_after(sent), number=40)
    assert not master.failed


# -- a private game's privacy password -------------------------------------------------------------
def join(judge, sender, privacy, *, now=NOW, number=0, unlock=None):
    return send(judge, sender, f"JOIN forming s3cret {privacy}", now=now, number=number,
                unlock=unlock)


def test_privacy_password_guessing_is_paused(vienna):
    vienna.add("forming", private="CLUB")
    sent = [join(vienna, stranger(n), f"guess{n}", now=NOW + n * SECOND, number=n)
            for n in range(POLICY.free)]
    assert all(s.failed and "wrong privacy password" in s.text for s in sent)
    right = join(vienna, stranger(20), "club", now=NOW + 10 * SECOND, number=20)
    assert paused(right) and "You are now" not in right.text
    assert vienna.status("forming").power("POWER#2") is None


def test_the_master_is_told_of_privacy_guessing_and_his_code_lets_a_player_in(vienna):
    vienna.add("forming", private="CLUB")
    sent = [join(vienna, stranger(n), f"guess{n}", now=NOW + n * SECOND, number=n)
            for n in range(POLICY.free + 2)]
    [notice] = notices(sent, "privacy")
    assert notice.addresses == ("gm@example.org",) and notice.attempts == POLICY.free
    nora = join(vienna, "nora@example.net", "club", now=NOW + 20 * SECOND, number=30,
                unlock=notice.code)
    assert not nora.failed and "You are now" in nora.text


# -- an observer's password, given to change his role ----------------------------------------------
def test_guessing_an_observers_password_through_a_change_of_role_is_paused(vienna):
    """A forged mail "from" an observer may change his role with his password: it is counted."""
    sent = [send(vienna, KIBITZ, f"OBSERVE spy@vienna guess{n}x", now=NOW + n * SECOND,
                 number=n) for n in range(POLICY.free)]
    assert all(s.failed and "give that role's password" in s.prose for s in sent)
    right = send(vienna, KIBITZ, "OBSERVE spy@vienna w4tch", now=NOW + 10 * SECOND, number=20)
    assert paused(right) and vienna.status("vienna").power("SPY") is None
