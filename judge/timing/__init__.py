"""Deadlines from TIMING, ZONE and the rules: pure arithmetic, `now` is always a parameter.

Public API
----------
- `parse_timing(text) -> Timing`, `str(timing)`: the TIMING line (canonical order:
  NEXT, phase keys, AT, FUDGE, DAYS, START, WARN, GRACE, NOT, SKIP).
- `parse_duration`, `Duration`: duration words `20M`, `16H`, `3D`, `1W`.
- `parse_deadline(text, zone)`, `format_deadline(moment, zone)`: DEADLINE `yyyymmddhhmm`
  on the wall clock of ZONE (GMT when absent); `game_zone`, `localize`, `wall_time_kind`.
  `next_deadline` and `parse_deadline` return aware UTC datetimes (a zoneinfo
  datetime with fold=1 never compares equal to another zone's datetime, PEP 495); the
  zone is for reading and writing wall times.
- `next_deadline(timing, phase_type, zone, now, rules, current_deadline, first)`,
  `phase_delay(timing, phase_type)`.
- `written`: a moment in DPjudge's written forms (`long_form`: Monday 30 November 2026 04:00
  GMT, `short_form`, `day_form`, `date_form`), for every mail and reply.
- `warn_times`, `grace_end`, `prune_vacations`, `vacations_over_at`, `cycle_slot`: helpers for
  the game's clock (`judge.game.clock`).

How a deadline is computed
--------------------------
1. The delay: the phase-type key the phase's last word starts with (the longest such
   key when several match), else NEXT, else 3D for movement and 1D otherwise.  The
   delay is doubled when `first` is set.  A delay under 20 minutes makes the game
   "real time" for this deadline, as the REAL_TIME rule does.
2. `now` plus the delay: D and W delays add calendar days on the game's wall clock (a
   3D delay from Friday 12:00 ends Monday 12:00 across a DST change); M and H delays
   add elapsed time (16H is sixteen real hours).
3. AT: the deadline goes to the AT time at or before it when it overshoots that time
   by no more than the fudge, else to the next AT time.  AT is ignored when the
   deadline (after doubling) is less than half the gap between the AT times around it
   away: 12 hours with a single AT time.  AT times between slots move up to the next
   :00, :20 or :40 (23:50 becomes 00:00 of the next day).
4. FUDGE: D and W delays get FUDGE, or one third of that AT gap by default (8 hours
   with one AT time), at most half the gap, at least 20 minutes (1 minute in real
   time).  So `NEXT 1D` with one AT time acts like 16H.  M and H delays always get the
   minimum only: the spec's way to guarantee a full day is `24H`.
5. Without AT: down to the :00/:20/:40 slot (the cycle's ticks; a late tick does not
   push the deadline to the next slot), or up to the whole minute in real time.
6. DAYS and NOT, repeated until nothing moves: a deadline on a day the phase may not
   use moves on by whole days (same time of day); one inside a vacation moves to the
   first AT time after its end, or the same time of day after it, or (real time) the
   end itself.  A game day begins at midnight plus START.
7. The wall time becomes an instant (the DST policy below), returned in UTC; the
   result is never earlier than `current_deadline`.

Choices where the spec is silent or unclear
-------------------------------------------
- DST: a wall time that occurs twice is the later instant, one that does not exist
  (skipped by the spring change) is read with the offset before the change, i.e. an
  hour later on the new clock (New York 02:30 -> 03:30 EDT): players never lose time.
  DEADLINE text holds the wall time, so storing and reading it back is lossless for
  every instant `next_deadline` returns.  A skipped time that lands off the slot grid
  (Lord Howe's half-hour change) moves up to the next slot.
- Slots :00/:20/:40 are on the game's wall clock, so a deadline reads 12:00 in
  Asia/Kolkata too; `cycle_slot` cuts ticks on UTC.  In zones whose offset is not a
  multiple of 20 minutes the cycle notices such a deadline at its next tick.
- The initial deadline is always doubled, as the spec says; DPjudge did not double it
  in NO_PRESS games (nor outside movement under FTF_PRESS).  We follow the spec.
- The 12-hour AT threshold is checked against the doubled deadline (the spec speaks of
  "a deadline set less than 12 hours in the future"); real time is decided on the
  undoubled delay ("the delay is less than 20 minutes").
- With several AT times, "the gap between the previous and next time-of-day" is the gap
  between the AT occurrences around the computed deadline.
- FUDGE applies to D and W delays only (NEXT: "delays specified in days or weeks have
  an ... fudge period"; "specify the delay in hours ... to guarantee a full day").
- JUMP_OFF_DAYS (the rule) and the TIMING flag SKIP (DPjudge's name; `JUMP_OFF_DAYS`
  in TIMING is read as SKIP) count only free time: off days and vacations do not use
  up the delay, so 3D from Friday with weekends off ends Wednesday.  In that mode all
  delays are counted on the wall clock.
- NOT stamps: `yyyymm`, `yyyymmdd`, `yyyymmddhh` or `yyyymmddhhmm`; both ends are
  inclusive (the whole last month, day or hour; a last minute covers its 20-minute
  slot, 1 minute in real time), so `NOT -20020812` allows deadlines from 13 August on.
  Whole-day and whole-month stamps move with START ("absences expressed in full days
  are affected in the same way"); stamps with hours do not.
- Vacations that ended by `now` are removed by `prune_vacations` (DPjudge removes them
  when setting a deadline); `next_deadline` itself returns only the deadline.
- WARN and GRACE durations are elapsed time (1D = 24 hours).  `WARN 0` (or any zero
  entry) gives no reminder; a WARN longer than the delay gives none when the caller
  passes `not_before`.  GRACE absent: `grace_end` is the deadline under
  CIVIL_DISORDER, else None.
- Parsing: keys and units are case-insensitive, DAYS is case-sensitive; a key given
  twice is an error; DAYS needs an upper-case day; START is M or H, may be negative,
  and is less than a day; FUDGE is M or H; WARN and GRACE accept a bare `0`.
"""
from judge.timing.deadline import is_movement, next_deadline, phase_delay
from judge.timing.durations import Duration, parse_duration
from judge.timing.reminders import grace_end, prune_vacations, vacations_over_at, warn_times
from judge.timing.spec import DEFAULT_DAYS, Timing, Vacation, parse_timing
from judge.timing.zones import (
    cycle_slot,
    format_deadline,
    game_zone,
    localize,
    parse_deadline,
    wall_time_kind,
)

__all__ = [
    "DEFAULT_DAYS",
    "Duration",
    "Timing",
    "Vacation",
    "cycle_slot",
    "format_deadline",
    "game_zone",
    "grace_end",
    "is_movement",
    "localize",
    "next_deadline",
    "parse_deadline",
    "parse_duration",
    "parse_timing",
    "phase_delay",
    "prune_vacations",
    "vacations_over_at",
    "wall_time_kind",
    "warn_times",
]
