"""The rules in force in a game and what is wrong with the rules it names, from the rule table
(`judge.game.rule_table`), combined as DPjudge combines them.

The map's RULEs are taken first, then the game's, each in the table's order. Taking each rule in
turn: a rule already in force is skipped; a rule no one knows, or one that needs another variant, is
a problem and is left out; otherwise it comes into force, the rules it turns off (`-X`, `!X`) go out
of force, and the rules it brings in (`+X`) are taken next (a rule turned off earlier comes back when
a later rule brings it in). When every rule is taken, each `=X` of a rule still in force comes in
unless X was turned off. `RULE !X` turns X off from the start: X stays off unless a rule in force
brings it in.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from judge.errors import Problem
from judge.game import rule_table
from judge.game.rule_table import ALIASES, RULES, STANDARD
from judge.maps.model import Map
from judge.status.model import GameStatus
from judge.rule_names import Rule, Rules

TABLE: dict[str, rule_table.Rule] = {rule.name: rule for rule in RULES}
_ORDER: dict[str, int] = {rule.name: index for index, rule in enumerate(RULES)}
UNLISTED = frozenset({Rule.EAVESDROP})  # in force but never named to the players


@dataclass(frozen=True)
class RuleProblem:
    """What is wrong with a rule (DPjudge's wording where DPjudge has one)."""

    rule: str
    message: str

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class RuleCheck:
    """The rules in force, and what is wrong with those asked for."""

    in_force: Rules
    problems: tuple[RuleProblem, ...]


def rule_name(word: str) -> str:
    """A rule's name as the table has it (its other names read as DPjudge reads them)."""
    name = word.upper()
    return ALIASES.get(name, name)


def rules_in_force(status: GameStatus, m: Map) -> Rules:
    """The rules the game plays by: the map's and the game's with what they bring in or turn off."""
    return check_rules(status, m, status.variant).in_force


def check_rules(status: GameStatus, m: Map, variant: str = STANDARD) -> RuleCheck:
    """The rules in force, and every problem of the rules the map and the game name: an unknown
    rule, one needing another variant, two of the game's rules that exclude each other, and a rule
    in force that this judge does not apply yet."""
    in_force, problems = _combined(frozenset(m.rules), frozenset(m.rules_off),
                                   frozenset(status.rules), frozenset(status.rules_off), variant)
    unapplied = tuple(RuleProblem(name, f"RULE {name} IS NOT IMPLEMENTED ON THIS JUDGE")
                      for name in in_force if not TABLE[name].implemented)
    return RuleCheck(frozenset(in_force), problems + unapplied)


KEPT_RULE_CHECKS = 64  # a game's rules are asked for at every step (the clock, its seats, its mails)


@lru_cache(maxsize=KEPT_RULE_CHECKS)
def _combined(map_rules: frozenset[str], map_off: frozenset[str], game_rules: frozenset[str],
              game_off: frozenset[str], variant: str) -> tuple[tuple[str, ...], tuple[RuleProblem, ...]]:
    """The rules in force (in the table's order) and the problems of combining those named: the
    same rules named give the same answer, so a game's are combined once, not at every step."""
    asked = [*_ordered(map_rules), *_ordered(set(game_rules) - set(map_rules))]
    off = {rule_name(r) for r in (*map_off, *game_off)}
    in_force, problems = combine(asked, off, variant, map_rules={rule_name(r) for r in map_rules})
    return tuple(_ordered(in_force)), tuple(problems + conflicts(game_rules))


def combine(asked: Sequence[str], off: Iterable[str], variant: str = STANDARD,
            map_rules: Iterable[str] = ()) -> tuple[list[str], list[RuleProblem]]:
    """DPjudge's combination of rules (see the module's doc): the rules in force, in the order
    they came in, and the problems met."""
    denied = list(dict.fromkeys(off))
    queue = [name for name in dict.fromkeys(asked) if name not in denied]
    derived = set(map_rules)
    ok: list[str] = []
    pending: list[tuple[str, str]] = []
    problems: list[RuleProblem] = []
    while True:
        if not queue and not _next_default(ok, denied, pending, queue):
            break
        name = queue.pop(0)
        if name in ok:
            continue
        if name in denied:
            denied.remove(name)
        rule = TABLE.get(name)
        if rule is None:
            problems.append(RuleProblem(name, f"NO SUCH RULE: {name}"))
            continue
        if rule.variant not in ("", variant):
            where = "MAP " if name in map_rules else "DERIVED " if name in derived else ""
            problems.append(RuleProblem(name, f"{where}RULE {name} REQUIRES {rule.variant.upper()} "
                                                  "VARIANT"))
            continue
        ok.append(name)
        for gone in (*rule.removes, *rule.excludes):
            if gone not in denied:
                denied.append(gone)
                if gone in ok:
                    ok.remove(gone)
        for brought in rule.implies:
            if _playable(brought, variant) and brought not in ok:
                queue.insert(0, brought)
                derived.add(brought)
        pending += [(name, d) for d in rule.defaults if _playable(d, variant) and d not in queue]
    return ok, problems


def _next_default(ok: list[str], denied: list[str], pending: list[tuple[str, str]],
                  queue: list[str]) -> bool:
    """Queue the next `=X` whose rule is in force and X neither in force nor turned off."""
    while pending:
        rule, default = pending.pop(0)
        if rule in ok and default not in ok and default not in denied:
            queue.append(default)
            return True
    return False


def _playable(name: str, variant: str) -> bool:
    rule = TABLE.get(name)
    return rule is not None and rule.variant in ("", variant)


def conflicts(named: Iterable[str]) -> list[RuleProblem]:
    """Pairs of the game's own rules where one (or a rule it brings in) turns the other off."""
    names = _ordered({rule_name(r) for r in named} & TABLE.keys())
    problems = []
    for index, first in enumerate(names):
        for second in names[index + 1:]:
            if _turns_off(first, second) or _turns_off(second, first):
                problems.append(RuleProblem(second, f"RULE {first} AND RULE {second} EXCLUDE "
                                                    "EACH OTHER"))
    return problems


def _turns_off(first: str, second: str) -> bool:
    brings = _brought(first)
    return any(gone in _brought(second)
               for name in brings for gone in (*TABLE[name].removes, *TABLE[name].excludes))


def _brought(name: str, defaults: bool = False) -> set[str]:
    """The rule and every rule it brings in (with `defaults`, also its `=X`), directly or not."""
    found, todo = set(), [name]
    while todo:
        current = todo.pop()
        if current in found or current not in TABLE:
            continue
        found.add(current)
        todo += TABLE[current].implies + (TABLE[current].defaults if defaults else ())
    return found


def _ordered(names: Iterable[str]) -> list[str]:
    """Rule names in the table's order, unknown names last in alphabetical order."""
    unique = {rule_name(n) for n in names}
    return sorted(unique, key=lambda n: (_ORDER.get(n, len(_ORDER)), n))


def listed_rules(rules: Iterable[str]) -> list[str]:
    """The rules a listing names (EAVESDROP is kept from the players), in the table's order."""
    return [name for name in _ordered(rules) if name not in UNLISTED]


def located(problems: Iterable[RuleProblem], text: str, file: str) -> list[Problem]:
    """The problems at the status line that names their rule, or the rule that brought it in."""
    problems = list(problems)
    if not problems:  # (the text is not looked through for nothing)
        return []
    lines: dict[str, int] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        words = raw.split()
        if words[:1] and words[0].upper() in ("RULE", "RULES"):
            for word in words[1:]:
                lines.setdefault(rule_name(word.lstrip("!")), number)
    found = []
    for problem in problems:
        line = lines.get(problem.rule) or min(
            (n for named, n in lines.items() if problem.rule in _brought(named, defaults=True)), default=0)
        found.append(Problem(file, line, problem.message))
    return found
