"""Small edits of a layout that keep its grouping: one tile read as another kind, one tile
left out, one tile added (review fixes, alternatives)."""

from __future__ import annotations

from dataclasses import replace

from ...scoring.tiles import BONUS as BONUS_TILES
from .model import Layout, layout_from_groups
from .notation import BONUS, CONCEALED

MOVED_ASIDE = "read as a flower or season: laid aside with the bonus tiles"
MOVED_IN = "laid aside but read as a suit or honour tile: one of the concealed tiles"


def with_kind(layout: Layout, tile_index: int, kind: str) -> Layout:
    """The same grouping with one tile read as another kind (review fixes, alternatives).
    A tile laid aside with the flowers and seasons that is now a suit or honour tile joins the
    concealed part, and a concealed tile now read as a flower or season is laid aside: the
    bonus group holds only bonus tiles, so the hand the engine scores is the one its notation
    shows (DECISION, session 37: before, ``--fix 3=2m`` on a tile laid aside, and the hand
    search's proposals, kept a ``2m`` among the bonus tiles, scored as if it were a flower,
    with a notation the parser refuses). A tile of an exposed set or kong stays in its set:
    the engine then says that flowers and seasons are never part of a group."""
    tiles = list(layout.tiles)
    was_bonus = tiles[tile_index].kind in BONUS_TILES
    tiles[tile_index] = replace(tiles[tile_index], kind=kind, confidence=1.0, alternatives=())
    spec = [(g.kind, list(g.indices)) for g in layout.groups]
    reasons = [(g.reason, g.confidence) for g in layout.groups]
    if was_bonus != (kind in BONUS_TILES):
        for group_kind, indices in list(spec):
            if tile_index in indices and group_kind in (BONUS, CONCEALED):
                indices.remove(tile_index)
                spec.append((CONCEALED if group_kind == BONUS else BONUS, [tile_index]))
                reasons.append((MOVED_IN if group_kind == BONUS else MOVED_ASIDE, 1.0))
                break
    return layout_from_groups(tiles, spec, reasons, rows=layout.rows, direction_deg=layout.direction_deg)


def without_tile(layout: Layout, tile_index: int) -> Layout:
    """The same grouping with one tile left out (a false detection)."""
    tiles = [t for i, t in enumerate(layout.tiles) if i != tile_index]
    shift = {i: i - (i > tile_index) for i in range(len(layout.tiles)) if i != tile_index}
    spec = [(g.kind, [shift[i] for i in g.indices if i != tile_index]) for g in layout.groups]
    reasons = [(g.reason, g.confidence) for g in layout.groups]
    return layout_from_groups(tiles, spec, reasons, rows=layout.rows, direction_deg=layout.direction_deg)


def with_tile_added(layout: Layout, group_index: int, kind: str, group_kind: str | None = None) -> Layout:
    """The same grouping with one tile more in group ``group_index`` (a tile the photo shows but
    the detector missed), optionally as another kind of group (three tiles of a face-down kong
    read as an exposed set become a concealed kong). The added tile has no box of its own: it
    takes the box of its group's last tile, with confidence 0 (nothing saw it)."""
    tiles = list(layout.tiles)
    group = layout.groups[group_index]
    tiles.append(replace(group.tiles[-1], kind=kind, confidence=0.0, alternatives=()))
    spec = [(g.kind, list(g.indices)) for g in layout.groups]
    spec[group_index] = (group_kind or group.kind, list(group.indices) + [len(tiles) - 1])
    reasons = [(g.reason, g.confidence) for g in layout.groups]
    return layout_from_groups(tiles, spec, reasons, rows=layout.rows, direction_deg=layout.direction_deg)
