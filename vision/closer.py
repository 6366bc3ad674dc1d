"""The closer look at a hand laid far off in a big photo: where to look, how fine, which read stands.

Why (issue 17, session 31): a phone photo is decoded at about 1000 px on its long side
(:mod:`vision.imageio`), which keeps a hand photographed at the table at 40-70 px per tile.
A hand laid far off (a 12 MP photo taken standing, of a table across the room) is 6-15 px
per tile at that size: the detector finds some of them only through its finer pass and
zoomed look (:func:`vision.detector.with_zoom`), and the classifier reads 64 px crops blown up
from a dozen pixels. Yet the photo itself holds four times as many pixels on a side, where
those tiles are 25-60 px, the size both networks know. So when the tiles read are small and
the photo has more pixels than were decoded, the window around the tiles is decoded again
finer (:meth:`vision.imageio.LoadedImage.finer`) and read as a photo of its own; that read
replaces the first read's tiles inside the window when it is surer in sum. Where the window's
read reaches one of its edges, the hand goes on past it (a row longer than the first read
found): the strip beyond that edge is read too, at the same scale (``closer_follow``,
:func:`onward`). Where almost nothing was read at all, the photo is first searched for the
hand, cell by cell, at twice the decoded size (:func:`search_cells`, :func:`best_group`).

Pure geometry and the choice live here; the pass is :func:`vision.recognizer.with_closer`.
"""

from __future__ import annotations

import numpy as np

from .boxes import areas, intersections, unscale
from .zoom import inside, median_side, shifted, zoom_window

__all__ = ["back_in_image", "best_group", "closer_plan", "median_side", "new_tiles", "onward",
           "search_cells", "split_at"]


def closer_plan(boxes, shape, tile_px: float, target_px: float, span: float, max_px: float,
                min_factor: float = 1.5):
    """``(window, factor)`` for the closer look, or None: the window (x0, y0, x1, y1, image
    pixels) around ``boxes`` with ``span`` tile sides of room (:func:`vision.zoom.zoom_window`,
    any share of the image), and the factor that brings their median long side from under
    ``tile_px`` to ``target_px``, lowered so the window comes out at most ``max_px`` on its long
    side. None when the tiles are not small, or the factor would be under ``min_factor`` (a
    window that cannot be made much finer is no closer look)."""
    side = median_side(boxes)
    if side <= 0 or side >= tile_px:
        return None
    window = zoom_window(boxes, shape, span, 1.0)
    if window is None:
        return None
    long_side = max(window[2] - window[0], window[3] - window[1])
    factor = min(target_px / side, max_px / long_side)
    return (window, factor) if factor >= min_factor else None


def back_in_image(box, window, scale_x: float, scale_y: float) -> tuple[float, float, float, float]:
    """A box of the window's finer image in the first image's pixels (``window``: its corner
    (x0, y0, ...) there)."""
    return shifted(unscale(box, scale_x, scale_y), window[0], window[1])


def split_at(windows: list, tiles) -> tuple[list, list]:
    """``tiles`` whose box centre lies inside one of ``windows``, and the rest."""
    within = [t for t in tiles if any(inside(t.box, w) for w in windows)]
    return within, [t for t in tiles if not any(inside(t.box, w) for w in windows)]


def search_cells(shape, cell: int) -> list[tuple[int, int, int, int]]:
    """The image cut into cells of about ``cell`` pixels a side (x0, y0, x1, y1), edge to edge:
    the search for tiles too small for the first look (:func:`vision.recognizer.searched_boxes`)."""
    h, w = shape[:2]
    nx, ny = max(1, round(w / cell)), max(1, round(h / cell))
    xs = np.linspace(0, w, nx + 1).round().astype(int)
    ys = np.linspace(0, h, ny + 1).round().astype(int)
    return [(int(xs[i]), int(ys[j]), int(xs[i + 1]), int(ys[j + 1])) for j in range(ny) for i in range(nx)]


def best_group(found: list[tuple[tuple, list]]) -> list:
    """The boxes of the cell whose detections sum highest and of the cells touching it: where the
    search found the hand (a hand far off spans a cell or two; chance boxes elsewhere stay out)."""
    if not found:
        return []
    sums = [sum(s for _, s in boxes) for _, boxes in found]
    best = found[int(np.argmax(sums))][0]
    if max(sums) <= 0:
        return []

    def touches(c) -> bool:
        return c[0] <= best[2] and best[0] <= c[2] and c[1] <= best[3] and best[1] <= c[3]

    return [b for c, boxes in found if touches(c) for b, _ in boxes]


def onward(window, boxes, shape, side: float) -> list[tuple[int, int, int, int]]:
    """Where the hand goes on past ``window``: for each edge that one of ``boxes`` (the window's
    read) comes within ``side`` of, and that is not the image's own edge, the strip beyond it, half
    the window deep, overlapping the window by ``2 * side`` and as long as the window's edge.
    A row longer than the first read found is followed this way, strip by strip."""
    h, w = shape[:2]
    x0, y0, x1, y1 = window
    dx, dy, o = (x1 - x0) / 2, (y1 - y0) / 2, 2 * side
    b = np.asarray(boxes, float).reshape(-1, 4)
    strips = []
    if x0 > 0 and (b[:, 0] < x0 + side).any():
        strips.append((max(0, x0 - dx), y0, x0 + o, y1))
    if x1 < w and (b[:, 2] > x1 - side).any():
        strips.append((x1 - o, y0, min(w, x1 + dx), y1))
    if y0 > 0 and (b[:, 1] < y0 + side).any():
        strips.append((x0, max(0, y0 - dy), x1, y0 + o))
    if y1 < h and (b[:, 3] > y1 - side).any():
        strips.append((x0, y1 - o, x1, min(h, y1 + dy)))
    return [tuple(int(round(v)) for v in st) for st in strips]


def new_tiles(found: list, more: list, overlap: float = 0.3) -> list:
    """``more`` less the tiles that overlap a tile of ``found`` by more than ``overlap`` of the
    smaller box (the strips overlap the window: a tile read twice, or cut by the window's edge and
    read whole in the strip, is kept once, as the window read it)."""
    if not found or not more:
        return list(more)
    a, b = np.array([t.box for t in more], float), np.array([f.box for f in found], float)
    smaller = np.maximum(np.minimum(areas(a)[:, None], areas(b)[None, :]), 1e-9)
    shared = (intersections(a, b) / smaller).max(axis=1)
    return [t for t, s in zip(more, shared) if s <= overlap]
