"""Small edits of a layout that keep its grouping: one tile read as another kind, one tile
left out, one tile added (review fixes, alternatives)."""

from __future__ import annotations

from dataclasses import replace

from .model import Layout, layout_from_groups


def with_kind(layout: Layout, tile_index: int, kind: str) -> Layout:
    """The same grouping with one tile read as another kind (review fixes, alternatives)."""
    tiles = list(layout.tiles)
    tiles[tile_index] = replace(tiles[tile_index], kind=kind, confidence=1.0, alternatives=())
    spec = [(g.kind, list(g.indices)) for g in layout.groups]
    reasons = [(g.reason, g.confidence) for g in layout.groups]
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
