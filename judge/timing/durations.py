"""Duration words of the TIMING line: `20M`, `16H`, `3D`, `1W` (and a bare `0`)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta

UNIT_SPAN = {
    "M": timedelta(minutes=1),
    "H": timedelta(hours=1),
    "D": timedelta(days=1),
    "W": timedelta(weeks=1),
}
_WORD = re.compile(r"([+-]?)(\d+)([A-Za-z]?)")


@dataclass(frozen=True, slots=True)
class Duration:
    """A whole number of minutes, hours, days or weeks, as a TIMING line writes it.

    `unit` is one of M, H, D, W; it is empty only for the bare `0` that WARN and
    GRACE accept.  `amount` is negative only for START.
    """

    amount: int
    unit: str

    def __str__(self) -> str:
        return f"{self.amount}{self.unit}"

    @property
    def span(self) -> timedelta:
        """The elapsed time this duration stands for (a day is 24 hours here)."""
        return self.amount * UNIT_SPAN[self.unit] if self.unit else timedelta(0)

    @property
    def whole_days(self) -> bool:
        """True for D and W delays: those count calendar days and get the AT fudge."""
        return self.unit in ("D", "W")

    @property
    def days(self) -> int:
        """The number of calendar days of a D or W duration."""
        return self.amount * (7 if self.unit == "W" else 1)


def parse_duration(
    text: str,
    *,
    label: str = "duration",
    units: str = "MHDW",
    zero: bool = False,
    negative: bool = False,
) -> Duration:
    """`3D` -> Duration(3, "D"); raises ValueError naming `label` when `text` is not one.

    `units` lists the letters allowed; `zero` allows `0`, `0H`...; `negative` allows a
    leading minus.  A leading plus is accepted and dropped; letters may be lower case.
    """
    match = _WORD.fullmatch(text.strip())
    if match is None:
        raise ValueError(f"{label}: expected {_expected(units)}, got {text!r}")
    sign, digits, unit = match.group(1), match.group(2), match.group(3).upper()
    amount = int(digits) * (-1 if sign == "-" else 1)
    if amount == 0 and not zero:
        raise ValueError(f"{label}: must be more than zero, got {text!r}")
    if amount < 0 and not negative:
        raise ValueError(f"{label}: may not be negative, got {text!r}")
    if not unit and amount != 0:
        raise ValueError(f"{label}: {text!r} lacks its unit, expected {_expected(units)}")
    if unit and unit not in units:
        raise ValueError(f"{label}: unit {unit!r} not allowed here, expected {_expected(units)}")
    return Duration(amount, unit)


def _expected(units: str) -> str:
    names = {"M": "M (minutes)", "H": "H (hours)", "D": "D (days)", "W": "W (weeks)"}
    return "a whole number followed by " + " or ".join(names[u] for u in units)
