"""What a variant changes in a game, stated in one place per variant.

A variant is DPjudge's game class, the word after a game's name in `games/status` (`standard`,
`xtalball`, `payola`). Each module here states what its variant plays: the stages of processing a
phase (`judge.game.stages`) and the rules of the rule table it may be played with. `variant_named`
finds a variant by that word; a game of a variant the judge does not play is refused.
"""
from __future__ import annotations

from judge.game.variants.model import Variant
from judge.game.variants.standard import STANDARD

VARIANTS: tuple[Variant, ...] = (STANDARD,)


def variant_named(name: str) -> Variant | None:
    """The variant DPjudge calls `name` (any case), or None when the judge does not play it."""
    return next((v for v in VARIANTS if v.name == name.lower()), None)


def played_variants() -> str:
    """The variants the judge plays, as a refusal names them."""
    return ", ".join(v.name for v in VARIANTS)


__all__ = ["STANDARD", "VARIANTS", "Variant", "played_variants", "variant_named"]
