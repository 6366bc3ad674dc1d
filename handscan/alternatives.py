"""The closest valid hands to an invalid reading of a photo, each checked by the engine."""

from __future__ import annotations

from dataclasses import dataclass

from .context import ContextError, ScanContext
from .hand import hand_from_layout, score
from ..vision.layout import CONCEALED_KONG, EXPOSED, Layout, alternative_layouts, with_kind, without_tile


@dataclass
class Alternative:
    notation: str
    change: str                  # what differs from the read grouping
    final: int | None

    def to_json(self) -> dict:
        return {"notation": self.notation, "change": self.change, "final": self.final}


def find_alternatives(layout: Layout, ctx: ScanContext, *, limit: int = 3,
                      max_checks: int = 40) -> list[Alternative]:
    """Closest valid hands to an invalid reading: regroupings of the same tiles first
    (:func:`vision.layout.alternative_layouts`), then the runner-up kind of the least
    certain tiles (tiles of a kind read too often first). Every one is checked by the engine."""
    found: list[tuple[int, int, Alternative]] = []
    seen: set[str] = set()
    checks = 0

    def try_layout(lay: Layout, change: str, distance: int) -> None:
        nonlocal checks
        if checks >= max_checks:
            return
        try:
            laid = hand_from_layout(lay, ctx.winning_tile)
        except ContextError:
            return
        if laid.notation in seen:
            return
        seen.add(laid.notation)
        checks += 1
        answer = score(laid.hand, ctx)
        if answer.valid:
            found.append((distance, -(answer.final or 0), Alternative(laid.notation, change, answer.final)))

    for lay, change in alternative_layouts(layout):
        try_layout(lay, change, 1)
    counts: dict[str, int] = {}
    for t in layout.tiles:
        counts[t.kind] = counts.get(t.kind, 0) + 1
    order = sorted(range(len(layout.tiles)),
                   key=lambda i: (counts[layout.tiles[i].kind] <= 4, layout.tiles[i].confidence))
    for i in order[:8]:
        tile = layout.tiles[i]
        for kind, _p in tile.alternatives[:2]:
            if kind == tile.kind:
                continue
            try_layout(with_kind(layout, i, kind), f"tile {i + 1} read as {kind} instead of {tile.kind}", 2)
    kongs = sum(1 for g in layout.groups if g.kind in (EXPOSED, CONCEALED_KONG) and len(g.tiles) == 4)
    playing = [i for i, t in enumerate(layout.tiles) if not t.kind.startswith(("f", "j"))]
    if len(playing) > 14 + kongs:                    # a false detection among the tiles
        suspects = list(layout.isolated) + sorted(playing, key=lambda i: layout.tiles[i].confidence)[:4]
        for i in dict.fromkeys(suspects):
            t = layout.tiles[i]
            try_layout(without_tile(layout, i), f"tile {i + 1} ({t.kind}, {t.confidence:.2f}) is not a tile of the hand", 2)
    found.sort(key=lambda f: (f[0], f[1]))
    return [a for _, _, a in found[:limit]]
