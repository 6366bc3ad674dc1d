"""When a photo is a close-up: a tile by itself, a few tiles, a tile filling the frame.

Why: the main detector learnt tiles as parts of hand rows in the training photos' scale band
(10-40 px at its input). A tile alone or big in the frame comes back cut into pieces (a
3-circle tile as three ``1p``, a character tile as two boxes, one box per row of symbols),
while the classifier reads 0.93 of the same tiles right given the true box. A detector
fine-tuned on lone tiles and close-ups (``closeup_detector`` in recognizer.json, trained on
crops around 1-7 tiles and single tiles and pairs pasted on tables, see models/tile_detector.md)
finds them whole, but loses some of the main one's skill on whole hands of unseen sets. So
the recognizer keeps the main detector for hand photos and asks the close-up one only where
the main one's own tiles say the photo may be a close-up: fewer than ``closeup_min_tiles``
found (10 in recognizer.json; a whole hand is 14 or more), or a median tile of at least
``big_tile_px`` (40) at the detector's input (hand photos have 10-30 px tiles there); its view
is then kept only when it reads better (``vision.detector.with_closeup``). The check costs
nothing; the extra passes run on such photos only.

On such photos the tiles still cut into pieces are made whole in two ways: by a close-up box
that holds the pieces (:func:`piece_candidates`, :func:`whole_tiles`; ``closeup_merge``), and,
where no detector found the tile whole, by the pieces' own union when it is tile-shaped and
reads surer than every piece (:func:`piece_clusters`; ``closeup_join``). A union narrower
than a tile (a tile's left half and a sliver) is first widened about its centre to a face's
shape (:func:`completed`; ``closeup_join_narrow``), and a union that is two tiles side by side
is split into its two halves when both read surer than the pieces and the union
(:func:`halves`, :func:`split_wins`; ``closeup_split``). Which close-up view is kept is decided
by the classifier's mean confidence on each view's best boxes alone (``closeup_weigh``
"likeness"): a tile cut in six strips has more boxes, and so more summed evidence, than the
whole tile. Figures: models/README.md, session 16."""

from __future__ import annotations

import numpy as np

from . import models
from .boxes import areas, intersections

BIG_TILE_PX = 40               # median long side at the detector's input that counts as big
MIN_TILES = 10                 # fewer found than this: maybe a close-up (a whole hand has 14+)


def few_tiles(n: int) -> bool:
    """Fewer tiles than a hand (``closeup_min_tiles`` in recognizer.json): the one bound of every
    close-up step (the close-up detector's gate, outlines, the framed look, more crop contexts,
    where an unsure back is not kept)."""
    return n < models.settings().get("closeup_min_tiles", MIN_TILES)


def needs_closeup(boxes, shape, det_size: int, big_px: float | None = None, min_tiles: int | None = None) -> bool:
    """Whether the main detector's tiles say the photo is a close-up (module doc)."""
    cfg = models.settings()
    big_px = cfg.get("big_tile_px", BIG_TILE_PX) if big_px is None else big_px
    min_tiles = cfg.get("closeup_min_tiles", MIN_TILES) if min_tiles is None else min_tiles
    if len(boxes) < min_tiles:
        return True
    k = det_size / max(shape[:2])
    sides = [max(b[2] - b[0], b[3] - b[1]) * k for b in boxes]
    return float(np.median(sides)) >= big_px


PIECE_INSIDE = 0.8      # share of a piece's area inside the whole tile's box
PIECE_AREA = 0.6        # a piece is at most this share of the whole tile's area
SURENESS = 1.0          # the whole box must read at least this share as surely as the surest piece


def piece_candidates(pieces: list, wholes: list, piece_area: float = PIECE_AREA) -> dict[int, list[int]]:
    """Whole index -> indices of the boxes of ``pieces`` that lie inside it as pieces (each >=
    80 % inside, each <= ``piece_area`` of its area): geometry only, so the classifier need
    read just these boxes (none at all on a photo whose tiles both detectors find whole)."""
    if not len(pieces) or not len(wholes):
        return {}
    p, w = np.asarray(pieces, float), np.asarray(wholes, float)
    inside = intersections(p, w) / np.maximum(areas(p), 1e-9)[:, None]
    ok = (inside >= PIECE_INSIDE) & (areas(p)[:, None] <= piece_area * areas(w)[None, :])
    return {j: np.flatnonzero(ok[:, j]).tolist() for j in range(len(w)) if ok[:, j].any()}


def whole_tiles(candidates: dict[int, list[int]], pieces_sure, wholes_sure, sureness: float = SURENESS):
    """Which pieces (:func:`piece_candidates`) are pieces of one tile found whole: a list of
    (whole index, [piece indices]).

    Why: the main detector cuts a lone or big tile into pieces (a 3-circle tile as three
    ``1p``, a character tile as two boxes), and in a squeezed view the pieces even look
    tile-shaped. A whole box replaces its pieces when there are at least two of them, or one
    that reads less surely, and it reads at least ``sureness`` as surely as the surest piece
    (``*_sure``: the classifier's top probability, indexed like the boxes, needed only for the
    candidates). Each piece goes to one whole tile, the surest whole first."""
    taken: set[int] = set()
    out = []
    for j in sorted(candidates, key=lambda j: -wholes_sure[j]):
        inside = [i for i in candidates[j] if i not in taken]
        if not inside:
            continue
        surest = max(pieces_sure[i] for i in inside)
        if wholes_sure[j] >= sureness * surest and (len(inside) >= 2 or wholes_sure[j] > surest):
            taken.update(inside)
            out.append((j, inside))
    return out


JOIN_GAP = 1.0          # boxes closer than this many short sides (of the smaller) are one cluster
JOIN_MAX_PIECES = 12    # more boxes than this in a cluster are tiles (a heap, a grid), not one tile's pieces
JOIN_GROW = (1.0, 1.15)  # the union box, and the union grown by 15 % (pieces often stop short of the edges)
TILE_SHAPE = (0.5, 0.95)  # short / long side of a tile face, upright or sideways, with some perspective
WHOLE_SHAPE = (0.65, 0.9)  # ... of a box that is most likely a whole tile (a 3:4 face, little perspective)
JOIN_MIN_READ = 0.8     # the union must read at least this surely, whatever its pieces read
FACE_SHAPE = 0.72       # short / long side a narrow union is completed to (a 3:4 face, a little perspective)
NARROWEST = 0.2         # a narrower union is a line of tiles or a stray edge, not one tile's pieces


def _gap(a, b) -> float:
    return max(a[0] - b[2], b[0] - a[2], a[1] - b[3], b[1] - a[3], 0.0)


def piece_clusters(boxes: list, gap: float = JOIN_GAP, narrow: bool = False) -> list[list[int]]:
    """Groups of two to ``JOIN_MAX_PIECES`` boxes that lie within ``gap`` short sides of each
    other (single linkage), whose union is tile-shaped: a lone tile the detectors found only in
    pieces. A row of tiles is one long cluster and never tile-shaped, so hand photos yield none;
    a heap of 25 tiles may be tile-shaped but has too many boxes (and costs no classifier read).
    With ``narrow`` a union narrower than a tile (down to ``NARROWEST``) counts too: the pieces
    of a big tile often cover only its middle column of symbols (:func:`completed` widens it)."""
    n = len(boxes)
    parent = list(range(n))

    def root(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    short = [min(b[2] - b[0], b[3] - b[1]) for b in boxes]
    for i in range(n):
        for j in range(i + 1, n):
            if _gap(boxes[i], boxes[j]) <= gap * min(short[i], short[j]):
                parent[root(i)] = root(j)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(root(i), []).append(i)
    shape = (NARROWEST, TILE_SHAPE[1]) if narrow else TILE_SHAPE
    return [g for g in groups.values()
            if 2 <= len(g) <= JOIN_MAX_PIECES and tile_shaped(union_box([boxes[i] for i in g]), shape)]


def union_box(boxes) -> tuple[float, float, float, float]:
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def tile_shaped(box, shape: tuple[float, float] = TILE_SHAPE) -> bool:
    w, h = box[2] - box[0], box[3] - box[1]
    return w > 0 and h > 0 and shape[0] <= min(w, h) / max(w, h) <= shape[1]


def completed(box, limit: tuple[int, int], shape: float = FACE_SHAPE) -> tuple[float, float, float, float]:
    """``box`` widened about its centre, along its short side, to a tile face's ``shape`` when
    it is narrower than a tile (else ``box`` itself), kept inside a ``limit`` = (width, height)
    image. Why: the pieces of a 9-circle or a bamboo tile big in the frame are often strips of
    its middle column only; the whole tile has their length and a face's width."""
    w, h = box[2] - box[0], box[3] - box[1]
    if w <= 0 or h <= 0 or min(w, h) / max(w, h) >= TILE_SHAPE[0]:
        return tuple(float(v) for v in box)
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    half = shape * max(w, h) / 2
    if w < h:
        return (max(0.0, cx - half), float(box[1]), min(float(limit[0]), cx + half), float(box[3]))
    return (float(box[0]), max(0.0, cy - half), float(box[2]), min(float(limit[1]), cy + half))


def halves(box) -> list[tuple[float, float, float, float]]:
    """``box`` cut in two across its long side: the two tiles of a pair the detectors found as
    one box, or as pieces whose union holds both."""
    x0, y0, x1, y1 = (float(v) for v in box)
    if x1 - x0 >= y1 - y0:
        m = (x0 + x1) / 2
        return [(x0, y0, m, y1), (m, y0, x1, y1)]
    m = (y0 + y1) / 2
    return [(x0, y0, x1, m), (x0, m, x1, y1)]


def split_wins(halves_read: list[float], rival: float, min_read: float = JOIN_MIN_READ) -> bool:
    """Whether the two halves of a box (:func:`halves`) are two tiles: each reads at least
    ``min_read`` and at least as surely as the ``rival`` reading (the whole box, or the pieces
    and their union). A lone tile's halves are half a face each and read unsure; the halves of
    a pair are whole faces and read as surely as any tile."""
    return len(halves_read) == 2 and min(halves_read) >= max(rival, min_read)


def grown(box, factor: float, limit: tuple[int, int]) -> tuple[float, float, float, float]:
    """``box`` scaled by ``factor`` about its centre, kept inside a ``limit`` = (width, height) image."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    hw, hh = (box[2] - box[0]) * factor / 2, (box[3] - box[1]) * factor / 2
    return (max(0.0, cx - hw), max(0.0, cy - hh), min(float(limit[0]), cx + hw), min(float(limit[1]), cy + hh))


def two_whole(boxes, group, group_sure, shape: tuple[float, float] = WHOLE_SHAPE) -> bool:
    """Whether at least two boxes of ``group`` (indices into ``boxes``; ``group_sure`` their
    reads, in group order) are sure (>= 0.9) boxes of a whole tile's ``shape``: tiles found
    whole, which neither a join nor a split may replace."""
    return sum(1 for i, p in zip(group, group_sure) if p >= 0.9 and tile_shaped(boxes[i], shape)) >= 2


def off_edge(boxes, limit: tuple[int, int], margin: float) -> list[int]:
    """Indices of the boxes that keep at least ``margin`` (a share of the photo's long side)
    from every edge of a ``limit`` = (width, height) photo. Why (DECISION, session 23): a box
    at the frame's edge is a tile the frame cuts, a neighbour of the close-up's tiles, never a
    piece of a lone tile; in crops around one tile, the tile and its cut neighbours clustered
    into one frame-sized union that read as surely as the tile. A cluster holding such a box is
    not joined at all (dropping the box and clustering the rest made stripes of a stretched
    photo one tile; models/README.md session 23)."""
    m = margin * max(limit)
    w, h = limit
    return [i for i, b in enumerate(boxes) if b[0] > m and b[1] > m and b[2] < w - m and b[3] < h - m]


def join_choice(pieces: list, pieces_sure: list[float], union_reads: list[float],
                sureness: float = SURENESS, min_read: float = JOIN_MIN_READ,
                whole_shape: tuple[float, float] = WHOLE_SHAPE) -> int | None:
    """Which union candidate (index into ``union_reads``) replaces a cluster's ``pieces``, or
    None. The surest candidate wins if it reads at least ``sureness`` as surely as the surest
    piece and at least ``min_read``; never when two pieces are themselves sure (>= 0.9) boxes
    of a whole tile's shape (``whole_shape``): those are two tiles side by side (a pair, two
    stacked backs), whose union a classifier may still read surely. The recognizer passes
    ``TILE_SHAPE`` with ``closeup_join_tiles`` (session 23): a tile seen a little from above
    or at a slant has a box outside ``WHOLE_SHAPE`` and is still a tile, not a piece."""
    if two_whole(pieces, range(len(pieces)), pieces_sure, whole_shape) or not union_reads:
        return None
    best = int(np.argmax(union_reads))
    ok = union_reads[best] >= max(sureness * max(pieces_sure), min_read)
    return best if ok else None
