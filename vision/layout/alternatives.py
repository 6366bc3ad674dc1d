"""Nearby regroupings of a layout, for when it gives no valid hand (the caller checks them
with the engine)."""

from __future__ import annotations

from .model import Layout, layout_from_groups
from .notation import CONCEALED, EXPOSED, compact, group_notation, set_type
from .search import GAP_RATIO, candidate_layouts


def alternative_layouts(layout: Layout, *, gap_ratio: float = GAP_RATIO, limit: int = 24) -> list[tuple[Layout, str]]:
    """Nearby regroupings to try when the layout gives no valid hand: other role assignments,
    odd-sized exposed groups split into a set plus concealed tiles, an exposed group taken
    back into the concealed part. Structural only; the caller checks them with the engine.
    Returns ``[(layout, description)]``, closest first, without duplicates."""
    tiles = layout.tiles
    spec = [(g.kind, list(g.indices)) for g in layout.groups]
    seen = {layout.notation}
    out: list[tuple[Layout, str, int]] = []

    def add(new_spec, what: str, moved: int) -> None:
        try:
            lay = layout_from_groups(tiles, new_spec, rows=layout.rows, direction_deg=layout.direction_deg)
        except ValueError:
            return
        if lay.notation not in seen:
            seen.add(lay.notation)
            out.append((lay, what, moved))

    conc_i = [i for i, (k, _) in enumerate(spec) if k == CONCEALED]
    for gi, (kind, idx) in enumerate(spec):
        if kind != EXPOSED:
            continue
        toks = [tiles[i].kind for i in idx]
        label = group_notation(EXPOSED, toks)
        # take the whole group back into the concealed part
        new = [s for k, s in enumerate(spec) if k != gi]
        new.append((CONCEALED, list(idx)))
        add(new, f"{label} is concealed, not exposed", len(idx))
        # keep a set at either end, the rest goes to the concealed part
        for size in (3, 4):
            if len(idx) <= size:
                continue
            for part, rest, where in ((idx[:size], idx[size:], "first"), (idx[-size:], idx[:-size], "last")):
                ptoks = [tiles[i].kind for i in part]
                if set_type(ptoks) in ("pung", "kong", "chow"):
                    new = [s for k, s in enumerate(spec) if k != gi]
                    new.insert(gi, (EXPOSED, list(part)))
                    new.append((CONCEALED, list(rest)))
                    add(new, f"{label} split: {group_notation(EXPOSED, ptoks)} exposed, "
                             f"{compact([tiles[i].kind for i in rest])} concealed", len(rest))
        # split a 6-8 tile group into two sets
        for cut in range(3, len(idx) - 2):
            a, b = idx[:cut], idx[cut:]
            ta, tb = [tiles[i].kind for i in a], [tiles[i].kind for i in b]
            if set_type(ta) and set_type(tb):
                new = [s for k, s in enumerate(spec) if k != gi]
                new.insert(gi, (EXPOSED, list(b)))
                new.insert(gi, (EXPOSED, list(a)))
                add(new, f"{label} split into {group_notation(EXPOSED, ta)} {group_notation(EXPOSED, tb)}", 0)
    # a set at the end of the concealed part that was meant to be exposed
    for ci in conc_i:
        idx = spec[ci][1]
        for size in (3, 4):
            for part, rest in ((idx[:size], idx[size:]), (idx[-size:], idx[:-size])):
                ptoks = [tiles[i].kind for i in part]
                if len(idx) > size and set_type(ptoks) in ("pung", "kong", "chow"):
                    new = [s for k, s in enumerate(spec) if k != ci] + [(EXPOSED, list(part)), (CONCEALED, list(rest))]
                    add(new, f"{group_notation(EXPOSED, ptoks)} exposed, not concealed", len(part))
    # other role assignments of the geometric blocks
    if tiles:
        for lay in candidate_layouts(tiles, gap_ratio=gap_ratio, keep=6)[1:]:
            if lay.notation not in seen:
                seen.add(lay.notation)
                moved = _moved(layout, lay)
                out.append((lay, "other grouping: " + lay.notation, moved))
    out.sort(key=lambda x: x[2])
    return [(lay, what) for lay, what, _ in out[:limit]]


def _moved(a: Layout, b: Layout) -> int:
    ga, gb = a.group_of_tile, b.group_of_tile
    kinds_a = {i: a.groups[g].kind for i, g in ga.items()}
    kinds_b = {i: b.groups[g].kind for i, g in gb.items()}
    return sum(1 for i in kinds_a if kinds_b.get(i) != kinds_a[i])
