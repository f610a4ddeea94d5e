"""What a variant changes in a game, stated in one place per variant.

A variant is DPjudge's game class, the word after a game's name in `games/status` (`standard`,
`xtalball`, `payola`). Each module here states what its variant plays: the stages of processing a
phase (`judge.game.stages`). `variant_named` finds a variant by that word; `played_variant` only
one whose games the mail commands and the cycle carry: a game of any other is refused.
"""
from __future__ import annotations

from judge.game.variants.model import Variant
from judge.game.variants.payola import PAYOLA
from judge.game.variants.standard import STANDARD
from judge.game.variants.xtalball import XTALBALL
from judge.status.model import GameStatus

VARIANTS: tuple[Variant, ...] = (STANDARD, XTALBALL, PAYOLA)


def variant_named(name: str) -> Variant | None:
    """The variant DPjudge calls `name` (any case), or None when the judge does not play it."""
    return next((v for v in VARIANTS if v.name == name.lower()), None)


def variant_of(status: GameStatus) -> Variant:
    """The variant the game plays (the standard game when the judge does not know its own)."""
    return variant_named(status.variant) or STANDARD


def played_variant(name: str) -> Variant | None:
    """The variant DPjudge calls `name` when the judge plays its games by mail and by the cycle."""
    found = variant_named(name)
    return found if found is not None and found.played else None


def played_variants() -> str:
    """The variants the judge plays, as a refusal names them."""
    return ", ".join(v.name for v in VARIANTS if v.played)


__all__ = ["PAYOLA", "STANDARD", "VARIANTS", "XTALBALL", "Variant", "played_variant", "played_variants",
           "variant_named", "variant_of"]
