"""How a game ends: a solo at the year's end, or a draw or concession by vote.

Victory is looked at each time centres change hands (the year's end). A power wins when it holds the
year's VICTORY count (the map's VICTORY line, one number a year from BEGIN) and more centres than any
other; a tie lets the game go on. TEAM_VICTORY counts the centres of the dummies a power controls
(CONTROL, or its TEAM). VICTORY_HOMES counts only the home centres of others it owns; its default
criterion is half of (all homes less one power's average) plus one. SHARED_VICTORY ends the game at
the first victory, shared by all who reach it. HOLD_WIN asks for the condition in two years in a row:
the first year is noted on the power as a MSG line (`hold_win_note`). LAST_MAN_STANDING ends the game
instead when a single unit is left on the board as a movement or adjustment phase begins: its power
wins (`last_man`).

Votes (VOTE lines) are counted among the survivors other than dummies: powers owning a centre or
holding build tokens (GARRISON's `SC?`, MOBILIZE's `SC!`), as DPjudge counts those with a vote:
- by default (DIAS) a lone SOLO vote with LOSS from all others is a concession; with no SOLO vote,
  LOSS votes and nWAY votes with n at least the number of survivors make a draw of all survivors;
- under NO_DIAS, the powers not voting LOSS draw if each accepts a draw that size (nWAY), and a lone
  such power wins by concession; all voting LOSS draw all survivors;
- under PROPOSE_DIAS every voter must vote YES on the PROPOSAL (`DIAS`, or a power: a concession);
- NO_DRAW allows no draw (a concession still ends the game).
"""
from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from judge.events import Event, GameCompleted, VoteCast
from judge.game.deadlines import current_deadline
from judge.game.positions import owned_centers, power_blocks
from judge.game.rules import rules_in_force
from judge.game.seats import GameError
from judge.maps.model import Map
from judge.rule_names import Rule, Rules
from judge.status.model import (
    GameResult,
    GameStage,
    GameStatus,
    PhaseMode,
    Proposal,
    Vote,
    VoteKind,
)
from judge.timing import game_zone
from judge.timing.written import date_form
from judge.types import ADJUSTMENTS, MOVEMENT, Phase, Unit

DIAS = "DIAS"


def hold_win_note(year: int) -> str:
    return f"HOLD_WIN: the victory condition was met in {year}"


def scores(status: GameStatus, m: Map, rules: Rules) -> dict[str, int]:
    """What counts towards victory for each power."""
    blocks = power_blocks(status, m)
    owned = {b.name: owned_centers(b) for b in blocks}
    if Rule.TEAM_VICTORY in rules:
        for main, members in controlled(status, m).items():
            owned[main] = owned[main].union(*(owned.get(p, frozenset()) for p in members))
    if Rule.VICTORY_HOMES in rules:
        allies = controlled(status, m) if Rule.TEAM_VICTORY in rules else {}
        homes = {b.name: frozenset(b.home or m.powers[b.name].homes) for b in blocks}
        return {p: len({c for c in cs if any(c in homes[o] for o in homes
                                              if o != p and o not in allies.get(p, ()))})
                for p, cs in owned.items()}
    return {p: len(cs) for p, cs in owned.items()}


def controlled(status: GameStatus, m: Map) -> dict[str, set[str]]:
    """Main power -> the dummies it controls (the first on their CONTROL line, or its TEAM)."""
    found: dict[str, set[str]] = {}
    for block in power_blocks(status, m):
        if block.control and block.player is not None and block.player.dummy:
            found.setdefault(block.control[0], set()).add(block.name)
    for team in status.teams:
        found.setdefault(team.main, set()).update(team.dummies)
    return found


def criterion(m: Map, rules: Rules, year: int) -> int:
    if Rule.VICTORY_HOMES in rules and m.victory == (len(m.supply_centers) // 2 + 1,):
        homes = [len(info.homes) for info in m.powers.values() if info.homes]
        total = sum(homes)
        return int((total - total / max(1, len(homes))) / 2 + 1)
    return m.victory_in(year)


def winners(status: GameStatus, m: Map, rules: Rules, year: int
            ) -> tuple[GameStatus, tuple[str, ...]]:
    """The winners at the end of `year` (empty: the game goes on), with HOLD_WIN notes updated.
    Under LAST_MAN_STANDING nobody wins by centres (`last_man`)."""
    if Rule.LAST_MAN_STANDING in rules:
        return status, ()
    score = scores(status, m, rules)
    needed = criterion(m, rules, year)
    reached = sorted((p for p, n in score.items() if n >= needed), key=lambda p: -score[p])
    if Rule.SHARED_VICTORY in rules:
        found = tuple(reached)
    else:
        best = [p for p in reached if score[p] == score[reached[0]]] if reached else []
        found = tuple(best) if len(best) == 1 else ()
    if Rule.HOLD_WIN in rules:
        status, found = _hold(status, m, found, year)
    return status, found


def _hold(status: GameStatus, m: Map, found: tuple[str, ...], year: int
          ) -> tuple[GameStatus, tuple[str, ...]]:
    held = tuple(p for p in found if hold_win_note(year - 1) in status.power(p).messages)  # type: ignore[union-attr]
    for block in power_blocks(status, m):
        notes = tuple(n for n in block.messages if not n.startswith("HOLD_WIN: "))
        if block.name in found and block.name not in held:
            notes += (hold_win_note(year),)
        if notes != block.messages:
            status = status.with_power(replace(block, messages=notes))
    return status, held


def vote_result(status: GameStatus, m: Map, rules: Rules) -> tuple[str, tuple[str, ...]] | None:
    """("draw" | "concession", powers) when the votes end the game, else None."""
    alive = with_a_vote(status, m)
    voters = [b for b in power_blocks(status, m) if b.name in alive
              and not (b.player is not None and b.player.dummy)]
    if not voters:
        return None
    if Rule.PROPOSE_DIAS in rules:
        found = _proposal_result(status, voters, alive)
    else:
        if any(b.vote is None for b in voters):
            return None
        votes = {b.name: b.vote for b in voters if b.vote is not None}
        found = _no_dias(votes, alive) if Rule.NO_DIAS in rules else _dias(votes, alive)
    if found is not None and found[0] == "draw" and Rule.NO_DRAW in rules:
        return None
    return found


def with_a_vote(status: GameStatus, m: Map) -> list[str]:
    """The powers owning a centre or a build token, in file order."""
    return [b.name for b in power_blocks(status, m) if b.owns]


def _proposal_result(status: GameStatus, voters: list, alive: list[str]):
    proposal = status.proposal
    if proposal is None or any(b.name != proposal.proposer and b.vote != Vote(VoteKind.YES)
                               for b in voters):
        return None
    if proposal.result == DIAS:
        return "draw", tuple(alive)
    return "concession", (proposal.result,)


def _dias(votes: dict[str, Vote], alive: list[str]):
    solos = [p for p, v in votes.items() if v.kind is VoteKind.SOLO]
    losses = [p for p, v in votes.items() if v.kind is VoteKind.LOSS]
    if len(solos) == 1 and len(losses) == len(votes) - 1:
        return "concession", (solos[0],)
    if not solos and all(v.kind is VoteKind.LOSS or (v.kind is VoteKind.DRAW and v.size >= len(alive))
                         for v in votes.values()):
        return "draw", tuple(alive)
    return None


def _no_dias(votes: dict[str, Vote], alive: list[str]):
    placed = [p for p in alive if p in votes and votes[p].kind is not VoteKind.LOSS]
    if not placed:
        return "draw", tuple(alive)
    if len(placed) == 1 and votes[placed[0]].kind in (VoteKind.SOLO, VoteKind.DRAW):
        return "concession", (placed[0],)
    if all(votes[p].kind is VoteKind.DRAW and votes[p].size >= len(placed) for p in placed):
        return "draw", tuple(placed)
    return None


def complete(status: GameStatus, m: Map, phase: Phase, kind: str, victors: tuple[str, ...],
             now: datetime, unit: Unit | None = None) -> tuple[GameStatus, GameCompleted]:
    """The game over in `phase`: COMPLETED, `RESULT phase victors` and FINISH (the day, as DPjudge
    writes it: `24 November 2026`) written, no deadline, no proposal."""
    deadline = current_deadline(status) or now
    done = replace(status, phase=GameStage.COMPLETED, phase_mode=PhaseMode.PHASE,
                   result=GameResult(phase.abbrev, victors),
                   finish=date_form(now.astimezone(game_zone(status.zone))),
                   deadline=None, delay=None, proposal=None)
    return done, GameCompleted(status.name or "", phase, kind, victors, unit=unit,
                                 deadline=deadline)


def last_man(status: GameStatus, m: Map, phases: list[Phase]) -> tuple[Phase, str, Unit] | None:
    """LAST_MAN_STANDING (DPjudge's checkPhase): the first movement or adjustment phase among those
    the game reached, with the power and its unit, when a single unit is left on the board."""
    units = [(b.name, u) for b in power_blocks(status, m) for u in b.units]
    reached = [p for p in phases if p.type in (MOVEMENT, ADJUSTMENTS)]
    if len(units) != 1 or not reached:
        return None
    return reached[0], units[0][0], units[0][1]


def check_votes(status: GameStatus, m: Map, now: datetime, ended_in: Phase | None = None
                ) -> tuple[GameStatus, list[Event]]:
    """End the game if the votes on file say so, in the phase `ended_in` (None: the current one)."""
    if not isinstance(status.phase, Phase):
        return status, []
    found = vote_result(status, m, rules_in_force(status, m))
    if found is None:
        return status, []
    status, event = complete(status, m, ended_in or status.phase, found[0], found[1], now)
    return status, [event]


def cast_vote(status: GameStatus, m: Map, power: str, vote: Vote | None, now: datetime
              ) -> tuple[GameStatus, list[Event]]:
    """A power's VOTE (None: no vote). Under PROPOSE_DIAS anything but YES vetoes the proposal."""
    block = _voter(status, m, power)
    rules = rules_in_force(status, m)
    events: list[Event] = []
    if Rule.PROPOSE_DIAS in rules and vote != Vote(VoteKind.YES):
        status = _clear_votes(replace(status, proposal=None), m)
        return status, [VoteCast(status.name or "", block.name, None, vetoed=True)]
    if Rule.PROPOSE_DIAS in rules and status.proposal is None:
        raise GameError("there is no proposal to vote on")
    if vote is not None and vote.kind is VoteKind.YES and Rule.PROPOSE_DIAS not in rules:
        raise GameError("vote SOLO, LOSS or nWAY (YES is for proposals, under PROPOSE_DIAS)")
    status = status.with_power(replace(block, vote=vote))
    events.append(VoteCast(status.name or "", block.name, vote))
    status, ended = check_votes(status, m, now)
    return status, events + ended


def propose(status: GameStatus, m: Map, power: str, result: str, now: datetime
            ) -> tuple[GameStatus, list[Event]]:
    """PROPOSE_DIAS: `power` proposes `DIAS` (a draw of all survivors) or a concession to a power."""
    block = _voter(status, m, power)
    if Rule.PROPOSE_DIAS not in rules_in_force(status, m):
        raise GameError("proposals are made only under PROPOSE_DIAS")
    result = result.upper()
    if result != DIAS and result not in m.powers:
        raise GameError(f"a proposal is DIAS or a power, not {result}")
    status = _clear_votes(replace(status, proposal=Proposal(result, block.name)), m)
    status = status.with_power(replace(block, vote=Vote(VoteKind.YES)))
    status, ended = check_votes(status, m, now)
    return status, [VoteCast(status.name or "", block.name, Vote(VoteKind.YES), proposal=result), *ended]


def _voter(status: GameStatus, m: Map, power: str):
    if not isinstance(status.phase, Phase):
        raise GameError(f"game {status.name} is not running: there is nothing to vote on")
    block = status.power(power.upper())
    if block is None or block.name not in m.powers:
        raise GameError(f"there is no power {power} in game {status.name}")
    if block.name not in with_a_vote(status, m):
        raise GameError(f"{block.name} owns no supply center and has no vote")
    return block


def _clear_votes(status: GameStatus, m: Map) -> GameStatus:
    for block in power_blocks(status, m):
        if block.vote is not None:
            status = status.with_power(replace(block, vote=None))
    return status
