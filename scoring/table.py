"""Four-player settlement (spec §11-§13): who pays whom, with East paying and receiving
double, plus the table-wide checks that need all hands at once."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from .model import HandScore
from .tiles import TILES

SEATS = ("E", "S", "W", "N")


def _factor(a: str, b: str) -> int:
    """§11: every payment between East and another player is doubled."""
    return 2 if "E" in (a, b) else 1


def settle_scores(scores: dict[str, int], winner: str, rule: str = "winner_takes") -> dict[str, int]:
    """Net amount per seat; the four amounts sum to zero. A dead hand is passed as score 0:
    it then pays the winner and the other non-winners and receives nothing (§13).

    ``rule`` is config ``settlement`` (§11, DECISION 28): ``winner_takes`` (NTS) has every loser
    pay the winner's whole score; ``differences`` (nts-app) has the winner settle the difference
    with each loser too, so a loser holding more than the winner is paid by him."""
    if rule not in ("winner_takes", "differences"):
        raise ValueError(f"unknown settlement rule {rule!r}")
    delta = {s: 0 for s in SEATS}
    losers = [s for s in SEATS if s != winner]
    for loser in losers:
        owed = scores[winner] - (scores[loser] if rule == "differences" else 0)
        pay = owed * _factor(loser, winner)
        delta[loser] -= pay
        delta[winner] += pay
    for i, a in enumerate(losers):
        for b in losers[i + 1:]:
            amount = (scores[a] - scores[b]) * _factor(a, b)     # b pays a (negative: a pays b)
            delta[a] += amount
            delta[b] -= amount
    return delta


@dataclass
class TableResult:
    """Scores per seat (when hands were given), the settlement, and the rotation note."""

    outcome: str
    winner: str | None
    scores: dict[str, HandScore] = field(default_factory=dict)
    given_scores: dict[str, int] = field(default_factory=dict)
    settlement: dict[str, int] | None = None
    winds_rotate: bool = True
    message: str | None = None

    def to_json(self) -> dict:
        out: dict = {"valid": True, "outcome": self.outcome, "winner": self.winner}
        if self.scores:
            out["scores"] = {seat: score_json(s) for seat, s in self.scores.items()}
        out["settlement"] = self.settlement
        out["winds_rotate"] = self.winds_rotate
        if self.message:
            out["message"] = self.message
        return out


def score_json(s: HandScore) -> dict:
    """One player's entry in ``scores`` (cases.json §18 table form)."""
    return {"final": s.final, "base_points": [ln.to_json() for ln in s.base_points],
            "doublings": [ln.to_json() for ln in s.doublings], "base_total": s.base_total,
            "doublings_total": s.doublings_total, "total_before_limit": s.total_before_limit,
            "limit_hand": s.limit_hand, "half_limit": s.half_limit, "dead": s.dead,
            "decomposition": s.decomposition, **({"message": s.message} if s.message else {})}


def table_copies(tiles_by_seat: dict[str, list[int]]) -> str | None:
    """The first kind that appears more than four times over the whole table, as a message."""
    total = Counter(t for tiles in tiles_by_seat.values() for t in tiles)
    for kind, n in sorted(total.items()):
        if n > 4:
            return f"{TILES[kind]} appears {n} times on the table (there are only 4)"
    return None
