"""The standard game: the phase pipeline every other variant starts from."""
from __future__ import annotations

from judge.game import stages
from judge.game.stages import Stage
from judge.game.variants.model import Variant

PIPELINE: tuple[Stage, ...] = (
    Stage("gather orders", stages.gather_orders),
    Stage("adjudicate", stages.adjudicate),
    Stage("sight", stages.sight),
    Stage("write back", stages.write_back),
    Stage("rotate after", stages.rotate_after_phase),
    Stage("move on", stages.move_on),
    Stage("look for the end", stages.look_for_end),
    Stage("set the next deadline", stages.set_next_deadline),
    Stage("bring NEED up to date", stages.bring_need_up_to_date),
    Stage("report", stages.report),
)

STANDARD = Variant("standard", "Standard Diplomacy", PIPELINE)


def stages_through(name: str) -> int:
    """How many of the pipeline's stages run up to and with the one named: where a variant's own
    stage goes after it."""
    return next(n for n, stage in enumerate(PIPELINE) if stage.name == name) + 1
