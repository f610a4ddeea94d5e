"""The sharding of docs/scaling.md, simulated: games routed to hosts by the MTA through a table.

    python benchmarks/routing.py                      # 1,000,000 games on 10 hosts, half a day
    python benchmarks/routing.py --games 100000 --hosts 4 --ticks 36 --fail 12 --seed 2

No judge runs here: each host is a count of what it holds and does. The directory (PostgreSQL's
`games` table) maps a game to its host; Postfix's transport lookup sends a mail addressed to the
game (`judge+<game>@`) to that host, and a mail to the bare address (a newcomer's CREATE, JOIN,
LIST) to any host (taken in turn), which hands it back to the MTA addressed to its game: one more
hop. Time goes in 20-minute ticks. Each game is active, forming or finished; an active game
sends mails and comes due at the rates of the measured hour at 100,000 games (2,300 mails and 330
due games a tick for 61,000 active games), scaled by a weight of its own (a few games are far
busier than most: a Pareto weight). New games are created by mail to the bare address and placed
on the least loaded living host; some active games finish each tick.

At tick `--fail` one host fails; its failure is noticed `--notice` ticks later, when its games are
placed again, each on the least loaded living host (their folders restored from its replica or
backup), and the mail Postfix deferred for them meanwhile is delivered. Then a new host joins
(tick `--join`) and is given live games from the busiest hosts until it holds its share (the
fewest moves that balance; finished games stay). Printed: for each phase, the balance (the busiest host
against the mean, in games held, mails and due games a tick) and what moved; and, for the same
failure and the new host, what routing by a hash of the name would move instead (modulo the
number of hosts, and a consistent-hash ring with 100 points a host).
"""
from __future__ import annotations

import argparse
import bisect
import hashlib
import heapq
import random
import statistics
import sys
from collections import Counter
from dataclasses import dataclass, field

MAILS_PER_ACTIVE = 2300 / 61000  # a tick, at the measured hour of 100,000 games
DUE_PER_ACTIVE = 330 / 61000
ACTIVE, FORMING, FINISHED = "active", "forming", "finished"


@dataclass
class Game:
    name: str
    host: int
    weight: float
    state: str


@dataclass
class Host:
    number: int
    alive: bool = True
    load: int = 0  # its active and forming games: what placement balances
    held: int = 0
    mails: int = 0
    due: int = 0
    forwarded: int = 0


@dataclass
class Judge:
    hosts: list[Host]
    games: dict[str, Game] = field(default_factory=dict)
    deferred: Counter = field(default_factory=Counter)  # mail Postfix holds, by game
    turn: int = 0

    def least_loaded(self) -> Host:
        return min((h for h in self.hosts if h.alive), key=lambda h: (h.load, h.held, h.number))

    def place(self, game: Game) -> None:
        host = self.least_loaded()
        game.host = host.number
        host.held += 1
        host.load += live(game)

    def any_host(self) -> Host:
        """Postfix's choice for the bare address: the living hosts in turn."""
        living = [h for h in self.hosts if h.alive]
        self.turn += 1
        return living[self.turn % len(living)]

    def deliver(self, game: Game, mails: int) -> None:
        host = self.hosts[game.host]
        if host.alive:
            host.mails += mails
        else:
            self.deferred[game.name] += mails


def live(game: Game) -> int:
    return int(game.state != FINISHED)


def new_game(judge: Judge, rng: random.Random, number: int, state: str) -> Game:
    game = Game(f"g{number:07d}", -1, rng.paretovariate(2.5), state)
    judge.place(game)
    judge.games[game.name] = game
    return game


def start(hosts: int, games: int, rng: random.Random) -> Judge:
    judge = Judge([Host(n) for n in range(hosts)])
    for n in range(games):
        draw = rng.random()
        state = ACTIVE if draw < 0.61 else FORMING if draw < 0.76 else FINISHED
        new_game(judge, rng, n, state)
    return judge


def tick(judge: Judge, rng: random.Random, created: int, finishing: float) -> None:
    """One 20-minute tick: games created through the bare address, mails, due games, endings."""
    for host in judge.hosts:
        host.mails = host.due = host.forwarded = 0
    for _ in range(created):
        judge.any_host().forwarded += 1  # the CREATE, handed back addressed to its game
        new_game(judge, rng, len(judge.games), FORMING)
    for game in judge.games.values():
        if game.state == FINISHED:
            continue
        if game.state == FORMING:
            if rng.random() < 0.05:
                judge.any_host().forwarded += 1  # a newcomer's JOIN to the bare address
                judge.deliver(game, 1)
                game.state = ACTIVE if rng.random() < 0.2 else FORMING
            continue
        mails = poisson(rng, MAILS_PER_ACTIVE * game.weight)
        judge.deliver(game, mails)
        host = judge.hosts[game.host]
        if host.alive and rng.random() < DUE_PER_ACTIVE * game.weight:
            host.due += 1
        if rng.random() < finishing:
            game.state = FINISHED
            host.load -= 1


def poisson(rng: random.Random, mean: float) -> int:
    if mean <= 0:
        return 0
    count, total = 0, rng.expovariate(1.0)
    while total < mean:
        count += 1
        total += rng.expovariate(1.0)
    return count


def take_over(judge: Judge, failed: int) -> tuple[int, int]:
    """The failed host's games placed on the living hosts, busiest first (least loaded host each
    time); the mail deferred for them delivered. The games moved and the mails delivered late."""
    host = judge.hosts[failed]
    moving = sorted((g for g in judge.games.values() if g.host == failed),
                    key=lambda g: -live(g))
    living = [(h.load, h.number) for h in judge.hosts if h.alive]
    heapq.heapify(living)
    for game in moving:
        load, number = heapq.heappop(living)
        game.host = number
        judge.hosts[number].held += 1
        judge.hosts[number].load += live(game)
        heapq.heappush(living, (load + live(game), number))
    host.held, host.load = 0, 0
    late = sum(judge.deferred.values())
    for name, mails in judge.deferred.items():
        judge.hosts[judge.games[name].host].mails += mails
    judge.deferred.clear()
    return len(moving), late


def join_host(judge: Judge) -> int:
    """A new host, given live games from the hosts above the mean until it holds the mean: the
    fewest moves that balance (each a game locked, its folder copied, its row changed)."""
    host = Host(len(judge.hosts))
    judge.hosts.append(host)
    living = [h for h in judge.hosts if h.alive]
    mean = sum(h.load for h in living) // len(living)
    by_host: dict[int, list[Game]] = {}
    for game in judge.games.values():
        if live(game):
            by_host.setdefault(game.host, []).append(game)
    moved = 0
    while host.load < mean:
        busiest = max(living, key=lambda h: h.load)
        game = by_host[busiest.number].pop()
        busiest.load -= 1
        busiest.held -= 1
        game.host = host.number
        host.load += 1
        host.held += 1
        moved += 1
    return moved


def balance(values: list[float]) -> str:
    mean = statistics.fmean(values)
    return f"max/mean {max(values) / mean:.3f}" if mean else "none"


def report(judge: Judge, label: str) -> None:
    living = [h for h in judge.hosts if h.alive]
    held = [h.held for h in living]
    print(f"{label}: {len(living)} hosts; games held {min(held):,}-{max(held):,} "
          f"({balance([float(n) for n in held])}); live games {balance([float(h.load) for h in living])}; "
          f"mails a tick {balance([float(h.mails) for h in living])} "
          f"(busiest {max(h.mails for h in living):,}); due games a tick "
          f"{balance([float(h.due) for h in living])} (busiest {max(h.due for h in living)}); "
          f"forwarded (bare address) {sum(h.forwarded for h in judge.hosts):,}")


def hashed(name: str) -> int:
    return int.from_bytes(hashlib.blake2b(name.encode(), digest_size=8).digest(), "big")


class Ring:
    """A consistent-hash ring with `points` points a host."""

    def __init__(self, hosts: list[int], points: int = 100) -> None:
        self.ring = sorted((hashed(f"{host}/{n}"), host) for host in hosts for n in range(points))
        self.keys = [key for key, _ in self.ring]

    def host(self, name: str) -> int:
        at = bisect.bisect(self.keys, hashed(name)) % len(self.ring)
        return self.ring[at][1]


def hash_moves(names: list[str], hosts: int, failed: int) -> tuple[int, int, int, int]:
    """Games a hash of the name would move: modulo the hosts when one fails and when one is added,
    and on a consistent-hash ring for the same two changes."""
    keys = [hashed(name) for name in names]
    living = [h for h in range(hosts) if h != failed]
    modulo_fail = sum(1 for k in keys if k % hosts != living[k % len(living)])
    modulo_join = sum(1 for k in keys if k % hosts != k % (hosts + 1))
    whole, without, more = Ring(list(range(hosts))), Ring(living), Ring(list(range(hosts + 1)))
    ring_fail = sum(1 for n in names if whole.host(n) != without.host(n))
    ring_join = sum(1 for n in names if whole.host(n) != more.host(n))
    return modulo_fail, modulo_join, ring_fail, ring_join


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--hosts", type=int, default=10)
    parser.add_argument("--ticks", type=int, default=36, help="20-minute ticks (36: half a day)")
    parser.add_argument("--created", type=int, default=40, help="games created a tick")
    parser.add_argument("--finishing", type=float, default=0.0006,
                        help="the share of active games that end each tick")
    parser.add_argument("--fail", type=int, default=12, help="the tick a host fails at")
    parser.add_argument("--notice", type=int, default=2, help="ticks before its games are placed again")
    parser.add_argument("--join", type=int, default=24, help="the tick a new host joins at")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    judge = start(args.hosts, args.games, rng)
    failed = rng.randrange(args.hosts)
    for t in range(args.ticks):
        if t == args.fail:
            judge.hosts[failed].alive = False
            print(f"tick {t}: host {failed} fails, holding {judge.hosts[failed].held:,} games")
        if t == args.fail + args.notice:
            moved, late = take_over(judge, failed)
            print(f"tick {t}: its {moved:,} games placed on the {args.hosts - 1} others "
                  f"({moved / len(judge.games):.1%} of all games moved; no other game moved); "
                  f"{late:,} mails deferred by the MTA for {args.notice} ticks delivered")
        if t == args.join:
            moved = join_host(judge)
            print(f"tick {t}: host {len(judge.hosts) - 1} joins; {moved:,} live games moved to it "
                  f"({moved / len(judge.games):.1%} of all games; finished games stay where they are)")
        tick(judge, rng, args.created, args.finishing)
        if t in (0, args.fail, args.fail + args.notice, args.join, args.ticks - 1):
            report(judge, f"tick {t}")
    names = list(judge.games)
    modulo_fail, modulo_join, ring_fail, ring_join = hash_moves(names, args.hosts, failed)
    share = len(names)
    print(f"a hash of the name instead, over the same {share:,} games: one host of {args.hosts} "
          f"failing moves {modulo_fail / share:.1%} (modulo) or {ring_fail / share:.1%} (ring); "
          f"a host added moves {modulo_join / share:.1%} (modulo) or {ring_join / share:.1%} (ring)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
