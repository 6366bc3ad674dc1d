"""Weak detections that a row of found tiles vouches for.

Why: the detector under-fires on tiles with no face to see (the face-down ends of a declared
concealed kong, a blank white dragon): on synthetic hands their heat peaks at 0.2-0.45 with the
right box size, under the 0.5 threshold, while lowering the threshold for all peaks lets clutter
in. A tile of a laid-out hand, though, rarely lies alone: it continues a row. A weak peak is
kept when (1) it sits where the next tile of a row of found tiles would be (one pitch on from
a found tile, along the line to that tile's nearest neighbour), (2) its box has that tile's
size, and (3) the classifier reads it as a faceless kind (``X`` or ``Wh``) with at least
``weak_min_probability``. Kept peaks can vouch for the next ones (a run of backs).

Session 15: a weak peak in line that reads as *any* kind with at least ``weak_face_probability``
(recognizer.json; off without it) is kept too. On a set the detector never saw most missed
tiles are face-up tiles with a weak peak in a row of found ones; a crop the classifier reads
surely, tile-sized and one pitch on, is a tile. 0.8 was chosen on chinese-v4 valid, the
synthetic choice batch and the hands of seed 2 (0.6 / 0.8 / 0.9 gave tile F1 0.9675 / 0.9677 /
0.9676 on v4 valid, all +0.001 on synth_choose, 61 hands each); models/README.md has the rest.
Also session 15: a weak peak anywhere in the photo, of the photo's tile size, read as a face
kind with at least ``weak_sure_probability`` is kept (faceless kinds stay row-only: a plain
patch of table reads ``Wh``/``X``). Chosen 0.9 over 0.95 on v4 valid and synth_choose.
Session 20: backs that vouch for each other. The backs of a standing rack, or a loose row of
face-down tiles with no face-up tile beside it, give the detector only weak peaks (0.1-0.35 on
the synthetic hold-out) and no found tile to continue; yet the classifier reads those weak boxes
as ``X`` at 0.9 and more. A weak box read ``X`` with at least ``weak_back_probability`` is kept
when at least ``weak_back_run`` - 1 other such boxes of its size lie next to it in a chain (one
pitch apart, side by side: :func:`next_to`).
A patch of plain table may read ``X`` alone; a run of tile-sized, tile-pitched ones is a rack.
Pure geometry here; the recognizer supplies the classifier's reads."""

from __future__ import annotations

import numpy as np

from ..scoring.tiles import BACK
from .boxes import centre, size

# kinds whose faces give the detector little to fire on
FACELESS = (BACK, "Wh")


def _overlaps(box, tiles: list) -> bool:
    """The centre of ``box`` lies inside one of ``tiles`` (the same tile found twice)."""
    c = np.array(centre(box))
    return any(t[0] <= c[0] <= t[2] and t[1] <= c[1] <= t[3] for t in tiles)


def _inside(box, frame: tuple[int, int], margin: float = 1.0) -> bool:
    """``box`` keeps clear of the edges of a ``frame`` (width, height)."""
    return box[0] > margin and box[1] > margin and box[2] < frame[0] - margin and box[3] < frame[1] - margin


def _same_size(s, ref, tolerance: float) -> bool:
    """Width and height of ``s`` each within ``tolerance`` (a share) of ``ref``'s."""
    ratio = np.maximum(np.asarray(s, float), 1e-6) / np.maximum(np.asarray(ref, float), 1e-6)
    return bool(np.all(np.abs(np.log(ratio)) <= np.log1p(tolerance)))


def continues_a_row(box, tiles: list, pitch_tolerance: float = 0.25, size_tolerance: float = 0.3) -> bool:
    """True when ``box`` is where a row of ``tiles`` (boxes) goes on: one pitch on from a tile,
    away from that tile's nearest neighbour and in line with the two, and of that tile's size."""
    if len(tiles) < 2 or _overlaps(box, tiles):
        return False
    centres = np.array([centre(t) for t in tiles])
    c, s = np.array(centre(box)), np.array(size(box))
    for i, t in enumerate(tiles):
        if not _same_size(s, size(t), size_tolerance):
            continue
        d = np.linalg.norm(centres - centres[i], axis=1)
        d[i] = np.inf
        j = int(np.argmin(d))
        pitch = centres[i] - centres[j]              # the row's step, pointing away from the neighbour
        step = float(np.linalg.norm(pitch))
        if step > 0 and np.linalg.norm(c - (centres[i] + pitch)) <= pitch_tolerance * step:
            return True
    return False


def of_the_photos_size(box, tiles: list, size_tolerance: float = 0.3) -> bool:
    """True when ``box`` has the size of the photo's tiles (within ``size_tolerance`` of their
    median width and height) and does not lie on one of them; False for fewer than three."""
    if len(tiles) < 3 or _overlaps(box, tiles):
        return False
    return _same_size(size(box), np.median(np.array([size(t) for t in tiles], float), axis=0), size_tolerance)


def next_to(a, b, size_tolerance: float = 0.3) -> bool:
    """``a`` and ``b`` are neighbours in a row: the same size, their centres one pitch apart
    (0.8-1.4 times the distance at which two such boxes touch along the line joining them), and side by side rather than
    corner to corner (they share at least a quarter of their height or width: the squares of
    one colour on a chequered cloth touch only at the corners)."""
    sa, sb = np.array(size(a), float), np.array(size(b), float)
    if not _same_size(sa, sb, size_tolerance):
        return False
    d = np.array(centre(b)) - np.array(centre(a))
    dist = float(np.linalg.norm(d))
    if dist == 0:
        return False
    u = np.maximum(np.abs(d) / dist, 1e-9)
    extent = float(np.min((sa + sb) / 2 / u))       # how far apart two such boxes touch along u
    shared = [min(a[k + 2], b[k + 2]) - max(a[k], b[k]) for k in (0, 1)]     # overlap in x, in y
    side_by_side = shared[1] >= 0.25 * min(sa[1], sb[1]) or shared[0] >= 0.25 * min(sa[0], sb[0])
    return side_by_side and 0.8 * extent <= dist <= 1.4 * extent


def back_runs(boxes: list, min_run: int) -> list[int]:
    """Indices of ``boxes`` in a chain of at least ``min_run`` neighbours (:func:`next_to`)."""
    n = len(boxes)
    group = list(range(n))

    def root(i: int) -> int:
        while group[i] != i:
            group[i] = group[group[i]]
            i = group[i]
        return i
    for i in range(n):
        for j in range(i + 1, n):
            if next_to(boxes[i], boxes[j]):
                group[root(i)] = root(j)
    counts = np.bincount([root(i) for i in range(n)], minlength=n)
    return [i for i in range(n) if counts[root(i)] >= min_run]


def supported_weak(weak_boxes: list, tiles: list, read, min_probability: float,
                   face_probability: float | None = None, sure_probability: float | None = None,
                   back_probability: float | None = None, back_run: int = 3,
                   frame: tuple[int, int] | None = None) -> list[int]:
    """Indices of weak boxes to keep: those that continue a row of ``tiles`` (found boxes) and
    that ``read(boxes) -> [(kind, probability)]`` reads as a faceless kind with at least
    ``min_probability`` (or as any kind with at least ``face_probability``, where given);
    repeated, so a kept box can vouch for the next one (only boxes the geometry allows are read).
    Then, where ``back_probability`` is given, the other weak boxes read ``X`` with at least it
    that form runs of at least ``back_run`` (:func:`back_runs`), none touching the edge of the
    ``frame`` (width, height: a patch cut off by the border is no evidence of a tile), and where ``sure_probability`` is
    given, any other weak box of the photo's tile size (:func:`of_the_photos_size`) read as a face
    kind with at least that."""
    found = list(tiles)
    kept: list[int] = []
    left = list(range(len(weak_boxes)))
    while left:
        near = [i for i in left if continues_a_row(weak_boxes[i], found)]
        if not near:
            break
        reads = read([weak_boxes[i] for i in near])
        new = [i for i, (kind, p) in zip(near, reads)
               if (kind in FACELESS and p >= min_probability)
               or (face_probability is not None and p >= face_probability)]
        left = [i for i in left if i not in near]
        if not new:
            break
        kept += new
        found += [weak_boxes[i] for i in new]
    if back_probability is not None:
        rest = [i for i in range(len(weak_boxes)) if i not in kept and not _overlaps(weak_boxes[i], found)
                and (frame is None or _inside(weak_boxes[i], frame))]
        rest = [rest[k] for k in back_runs([weak_boxes[i] for i in rest], back_run)]   # geometry first: fewer reads
        backs = [i for i, (kind, p) in zip(rest, read([weak_boxes[i] for i in rest]) if rest else [])
                 if kind == BACK and p >= back_probability]
        run = [backs[k] for k in back_runs([weak_boxes[i] for i in backs], back_run)]
        kept += run
        found += [weak_boxes[i] for i in run]
    if sure_probability is not None:
        sized = [i for i in range(len(weak_boxes))
                 if i not in kept and of_the_photos_size(weak_boxes[i], found)]
        if sized:
            reads = read([weak_boxes[i] for i in sized])
            kept += [i for i, (kind, p) in zip(sized, reads) if kind not in FACELESS and p >= sure_probability]
    return sorted(kept)
