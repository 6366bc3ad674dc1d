"""The hand as laid out on the table: :class:`Group` and :class:`Layout`, the hand's
notation and the warnings about its shape. Built by the search or by hand (the review)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Sequence

from ...scoring.tiles import BACK
from .notation import (BONUS, CONCEALED, CONCEALED_KONG, EXPOSED, GROUP_KINDS, compact,
                                           group_notation, set_type, sort_key)
from ..types import TileRead


@dataclass
class Group:
    """One group on the table. ``indices`` point into :attr:`Layout.tiles` (reading order)."""
    tiles: list[TileRead]
    kind: str                      # concealed / exposed / concealed_kong / bonus
    reason: str
    confidence: float
    indices: tuple[int, ...] = ()

    @property
    def tokens(self) -> list[str]:
        return [t.kind for t in self.tiles]

    @property
    def notation(self) -> str:
        return group_notation(self.kind, self.tokens)


@dataclass
class Layout:
    """The hand as laid out. ``concealed`` holds the concealed tokens *including* the winning
    tile (which the photo cannot single out); ``notation`` is the hand without ``+winning``."""
    groups: list[Group]
    concealed: list[str]
    bonus: list[str]
    notation: str
    warnings: list[str] = field(default_factory=list)
    tiles: list[TileRead] = field(default_factory=list)   # all tiles, reading order
    rows: int = 0
    direction_deg: float = 0.0                           # reading direction in the image
    score: float = 0.0                                   # structural plausibility (higher = better)
    apart_tile: int | None = None     # a lone concealed tile set apart at the row's end (the winning tile?)
    isolated: tuple[int, ...] = ()    # tiles far from every other tile (another hand's? a false detection?)

    @property
    def melds(self) -> list[str]:
        """Exposed sets and declared concealed kongs, as engine ``melds`` strings."""
        return [g.notation for g in self.groups if g.kind in (EXPOSED, CONCEALED_KONG)]

    @property
    def group_of_tile(self) -> dict[int, int]:
        return {i: gi for gi, g in enumerate(self.groups) for i in g.indices}

    def to_json(self) -> dict:
        return {
            "notation": self.notation,
            "melds": self.melds,
            "concealed": compact(self.concealed).replace(" ", ""),
            "bonus": list(self.bonus),
            "groups": [{"kind": g.kind, "notation": g.notation, "tiles": [i + 1 for i in g.indices],
                        "reason": g.reason, "confidence": round(g.confidence, 3)} for g in self.groups],
            "warnings": list(self.warnings),
            "rows": self.rows,
            "direction_deg": round(self.direction_deg, 1),
        }


def hand_notation(groups: Sequence[Group], winning_tile: str | None = None) -> str:
    """Spec §1.2 notation. With a winning tile, one copy of it leaves the concealed part and
    is written last as ``+tile`` (raises ValueError when the concealed part lacks it)."""
    melds = [g.notation for g in groups if g.kind in (EXPOSED, CONCEALED_KONG)]
    concealed = [t for g in groups if g.kind == CONCEALED for t in g.tokens]
    bonus = sorted((t for g in groups if g.kind == BONUS for t in g.tokens), key=sort_key)
    if winning_tile is not None:
        if winning_tile not in concealed:
            raise ValueError(f"the winning tile {winning_tile} is not among the concealed tiles")
        concealed.remove(winning_tile)
    parts = melds + ([compact(concealed)] if concealed else [])
    if winning_tile is not None:
        parts.append("+" + winning_tile)
    if bonus:
        parts.append("/ " + " ".join(sorted(bonus, key=sort_key)))
    return " ".join(parts)


def layout_from_groups(tiles: Sequence[TileRead], spec: Sequence[tuple[str, Sequence[int]]],
                       reasons: Sequence[tuple[str, float]] | None = None,
                       warnings: Iterable[str] = (), **extra) -> Layout:
    """Build a Layout from explicit groups ``[(kind, [tile index, ...]), ...]`` (used by the
    review, where the user regroups by hand). Empty groups are dropped."""
    groups: list[Group] = []
    for n, (kind, idx) in enumerate(spec):
        if kind not in GROUP_KINDS:
            raise ValueError(f"unknown group kind {kind!r}")
        idx = tuple(idx)
        if not idx:
            continue
        reason, conf = reasons[n] if reasons else ("set by hand", 1.0)
        groups.append(Group([tiles[i] for i in idx], kind, reason, conf, idx))
    groups = merge_concealed(groups)
    concealed = [t for g in groups if g.kind == CONCEALED for t in g.tokens]
    bonus = sorted((t for g in groups if g.kind == BONUS for t in g.tokens), key=sort_key)
    warns = list(warnings) + hand_warnings(groups)
    return Layout(groups, concealed, bonus, hand_notation(groups), warns, list(tiles), **extra)


def merge_concealed(groups: list[Group]) -> list[Group]:
    """All concealed tiles form one group (the engine decomposes it), placed after the sets."""
    conc = [g for g in groups if g.kind == CONCEALED]
    bonus = [g for g in groups if g.kind == BONUS]
    rest = [g for g in groups if g.kind not in (CONCEALED, BONUS)]
    out = rest
    if conc:
        pairs = sorted((i, t) for g in conc for i, t in zip(g.indices, g.tiles)) if all(
            len(g.indices) == len(g.tiles) for g in conc) else None
        idx = tuple(i for i, _ in pairs) if pairs else tuple(i for g in conc for i in g.indices)
        tiles = [t for _, t in pairs] if pairs else [t for g in conc for t in g.tiles]
        reason = conc[0].reason if len(conc) == 1 else "; ".join(dict.fromkeys(g.reason for g in conc))
        out = out + [Group(tiles, CONCEALED, reason, min(g.confidence for g in conc), idx)]
    if bonus:
        idx = tuple(i for g in bonus for i in g.indices)
        out = out + [Group([t for g in bonus for t in g.tiles], BONUS,
                           "flowers/seasons are laid aside and scored apart from the sets",
                           min(g.confidence for g in bonus), idx)]
    return out


def hand_warnings(groups: Sequence[Group]) -> list[str]:
    warns = []
    kongs = sum(1 for g in groups if g.kind in (EXPOSED, CONCEALED_KONG) and len(g.tiles) == 4)
    n = sum(len(g.tiles) for g in groups if g.kind != BONUS)
    if n and n != 14 + kongs:
        warns.append(f"{n} tiles in sets and concealed part; a winning hand has 14 + one per kong "
                     f"({14 + kongs}): a tile may be {'missing' if n < 14 + kongs else 'extra'}")
    for g in groups:
        if g.kind == EXPOSED and set_type(g.tokens) not in ("pung", "kong", "chow"):
            warns.append(f"exposed group {g.notation} is not a pung, chow or kong")
        if g.kind == CONCEALED_KONG and set_type(g.tokens) != "concealed_kong":
            warns.append(f"concealed kong {g.notation} is not four of one kind with face-down tiles")
        if g.kind == CONCEALED and BACK in g.tokens:
            warns.append("a face-down tile (X) lies among the concealed tiles")
    return warns
