"""Every rule DPjudge knows, one row each: the facts its rule pages state (family, the variant it
needs, what it brings in or turns off) and whether this judge applies it.

`controls` is written as DPjudge's rule metadata writes them:
- `+X` the rule brings X in (X is "implied");
- `-X` the rule turns X off (a rule it overrides, as NO_PRESS removes the other press rules);
- `!X` the rule cannot be played with X (X is turned off; two such rules asked for together are
  refused at CREATE);
- `=X` X comes with the rule unless X is turned off (`RULE !X`, or a rule that turns it off).

`implemented` is the one column to flip when a rule starts to be applied: a rule in force that is
not implemented is refused at CREATE and reported for a loaded game (`judge.game.rules`).
`docs/rules.md` shows this table (`python -m tests.support.rule_docs` rewrites it there).
"""
from __future__ import annotations

from dataclasses import dataclass

from judge.rule_names import rule_names

PAYOLA = "payola"  # Payola's own rules: refused until the judge plays the Payola variant
XTALBALL = "xtalball"  # Crystal Ball's own rules
STANDARD = "standard"  # rules DPjudge keeps for its standard variant (this judge's only variant)


@dataclass(frozen=True)
class Rule:
    name: str
    family: str
    controls: str  # DPjudge's metadata: "+X -Y !Z =W"
    implemented: bool
    variant: str = ""  # the variant the rule needs ("" : any)
    note: str = ""

    def _with(self, mark: str) -> tuple[str, ...]:
        return tuple(word[1:] for word in self.controls.split() if word[0] == mark)

    @property
    def implies(self) -> tuple[str, ...]:
        return self._with("+")

    @property
    def removes(self) -> tuple[str, ...]:
        return self._with("-")

    @property
    def excludes(self) -> tuple[str, ...]:
        return self._with("!")

    @property
    def defaults(self) -> tuple[str, ...]:
        return self._with("=")


START, PRESS, MASTER_PRESS = "Game start", "Player press", "Master press"
MOVEMENT, CONVOY, ADJUST = "Movement orders", "Convoys", "Retreats and adjustments"
SECRECY, LATE, CONTROL = "Secrecy", "Late and vacant powers", "Power control"
DEADLINES, END = "Deadlines and processing", "Game end"
FUNDS, INCOME, BRIBE_SECRECY, BRIBES = ("Payola funds", "Payola income", "Payola bribe secrecy",
                                        "Payola bribes")
LISTS = "Crystal Ball order lists"
# a Payola rule the judge does not play is refused with what it lacks for it
REFUSED = "refused"
TRANSFERS = "played as DPjudge plays it (recorded transfers); by mail: TRANSFER amount TO power"
PLAYED = "played as DPjudge plays it (a recorded game)"
ADJACENCY = ("a bribe to another power's unit refused with DPjudge's words when the briber's units "
             "stand {} it (recorded)")
LIMITED = ("with PUBLIC_LISTS: a power's first lines only, one more than the largest power has "
           "centres, as DPjudge counts them; alone it publishes nothing, as in DPjudge")

# Neighbouring rows follow DPjudge's rule page, family by family.
RULES: tuple[Rule, ...] = (
    Rule("POWER_CHOICE", START, "", True),
    Rule("MOBILIZE", START, "!BLANK_BOARD", True),
    Rule("BLANK_BOARD", START, "!MOBILIZE", True, note="FLEX_SETUP is another name for it"),
    Rule("SOLITAIRE", START, "+NO_DEADLINE +CD_DUMMIES +DEFAULT_UNORDERED +ALWAYS_WAIT", True),
    Rule("SILENT_JOIN", START, "", True),
    Rule("START_MASTER", START, "", True),

    Rule("NO_PRESS", PRESS, "+SILENT_ABSENCES !NO_LATE_RECEIVE !MUST_ORDER !LATE_SEND -FAKE_PRESS "
         "-GREY_PRESS -WHITE_GREY -TOUCH_PRESS -REMOTE_PRESS -PUBLIC_PRESS -YELLOW_PRESS "
         "-BACKSEAT_PRESS -MUTE_OBSERVERS", True),
    Rule("PUBLIC_PRESS", PRESS, "-NO_PRESS !NO_LATE_RECEIVE", True,
         note="NO_PARTIAL is another name for it"),
    Rule("MUST_ORDER", PRESS, "!REAL_TIME !LATE_SEND !NO_PRESS", True),
    Rule("LATE_SEND", PRESS, "!MUST_ORDER !NO_PRESS", True),
    Rule("NO_LATE_RECEIVE", PRESS, "!NO_PRESS !PUBLIC_PRESS", True),
    Rule("FTF_PRESS", PRESS, "", True),
    Rule("GREY_PRESS", PRESS, "-NO_PRESS -FAKE_PRESS -WHITE_GREY -YELLOW_PRESS", True),
    Rule("YELLOW_PRESS", PRESS, "-NO_PRESS !GREY_PRESS", True),
    Rule("WHITE_GREY", PRESS, "-NO_PRESS -GREY_PRESS -FAKE_PRESS", True),
    Rule("FAKE_PRESS", PRESS, "-NO_PRESS -GREY_PRESS -WHITE_GREY", True),
    Rule("MUTE_OBSERVERS", PRESS, "!BACKSEAT_PRESS", True),
    Rule("TOUCH_PRESS", PRESS, "-NO_PRESS !REMOTE_PRESS !BACKSEAT_PRESS", True),
    Rule("REMOTE_PRESS", PRESS, "-NO_PRESS !TOUCH_PRESS !BACKSEAT_PRESS", True),
    Rule("BACKSEAT_PRESS", PRESS, "-NO_PRESS !TOUCH_PRESS !MUTE_OBSERVERS", True),

    Rule("EAVESDROP", MASTER_PRESS, "-EAVESDROP! -PRESS_MASTER", True,
         note="not named in listings"),
    Rule("EAVESDROP!", MASTER_PRESS, "-EAVESDROP -PRESS_MASTER", True,
         note="EAVESDROP, named in listings"),
    Rule("PRESS_MASTER", MASTER_PRESS, "-EAVESDROP -EAVESDROP!", True),

    Rule("ALWAYS_CONFIRM", MOVEMENT, "", True),
    Rule("BROADCAST_ORDERS", MOVEMENT, "+ALWAYS_CONFIRM", True),
    Rule("SIGNAL_SUPPORT", MOVEMENT, "!NO_CHECK", True),
    Rule("FICTIONAL_OK", MOVEMENT, "", True),
    Rule("SHOW_PHANTOM", MOVEMENT, "!NO_CHECK", True),
    Rule("ORDER_ANY", MOVEMENT, "", True),
    Rule("PROXY_OK", MOVEMENT, "-NO_PROXY +ORDER_ANY", True),
    Rule("NO_PROXY", MOVEMENT, "-PROXY_OK", True),
    Rule("COASTAL_CRAWL", MOVEMENT, "", True),
    Rule("FRIENDLY_FIRE", MOVEMENT, "", True),
    Rule("WEAK_BOUNCES", MOVEMENT, "", True),
    Rule("DEFAULT_UNORDERED", MOVEMENT, "", True),
    Rule("UNITS_ADAPT", MOVEMENT, "", True),
    Rule("HIBERNATE", MOVEMENT, "", True),
    Rule("IMMOBILE_DUMMIES", MOVEMENT, "", True),
    Rule("NO_CHECK", MOVEMENT, "!SHOW_PHANTOM !SIGNAL_SUPPORT +DEFAULT_UNORDERED", True, STANDARD),

    Rule("COASTAL_CONVOY", CONVOY, "", True),
    Rule("PORTAGE_CONVOY", CONVOY, "", True),
    Rule("SAFE_CONVOYS", CONVOY, "", True),
    Rule("WEAK_CONVOYS", CONVOY, "", True),
    Rule("CONVOY_BACK", CONVOY, "", True),

    Rule("NO_RETREAT", ADJUST, "", True),
    Rule("BUILD_ANY", ADJUST, "!HOME_BUILDS !REMOTE_BUILDS", True),
    Rule("HOME_BUILDS", ADJUST, "!BUILD_ANY", True),
    Rule("REMOTE_BUILDS", ADJUST, "!BUILD_ANY", True),
    Rule("GARRISON", ADJUST, "", True),
    Rule("NO_RESERVES", ADJUST, "", True),
    Rule("NO_MILITIA", ADJUST, "", True),
    Rule("NO_FACTORIES", ADJUST, "", True),
    Rule("NO_PARTISANS", ADJUST, "", True),

    Rule("BLIND", SECRECY, "!NO_DIAS +FICTIONAL_OK +HIDE_ABSENTEES +HIDE_LATE_POWERS "
         "+SHOW_PHANTOM !ZERO_FOREIGN !PUBLIC_TOTALS !PUBLIC_LISTS !LIMIT_LISTS =HIDE_DUMMIES", True),
    Rule("OWN_SCS_SEE", SECRECY, "!NO_SCS_SEE +BLIND", True),
    Rule("NO_SCS_SEE", SECRECY, "!OWN_SCS_SEE +BLIND", True),
    Rule("NO_UNITS_SEE", SECRECY, "+BLIND", True),
    Rule("SEE_NO_SCS", SECRECY, "+BLIND", True),
    Rule("SEE_ALL_SCS", SECRECY, "!SEE_NO_SCS +BLIND", True),
    Rule("SEE_NO_UNITS", SECRECY, "!UNITS_SEE_OTHER !UNITS_SEE_SAME +BLIND", True),
    Rule("UNITS_SEE_OTHER", SECRECY, "!UNITS_SEE_SAME !SEE_NO_UNITS +BLIND", True),
    Rule("UNITS_SEE_SAME", SECRECY, "!UNITS_SEE_OTHER !SEE_NO_UNITS +BLIND", True),
    Rule("MYOPIC", SECRECY, "!OWN_SCS_SEE +SEE_NO_SCS +SEE_NO_UNITS +NO_UNITS_SEE +NO_SCS_SEE "
         "+BLIND", True),
    Rule("VENETIAN", SECRECY, "+OWN_SCS_SEE +SEE_NO_SCS +BLIND", True),
    Rule("GREEK", SECRECY, "+UNITS_SEE_SAME +NO_SCS_SEE !OWN_SCS_SEE +BLIND", True),
    Rule("TROJAN", SECRECY, "+UNITS_SEE_OTHER +NO_SCS_SEE !OWN_UNITS_SEE +BLIND", True),
    Rule("HIDE_BUILDS", SECRECY, "", True),
    Rule("HIDE_DUMMIES", SECRECY, "+HIDE_ABSENTEES +HIDE_LATE_POWERS", True),
    Rule("HIDE_EXTENDERS", SECRECY, "", True),
    Rule("HIDE_LATE_POWERS", SECRECY, "", True),
    Rule("LIST_WAITERS", SECRECY, "", True),
    Rule("LIST_UNORDERED", SECRECY, "", True),
    Rule("NO_REVEAL", SECRECY, "+HIDE_ABSENTEES", True),

    Rule("CIVIL_DISORDER", LATE, "!CIVIL_PREVIEW +CD_DUMMIES =NO_LATE_CHANGES", True),
    Rule("CIVIL_PREVIEW", LATE, "!CIVIL_DISORDER", True),
    Rule("CD_DUMMIES", LATE, "", True),
    Rule("DUMMY_FIRE", LATE, "", True),
    Rule("CD_BUILDS", LATE, "", True),
    Rule("CD_RETREATS", LATE, "", True),
    Rule("SMART_CD", LATE, "+CD_RETREATS +CD_BUILDS +CD_SUPPORTS", True),
    Rule("CD_SUPPORTS", LATE, "=CIVIL_DISORDER", True, STANDARD),

    Rule("VASSAL_DUMMIES", CONTROL, "+CD_DUMMIES +CD_BUILDS +TEAM_VICTORY", True),
    Rule("TORN_ALLEGIANCE", CONTROL, "+VASSAL_DUMMIES", True),

    Rule("NO_DEADLINE", DEADLINES, "!NO_LATE_CHANGES !LATE_CHANGES !PLAYER_DEADLINES", True),
    Rule("JUMP_OFF_DAYS", DEADLINES, "", True),
    Rule("NO_QUARTER", DEADLINES, "+NO_RETREAT +NO_DRAW", True),
    Rule("NO_LATE_CHANGES", DEADLINES, "-LATE_CHANGES !NO_DEADLINE", True),
    Rule("LATE_CHANGES", DEADLINES, "-NO_LATE_CHANGES !NO_DEADLINE", True),
    Rule("REAL_TIME", DEADLINES, "!ALWAYS_WAIT !MUST_ORDER", True),
    Rule("NO_MINOR_WAIT", DEADLINES, "", True),
    Rule("ALWAYS_WAIT", DEADLINES, "!REAL_TIME", True),
    Rule("PLAYER_DEADLINES", DEADLINES, "!NO_DEADLINE", True),
    Rule("SILENT_ABSENCES", DEADLINES, "", True),
    Rule("HIDE_ABSENTEES", DEADLINES, "", True),
    Rule("NO_ABSENCES", DEADLINES, "", True),
    Rule("PREVIEW", DEADLINES, "", True),

    Rule("NO_DRAW", END, "", True),
    Rule("PROPOSE_DIAS", END, "!NO_DIAS", True),
    Rule("HIDE_PROPOSER", END, "", True),
    Rule("NO_DIAS", END, "!PROPOSE_DIAS !BLIND", True),
    Rule("HOLD_WIN", END, "", True),
    Rule("SHARED_VICTORY", END, "", True),
    Rule("TEAM_VICTORY", END, "", True),
    Rule("VICTORY_HOMES", END, "", True),
    Rule("NO_EOG", END, "", True, note="the judge keeps no press archive: post-game press is never stored"),
    Rule("LAST_MAN_STANDING", END, "+SOLITAIRE", True, STANDARD),

    Rule("ANON_TRANSFER", FUNDS, "", True, PAYOLA, TRANSFERS),
    Rule("NO_DONATIONS", FUNDS, "!GARRISON", True, PAYOLA,
         "as DPjudge plays it (recorded): after each movement phase a power it counts as gone loses its "
         "treasury, and in the retreats before adjustments it gives nothing"),
    Rule("NO_TRANSFER", FUNDS, "", True, PAYOLA, "every TRANSFER refused, as DPjudge's pages offer none"),
    Rule("ONE_TRANSFER", FUNDS, "", True, PAYOLA, TRANSFERS + "; to each power once a phase"),
    Rule("NO_LOOTING", FUNDS, "", True, PAYOLA,
         "a dummy's TRANSFER refused: DPjudge applies it only there (its transfer form is not shown "
         "to a dummy), though its rules page says more"),
    Rule("EXCHANGE", INCOME, "", True, PAYOLA,
         PLAYED + ": investors join where the game ALLOWs INVESTORs and bribe as the powers do; "
                  "DPjudge pays no dividends on any map and counts no elections (docs/dpjudge.md)"),
    Rule("FLAT_TAX", INCOME, "", True, PAYOLA, PLAYED),
    Rule("NO_HOARDING", INCOME, "", True, PAYOLA, PLAYED),
    Rule("ZEROSUM", INCOME, "", False, PAYOLA,
         REFUSED + ": income comes from taxes only, never from bribe profits or captured centres; DPjudge "
                   "itself cannot play it past one movement phase (it saves the profits before the cash on "
                   "the FUNDS line, `FUNDS 18+ $30`, reads only a line's first fund, and then refuses its "
                   "file: NO BALANCE FOR each power; seen running DPjudge)"),
    Rule("EBAYOLA", BRIBE_SECRECY, "", True, PAYOLA,
         PLAYED + "; a tie as DPjudge settles it: the winner first on the owner's list pays one more "
                  "than it offered"),
    Rule("HIDE_COST", BRIBE_SECRECY, "-NO_LEDGERS", True, PAYOLA,
         PLAYED + ": a statement lists no unit's order and price"),
    Rule("HIDE_OFFERS", BRIBE_SECRECY, "-NO_LEDGERS", True, PAYOLA,
         PLAYED + ": a statement shows neither the sheet nor the bribes accepted, nor whose money moved a unit"),
    Rule("PUBLIC_TOTALS", BRIBE_SECRECY, "!BLIND", False, PAYOLA,
         REFUSED + ": DPjudge shows the players every phase's bribes (its `chart` file, which it writes "
                   "in every Payola game) on its web pages; the judge keeps no chart and has no such page yet"),
    Rule("NO_LEDGERS", BRIBE_SECRECY, "-HIDE_COSTS -HIDE_OFFERS", True, PAYOLA,
         "no account statement or income report is mailed, as in DPjudge (a recorded game); the bribes "
         "are charged all the same, where DPjudge's cost nothing"),
    Rule("DIRECT_ONLY", BRIBES, "", True, PAYOLA,
         PLAYED + "; a sheet's wildcards, alternatives, repetitions and second bribes to a unit refused "
                  "with DPjudge's words"),
    Rule("RESTRICT_SIGNAL", BRIBES, "+SIGNAL_SUPPORT", False, PAYOLA,
         REFUSED + ": not played yet (a sheet's signal-support bribes, `0 : A PAR S A MAR ?`, are not read)"),
    Rule("PAY_DUMMIES", BRIBES, "!REMOTE_BRIBE !TOUCH_BRIBE", False, PAYOLA,
         REFUSED + ": not played yet (players order their own units and bribe only the dummies' units, with "
                   "statements of their own)"),
    Rule("NO_SAVINGS", BRIBES, "", True, PAYOLA,
         "a sheet's savings and plateaus refused with DPjudge's words"),
    Rule("NO_PLATEAU", BRIBES, "", True, PAYOLA,
         "a sheet's plateaus refused with DPjudge's words"),
    Rule("PAYOLA_CLASSIC", BRIBES, "=FLAT_TAX =NO_SAVINGS =DIRECT_ONLY =ZERO_FOREIGN", True, PAYOLA, PLAYED),
    Rule("LIMIT_OFFERS", BRIBES, "+DIRECT_ONLY", True, PAYOLA,
         "a bribe refused once those above it on the sheet add up to more than the treasury less "
         "savings, as DPjudge counts it (recorded)"),
    Rule("REMOTE_BRIBE", BRIBES, "-TOUCH_BRIBE !PAY_DUMMIES", True, PAYOLA, ADJACENCY.format("next to")),
    Rule("TOUCH_BRIBE", BRIBES, "-REMOTE_BRIBE !PAY_DUMMIES", True, PAYOLA, ADJACENCY.format("apart from")),
    Rule("ZERO_FOREIGN", BRIBES, "!BLIND", True, PAYOLA, PLAYED),

    Rule("PUBLIC_LISTS", LISTS, "!BLIND", True, XTALBALL),
    Rule("LIMIT_LISTS", LISTS, "!BLIND", True, XTALBALL, LIMITED),
)

# Other names DPjudge reads in a status file for the same rule.
ALIASES: dict[str, str] = {"FLEX_SETUP": "BLANK_BOARD", "NO_PARTIAL": "PUBLIC_PRESS"}

if rule_names() != {rule.name for rule in RULES}:
    raise ImportError("judge.rule_names.Rule and the rule table name different rules: "
                      + " ".join(sorted(rule_names() ^ {rule.name for rule in RULES})))
