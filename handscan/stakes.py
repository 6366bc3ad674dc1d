"""Flowers and seasons whose kind decides the score: flagged unless read surely.

Why: each set paints its own flowers and seasons, so on a set the classifier never saw they are
its weakest kinds, and a season read as the player's own flower doubles the score (issue 17:
"final 224 shown where 112 is right", at a confidence above the review threshold). A suit
tile misread usually breaks the hand and is caught there; a bonus tile misread as another
bonus tile leaves a valid hand with another score, so nothing else would ask.

DECISION (session 22): a bonus tile read under ``STAKES_CONFIDENCE`` whose runner-up bonus kind
(probability at least ``STAKES_MIN_ODDS`` of the read kind's) makes a valid hand with another
final score is
flagged ``score_depends_on:N`` with a warning that names both finals, so the review asks about
that one tile. Tiles whose other reading scores the same (a limit hand, a flower that is nobody's
own) are not flagged: the score shown is right either way; nor are those whose other reading
makes no valid hand (a second ``j1``): the hand itself rules it out.
"""

from __future__ import annotations

from dataclasses import dataclass

from .context import ContextError, ScanContext
from .hand import hand_from_layout, score
from ..vision.kinds import BONUS
from ..vision.layout import Layout, with_kind

STAKES_CONFIDENCE = 0.9   # a bonus tile read at least this surely is not questioned
STAKES_MIN_ODDS = 0.05    # runner-ups less than 1:20 against the read kind are not worth a question


@dataclass(frozen=True)
class Stake:
    """Tile ``index`` (0-based) read as ``read`` scores ``final``; read as ``other`` it scores
    ``other_final``."""
    index: int
    read: str
    confidence: float
    other: str
    other_final: int

    def warning(self, final: int) -> str:
        return (f"tile {self.index + 1} ({self.read}, {self.confidence:.2f}) decides the score: "
                f"final {final} as {self.read}, {self.other_final} as {self.other}; check it")


def score_stakes(layout: Layout, ctx: ScanContext, final: int) -> list[Stake]:
    """The unsure bonus tiles of a scored hand whose likely other kind changes its final score."""
    stakes = []
    for i, tile in enumerate(layout.tiles):
        if tile.kind not in BONUS or tile.confidence >= STAKES_CONFIDENCE:
            continue
        for kind, p in tile.alternatives:
            if kind not in BONUS or kind == tile.kind or p < STAKES_MIN_ODDS * max(tile.confidence, 1e-6):
                continue
            try:
                answer = score(hand_from_layout(with_kind(layout, i, kind), ctx.winning_tile).hand, ctx)
            except ContextError:
                continue
            if answer.valid and answer.final != final:     # an invalid one (a second j1) is no rival
                stakes.append(Stake(i, tile.kind, tile.confidence, kind, answer.final))
                break
    return stakes
