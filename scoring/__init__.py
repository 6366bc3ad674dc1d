"""Scoring engine: notation, validation, decomposition, NTS / nts-app scoring, settlement
(spec ``SCORING_SPEC.md``); riichi settlement lives in ``scoring.riichi``.

Public API::

    parse_hand(text) -> Hand              format_hand(hand) -> str
    score_hand(hand, context, ruleset="nts", config=None) -> HandScore
    settle(table_request) -> TableResult  score_request(request: dict) -> dict
    label(code, lang="en") -> str
"""

from .api import RequestError, context_from_json, hand_from_json, score_request, settle
from .model import Context, Group, Hand, HandScore, Line
from .notation import NotationError, format_hand, parse_hand
from .nts import score_hand
from .rules import RULES, label
from .table import TableResult, settle_scores
from .validate import InvalidHand

__all__ = [
    "parse_hand", "format_hand", "score_hand", "settle", "settle_scores", "score_request", "label",
    "Hand", "Group", "Context", "HandScore", "Line", "TableResult", "NotationError", "InvalidHand",
    "RequestError", "RULES", "hand_from_json", "context_from_json",
]
