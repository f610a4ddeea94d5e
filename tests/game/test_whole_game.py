"""A whole standard game from FORMING to a draw, through the game's functions and the CLI, with the
status file checked along the way: joins, the start, movement with a bounce, a spring retreat,
builds, a removal, a resignation and a takeover, and the draw vote. Then a short game to a solo."""
from __future__ import annotations

import pytest

from judge.cli import main
from judge.events import (
    CivilDisorder,
    GameCompleted,
    GameStarted,
    PhaseResults,
    PlayerJoined,
    Resigned,
    TookOver,
)
from judge.game import GameError, cast_vote, join, on_process, resign, takeover
from judge.runtime.commit import run
from judge.status import parse_status
from judge.status.model import GameStage, Need, Vacancy, Vote, VoteKind
from judge.runtime.store import GameStore
from judge.types import Phase
from tests.support.games import (
    DAY,
    NOW,
    build,
    everyone_orders,
    player,
    remove,
    retreat,
    round_trip,
    units_of,
)
from tests.support.master import process

S1901M = {
    "AUSTRIA": ["A VIE - GAL", "A BUD - SER", "F TRI - ALB"],
    "ENGLAND": ["F LON - NTH", "F EDI - NWG", "A LVP - YOR"],
    "FRANCE": ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"],
    "GERMANY": ["A MUN - RUH", "F KIE - DEN", "A BER - KIE"],
    "ITALY": ["A ROM - APU", "F NAP - ION"],
    "RUSSIA": ["A WAR - GAL", "A MOS - UKR", "F SEV - BLA", "F STP/SC - BOT"],
    "TURKEY": ["A CON - BUL", "A SMY - ARM", "F ANK - BLA"],
}
F1901M = {
    "AUSTRIA": ["F ALB - GRE"],
    "ENGLAND": ["F NWG - NWY", "F NTH - BEL"],
    "FRANCE": ["F MAO - POR"],
    "GERMANY": ["A RUH - HOL"],
    "ITALY": ["F ION C A APU - TUN", "A APU - TUN"],
    "RUSSIA": ["A UKR - RUM", "F BOT - SWE"],
}
S1902M = {"AUSTRIA": ["A SER - BUL"], "RUSSIA": ["A RUM S A SER - BUL"]}


@pytest.fixture()
def games(tmp_path):
    return tmp_path / "games"


def cli(games, *words: str) -> int:
    return main([*words[:2], "--games", str(games), *words[2:]])


def status_of(store: GameStore, name: str):
    with store.locked(name) as game:
        return parse_status(game.read_status())


def act(store, action):
    return run(store, "classic", action)


def test_a_standard_game_from_forming_to_a_draw(games, capsys):
    assert cli(games, "new", "classic", "--map", "standard", "--master", "gm@example.org",
               "--password", "secret", "RULE DEFAULT_UNORDERED", "TIMING NEXT 1D") == 0
    store = GameStore(games)

    # Seven players join; the seventh starts the game
    for n in range(7):
        events = act(store, lambda s, m, n=n: join(s, m, NOW, player(n), f"pw{n}"))
        assert isinstance(events[0], PlayerJoined) and events[0].remaining == 6 - n
    assert isinstance(events[-1], GameStarted)
    s = status_of(store, "classic")
    round_trip(s)
    assert s.phase == Phase("SPRING", 1901, "MOVEMENT") and s.start == "Mon Jan 06 2025 12:00"
    assert s.deadline == "202501081200"  # the first deadline: twice NEXT 1D
    assert sorted(p.player.current.email for p in s.powers) == [f"player{n}@example.org" for n in range(7)]
    assert units_of(s, "RUSSIA") == ["A WAR", "A MOS", "F SEV", "F STP/SC"]  # the map's order
    with store.locked("classic") as game:
        assert game.snapshots() == ["FORMING"]

    # Spring 1901: not ready until everyone has ordered; then processed from the CLI
    assert cli(games, "process", "classic") == 1
    assert "not ready" in capsys.readouterr().err
    act(store, lambda s, m: (everyone_orders(s, S1901M), []))
    assert cli(games, "status", "classic") == 0 and "ready to process" in capsys.readouterr().out
    assert cli(games, "process", "classic") == 0
    out = capsys.readouterr().out
    assert "RUSSIA: A WAR - GAL (bounce)" in out and "SKIPPED S1901R" in out and "NEXT F1901M" in out
    s = status_of(store, "classic")
    round_trip(s)
    assert s.phase == Phase("FALL", 1901, "MOVEMENT")
    assert units_of(s, "FRANCE") == ["F MAO", "A SPA", "A BUR"]  # as DPjudge keeps them: in the order moved
    assert all(p.orders is None for p in s.powers)

    # Fall 1901: centres change hands; the winter adjustments are played
    act(store, lambda s, m: (everyone_orders(s, F1901M), []))
    events = process(store, "classic", NOW + 4 * DAY)
    results = next(e for e in events if isinstance(e, PhaseResults))
    assert results.captured["POR"] == "FRANCE" and results.captured["TUN"] == "ITALY"
    s = status_of(store, "classic")
    round_trip(s)
    assert s.phase == Phase("WINTER", 1901, "ADJUSTMENTS")
    assert s.power("FRANCE").owns == ("BRE", "MAR", "PAR", "POR", "SPA")

    # Winter 1901: builds (Turkey builds one, the others waive or build; missing builds waived)
    def winter(s, m):
        s = build(s, "FRANCE", "A PAR", "F BRE")
        s = build(s, "TURKEY", "F SMY")
        s = build(s, "AUSTRIA", "A BUD", "WAIVED")
        for power in ("ENGLAND", "GERMANY", "ITALY", "RUSSIA"):
            s = build(s, power, "WAIVED")
        return s, []
    act(store, winter)
    events = process(store, "classic", NOW + 5 * DAY)
    s = status_of(store, "classic")
    round_trip(s)
    assert s.phase == Phase("SPRING", 1902, "MOVEMENT")
    assert sorted(units_of(s, "FRANCE")) == ["A BUR", "A PAR", "A SPA", "F BRE", "F POR"]
    assert sorted(units_of(s, "TURKEY")) == ["A ARM", "A BUL", "F ANK", "F SMY"]

    # Italy's player resigns: the power is vacant, on the NEED line, and the game waits
    events = act(store, lambda s, m: resign(s, m, "ITALY"))
    assert isinstance(events[0], Resigned) and events[0].player == player_of_italy(s)
    s = status_of(store, "classic")
    round_trip(s)
    assert s.power("ITALY").player.current is Vacancy.RESIGNED
    assert s.power("ITALY").player.handovers[0].phase == "S1902M"
    assert s.need == (Need("ITALY", 3, 4),)
    act(store, lambda s, m: (everyone_orders(s, S1902M), []))
    with pytest.raises(GameError, match="waiting for a player to take over ITALY"):
        process(store, "classic", NOW + 9 * DAY)

    # A new player takes Italy over
    events = act(store, lambda s, m: takeover(s, m, "ITALY", player("new"), "pwnew"))
    assert isinstance(events[0], TookOver)
    s = status_of(store, "classic")
    text = round_trip(s)
    assert "PLAYER NO-ID|playernew@example.org|Player_new S1902M " in text and s.need == ()
    act(store, lambda s, m: (everyone_orders(s, S1902M), []))

    # Spring 1902: Turkey's army in Bulgaria is dislodged and retreats to Constantinople
    process(store, "classic", NOW + 9 * DAY)
    s = status_of(store, "classic")
    text = round_trip(s)
    assert s.phase == Phase("SPRING", 1902, "RETREATS")
    assert "A BUL --> CON" in text
    act(store, lambda s, m: (retreat(s, "TURKEY", "A BUL", "CON"), []))
    process(store, "classic", NOW + 10 * DAY)
    s = status_of(store, "classic")
    round_trip(s)
    assert s.phase == Phase("FALL", 1902, "MOVEMENT") and "A CON" in units_of(s, "TURKEY")

    # Fall 1902: nobody orders; the master forces it; Turkey lost Bulgaria and must remove a unit
    with pytest.raises(GameError, match="PROCESS! processes it now"):
        process(store, "classic", NOW + 11 * DAY)
    events = process(store, "classic", NOW + 11 * DAY, force=True)
    assert any(isinstance(e, CivilDisorder) for e in events)
    s = status_of(store, "classic")
    round_trip(s)
    assert s.phase == Phase("WINTER", 1902, "ADJUSTMENTS")
    assert s.power("TURKEY").owns == ("ANK", "CON", "SMY")
    act(store, lambda s, m: (remove(s, "TURKEY", "A ARM"), []))
    events = process(store, "classic", NOW + 12 * DAY, force=True)
    s = status_of(store, "classic")
    round_trip(s)
    assert s.phase == Phase("SPRING", 1903, "MOVEMENT")
    assert sorted(units_of(s, "TURKEY")) == ["A CON", "F ANK", "F SMY"]
    assert sorted(units_of(s, "AUSTRIA")) == ["A BUD", "A BUL", "A VIE", "F GRE"]

    # Every survivor accepts a draw of all seven: the game is over
    for power in ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA"):
        events = act(store, lambda s, m, p=power: cast_vote(s, m, p, Vote(VoteKind.DRAW, 7), NOW))
        assert not any(isinstance(e, GameCompleted) for e in events)
    events = act(store, lambda s, m: cast_vote(s, m, "TURKEY", Vote(VoteKind.LOSS), NOW + 13 * DAY))
    done = events[-1]
    assert isinstance(done, GameCompleted) and done.kind == "draw" and len(done.victors) == 7
    s = status_of(store, "classic")
    text = round_trip(s)
    assert s.phase is GameStage.COMPLETED and s.deadline is None
    assert "RESULT S1903M AUSTRIA ENGLAND FRANCE GERMANY ITALY RUSSIA TURKEY" in text
    assert s.finish == "19 January 2025"  # DPjudge's form
    with store.locked("classic") as game:
        log = game.read_results()
        assert log.count("Subject: Diplomacy results classic ") == 7
        assert log.count("Subject: Diplomacy game 'classic' complete") == 1
        assert game.snapshots()[0] == "FORMING" and "W1902A" in game.snapshots()


def player_of_italy(s):
    return s.power("ITALY").player.current


def test_a_short_game_ends_in_a_solo(standard):
    from judge.maps import load_map
    from tests.support.games import forming
    s = forming("MORPH VICTORY 5", "RULE DEFAULT_UNORDERED")
    m = load_map("standard", morphs=s.morphs)
    for n in range(7):
        s, events = join(s, m, NOW, player(n), "pw")
    s = everyone_orders(s, {"FRANCE": ["A MAR - SPA", "F BRE - MAO"]})
    s, _ = on_process(s, m, NOW + 3 * DAY)
    s = everyone_orders(s, {"FRANCE": ["F MAO - POR"]})
    s, events = on_process(s, m, NOW + 4 * DAY)
    done = events[-1]
    assert isinstance(done, GameCompleted) and (done.kind, done.victors) == ("solo", ("FRANCE",))
    assert s.result.last_phase == "W1901A" and s.result.victors == ("FRANCE",)
    assert s.phase is GameStage.COMPLETED
    round_trip(s)
