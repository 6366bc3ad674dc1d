"""The oracle of the photo tests: a hand typed in notation, scored through the engine's JSON
contract (``scoring.score_request``), as ``mjscore score`` scores it."""

from __future__ import annotations

from mjscore.scoring import score_request
from mjscore.scoring.api import hand_to_json
from mjscore.scoring.notation import parse_hand


def typed_answer(notation: str, ctx) -> dict:
    """The engine's answer for ``notation`` in a handscan ``ScanContext`` (the ``+tile`` of
    the notation, else the context's winning tile)."""
    hand = hand_to_json(parse_hand(notation))
    hand.setdefault("winning_tile", ctx.winning_tile)
    hand.update(seat_wind=ctx.seat, win_type=ctx.win_type, special=list(ctx.special))
    return score_request({"ruleset": ctx.ruleset, "prevailing_wind": ctx.wind, "hand": hand})
