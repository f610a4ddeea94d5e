"""The rules in force in a game: the map's RULEs and the status file's, what each rule brings in with
it (rules.md: "This rule automatically includes..."), and every `!` applied last."""
from __future__ import annotations

from judge.maps.model import Map
from judge.status.model import GameStatus

IMPLIES: dict[str, tuple[str, ...]] = {
    "SOLITAIRE": ("NO_DEADLINE", "CD_DUMMIES", "DEFAULT_UNORDERED", "ALWAYS_WAIT"),
    "CIVIL_DISORDER": ("CD_DUMMIES",),
    "SMART_CD": ("CD_RETREATS", "CD_BUILDS", "CD_SUPPORTS"),
    "NO_QUARTER": ("NO_RETREAT", "NO_DRAW"),
    "HIDE_PROPOSER": ("PROPOSE_DIAS",),
    "VASSAL_DUMMIES": ("TEAM_VICTORY",),
    "PAY_DUMMIES": ("CD_DUMMIES",),
    "BROADCAST_ORDERS": ("ALWAYS_CONFIRM",),
    "NO_PRESS": ("SILENT_ABSENCES",),
    "SHOW_PHANTOM": ("FICTIONAL_OK",),
    "PROXY_OK": ("ORDER_ANY",),
    "BLIND": ("FICTIONAL_OK", "HIDE_ABSENTEES", "HIDE_DUMMIES", "HIDE_LATE_POWERS", "SHOW_PHANTOM",
              "SILENT_ABSENCES"),
    "HIDE_DUMMIES": ("HIDE_LATE_POWERS", "HIDE_ABSENTEES"),
    "NO_REVEAL": ("HIDE_ABSENTEES",),
    "MYOPIC": ("SEE_NO_SCS", "SEE_NO_UNITS"),
}
# Brought in unless a rule that is on says otherwise (DPjudge's `=X`).
DEFAULTS: dict[str, tuple[str, str]] = {"CIVIL_DISORDER": ("NO_LATE_CHANGES", "LATE_CHANGES")}
DENIES: dict[str, tuple[str, ...]] = {"NO_PROXY": ("PROXY_OK",)}


def rules_in_force(status: GameStatus, m: Map) -> frozenset[str]:
    """Map RULEs and status RULEs with what they include; then every `RULE !X` (map's or game's)."""
    rules = set(m.rules) | set(status.rules)
    changed = True
    while changed:
        before = len(rules)
        for rule in list(rules):
            rules.update(IMPLIES.get(rule, ()))
        changed = len(rules) != before
    for rule, (brought, unless) in DEFAULTS.items():
        if rule in rules and unless not in rules:
            rules.add(brought)
    for rule, denied in DENIES.items():
        if rule in rules:
            rules.difference_update(denied)
    return frozenset(rules - set(m.rules_off) - set(status.rules_off))
