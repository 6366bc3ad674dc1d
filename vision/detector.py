"""Class-agnostic tile detection with the CenterNet ONNX model.

The image is letterboxed to ``det_size`` on its long side (padded to a multiple of 32, not
to a square, so a 4:3 photo costs 3/4 of a square one); the model returns a centre heatmap,
log box sizes and sub-cell offsets at stride 4. With ``det_flip`` (the shipped setting) the
mirrored image is run too and its heat map and sizes, mirrored back, are averaged in (CenterNet's
flip test: chinese-v4 valid detection precision 0.980 -> 0.985, synthetic 0.928 -> 0.942, for one
more small pass). Peaks are 3x3 local maxima above the score threshold, followed by a box NMS for
the rare double peak on one tile."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import models
from .boxes import nms, unscale

STRIDE = 4
DET_SIZE = 512                       # input long side, unless recognizer.json sets ``det_size``
NMS_IOU, NMS_CONTAINMENT = 0.6, 0.7  # unless it sets ``nms_iou`` / ``nms_containment``


@dataclass(frozen=True)
class Detection:
    box: tuple[float, float, float, float]   # x1, y1, x2, y2 in input-image pixels
    score: float


def _prepare(rgb: np.ndarray, det_size: int):
    import cv2

    h, w = rgb.shape[:2]
    s = det_size / max(h, w)
    nh, nw = max(1, round(h * s)), max(1, round(w * s))
    ph, pw = -(-nh // 32) * 32, -(-nw // 32) * 32
    canvas = np.full((ph, pw, 3), 114, np.uint8)
    interp = cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR
    canvas[:nh, :nw] = cv2.resize(rgb, (nw, nh), interpolation=interp)
    x = canvas.astype(np.float32) * (2.0 / 255.0) - 1.0
    return np.ascontiguousarray(x.transpose(2, 0, 1)[None]), s


@dataclass
class _Pass:
    """One forward pass of the detector: its input canvas, scale and output maps."""
    x: np.ndarray                 # 1 x 3 x H x W canvas
    scale: float                  # canvas pixels per image pixel
    heat: np.ndarray              # H/4 x W/4 tile-centre probability
    wh: np.ndarray                # 1 x 2 x H/4 x W/4 log sizes
    off: np.ndarray               # 1 x 2 x H/4 x W/4 sub-cell offsets


def _forward(rgb: np.ndarray, det_size: int, model: str = models.DETECTOR) -> _Pass:
    x, s = _prepare(rgb, det_size)
    hm, wh, off = models.session(model).run(None, {"image": x})
    return _Pass(x, s, 1.0 / (1.0 + np.exp(-hm[0, 0])), wh, off)


def _flip_tested(p: _Pass, model: str = models.DETECTOR) -> _Pass:
    """The flip test (as in CenterNet): the mirrored canvas's heat map and sizes, mirrored back
    (the canvas width is a multiple of the stride, so cells line up), averaged in; offsets
    stay those of the unmirrored pass."""
    hm_f, wh_f, _ = models.session(model).run(None, {"image": np.ascontiguousarray(p.x[..., ::-1])})
    heat = (p.heat + 1.0 / (1.0 + np.exp(-hm_f[0, 0, :, ::-1]))) / 2
    return _Pass(p.x, p.scale, heat, (p.wh + wh_f[..., ::-1]) / 2, p.off)


def _decode(p: _Pass, shape, threshold: float, max_tiles: int = 300, below: float = np.inf) -> list[Detection]:
    """Peaks of the heat map (``threshold`` <= score < ``below``) -> boxes in image pixels, best first."""
    import cv2

    heat, wh, off = p.heat, p.wh, p.off
    peaks = (heat == cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat >= threshold) & (heat < below)
    ys, xs = np.nonzero(peaks)
    if ys.size == 0:
        return []
    scores = heat[ys, xs]
    if scores.size > max_tiles:
        top = np.argsort(-scores)[:max_tiles]
        ys, xs, scores = ys[top], xs[top], scores[top]
    cx = (xs + off[0, 0, ys, xs]) * STRIDE
    cy = (ys + off[0, 1, ys, xs]) * STRIDE
    bw = np.exp(wh[0, 0, ys, xs]) * STRIDE
    bh = np.exp(wh[0, 1, ys, xs]) * STRIDE
    boxes = np.stack([cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2], 1) / p.scale
    h, w = shape[:2]
    boxes = np.clip(boxes, 0, [w, h, w, h])
    keep = _suppress(boxes, scores)
    return [Detection(tuple(float(v) for v in boxes[i]), float(scores[i])) for i in keep]


def _suppress(boxes: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """:func:`~mjscore.vision.boxes.nms` with the settings' overlap limits."""
    cfg = models.settings()
    return nms(boxes, scores, cfg.get("nms_iou", NMS_IOU), cfg.get("nms_containment", NMS_CONTAINMENT))


def _threshold() -> float:
    return models.settings().get("det_threshold", 0.3)


def detect(rgb: np.ndarray, det_size: int | None = None, threshold: float | None = None,
           max_tiles: int = 300, flip: bool | None = None) -> list[Detection]:
    """Tiles in an RGB uint8 image, best first. ``flip``: run the flip test (default: the
    ``det_flip`` setting)."""
    return detect_with_weak(rgb, det_size, threshold, max_tiles, flip)[0]


def detect_with_weak(rgb: np.ndarray, det_size: int | None = None, threshold: float | None = None,
                     max_tiles: int = 300, flip: bool | None = None,
                     model: str = models.DETECTOR) -> tuple[list[Detection], list[Detection]]:
    """:func:`detect`, plus the weak peaks under the threshold (``weak_threshold`` in
    recognizer.json; none when it is not set)."""
    cfg = models.settings()
    p = _forward(rgb, det_size or cfg.get("det_size", DET_SIZE), model)
    if cfg.get("det_flip", False) if flip is None else flip:
        p = _flip_tested(p, model)
    threshold = _threshold() if threshold is None else threshold
    return _decode(p, rgb.shape, threshold, max_tiles), _weak(p, rgb.shape, threshold)


def _weak(p: _Pass, shape, threshold: float) -> list[Detection]:
    cfg = models.settings()
    floor = cfg.get("weak_threshold")
    return _decode(p, shape, floor, max_tiles=cfg.get("weak_max", 40), below=threshold) if floor else []


@dataclass(frozen=True)
class AspectView:
    """The image the tiles were found in: the photo itself, or a copy squeezed along one axis
    because the photo had been stretched (``fx``, ``fy`` = view pixels per photo pixel)."""
    rgb: np.ndarray
    fx: float
    fy: float
    detections: list[Detection]           # boxes in view pixels
    weak: tuple = ()                      # peaks from ``weak_threshold`` up to the threshold
                                          # (candidates for vision.row_support), view pixels

    def to_photo(self, box) -> tuple[float, float, float, float]:
        return unscale(box, self.fx, self.fy)


def _evidence(dets: list[Detection]) -> float:
    return float(sum(d.score for d in dets))


def detect_any_aspect(rgb: np.ndarray, squeezes=None, tile_likeness=None, model: str = models.DETECTOR,
                      closeup: bool = True, det_size: int | None = None) -> AspectView:
    """Detect tiles, also in copies of the photo squeezed 2x, 4x, 8x (``aspect_squeezes`` in
    recognizer.json) along either axis, and keep the view with the most tile evidence. Why:
    some photos reach us stretched to a square (dataset exporters, apps that resize without
    keeping the aspect); a tile stretched 8:1 is no tile shape the detector or classifier
    knows, but squeezing the photo back restores it.

    Tile evidence is the sum of detection scores, times the mean likeness of the view's
    ``view_sample`` (8) best detections when ``tile_likeness([(view, dets), ...])`` is given (the
    recognizer passes the classifier's confidence, all views in one batch; sampling caps the
    cost at a few crops per view).
    Why weigh: on a photo stretched 9:1 the plain view also yields a row of confident boxes,
    each straddling parts of several stretched tiles; the classifier cannot read them, while
    it reads the tiles of the right squeezed view at once (chinese-v4 valid detection recall
    0.971 -> 0.979, tile F1 0.940 -> 0.955 by this alone). To save classifier work only
    squeezed views with at least ``view_gate`` (0.7) of the plain view's detection evidence
    are weighed, and a squeezed view must beat the plain one by ``view_margin`` (1.1x): an
    unstretched photo keeps its own view unless a squeeze clearly reads better. The squeezed
    copies are small, so the extra passes cost little.

    After the view is chosen: the finer pass for small tiles (:func:`with_small_tiles`), the
    zoomed look at a few small tiles (:func:`with_zoom`), then the close-up detector
    (:func:`with_closeup`)."""
    import cv2

    cfg = models.settings()
    squeezes = cfg.get("aspect_squeezes", []) if squeezes is None else squeezes
    gate, margin = cfg.get("view_gate", 0.7), cfg.get("view_margin", 1.1)
    sample = cfg.get("view_sample", 8)
    h, w = rgb.shape[:2]
    det_size, threshold = det_size or cfg.get("det_size", DET_SIZE), _threshold()
    # the views are compared on single passes; only the chosen one gets the flip test's
    # mirrored pass (when ``det_flip`` is set), its own pass is kept for it
    passes = {}

    def view_of(image: np.ndarray, fx: float, fy: float) -> AspectView:
        p = _forward(image, det_size, model)
        view = AspectView(image, fx, fy, _decode(p, image.shape, threshold))
        passes[id(view)] = p
        return view

    plain = view_of(rgb, 1.0, 1.0)
    judged, plain_fine = _judged_plain(plain, model, det_size)
    views = []
    for f in squeezes:
        for fx, fy in ((1.0 / f, 1.0), (1.0, 1.0 / f)):
            nw, nh = max(8, round(w * fx)), max(8, round(h * fy))
            views.append(view_of(cv2.resize(rgb, (nw, nh), interpolation=cv2.INTER_AREA), nw / w, nh / h))
    if tile_likeness is None:
        best = max([judged] + views, key=lambda v: _evidence(v.detections))
    else:
        rivals = [v for v in views if v.detections
                  and _evidence(v.detections) >= gate * _evidence(plain.detections)]
        best = judged
        if rivals:
            # detections come best first: each view is judged on its ``sample`` best boxes
            likeness = tile_likeness([(v.rgb, v.detections[:sample]) for v in [judged] + rivals])
            weighed = [_evidence(v.detections) * float(np.mean(k)) if k else 0.0
                       for v, k in zip([judged] + rivals, likeness)]
            best_ev = margin * weighed[0]
            for v, ev in zip(rivals, weighed[1:]):
                if ev > best_ev:
                    best, best_ev = v, ev
    best = plain if best is judged else best
    fine_pass = plain_fine if best is plain else None
    chosen = passes[id(best)]
    if cfg.get("det_flip"):
        chosen = _flip_tested(chosen, model)
        best = AspectView(best.rgb, best.fx, best.fy, _decode(chosen, best.rgb.shape, threshold))
    fine, weak = with_small_tiles(best.rgb, best.detections, _weak(chosen, best.rgb.shape, threshold), model,
                                  det_size, fine_pass=fine_pass)
    fine, weak = with_zoom(best.rgb, fine, weak, model, det_size)
    view = AspectView(best.rgb, best.fx, best.fy, fine, tuple(weak))
    if tile_likeness is not None and closeup:
        coarse = cfg.get("closeup_det_size")
        read_coarser = bool(coarse) and coarse < det_size and _few_big_tiles(view, det_size)
        sure = cfg.get("closeup_coarse_unsure")
        if read_coarser and sure is None:          # the first read's close-up step would be thrown away
            return detect_any_aspect(rgb, squeezes, tile_likeness, model, closeup, det_size=int(coarse))
        view = with_closeup(rgb, view, det_size, tile_likeness)
        if read_coarser and not _read_surely(view, tile_likeness, sure, sample):
            return detect_any_aspect(rgb, squeezes, tile_likeness, model, closeup, det_size=int(coarse))
    return view


def _judged_plain(plain: AspectView, model: str, det_size: int) -> tuple[AspectView, tuple | None]:
    """The plain view as the view choice weighs it: a photo at least ``view_plain_fine`` pixels
    on its long side whose first pass found no box at all is weighed by its finer pass's boxes
    (:func:`with_small_tiles`), which it gets anyway once chosen. Returns that view and the finer
    pass (boxes, weak peaks) for reuse, or (plain, None).

    Why (session 30): a photo of tiles too small for the first pass (a hand laid far off in a
    12 MP photo: 3-6 px per tile at the 320 px input) has no plain box, so a squeezed copy with
    one chance box won and the finer pass then ran on the squeezed copy, where the tiles were
    lost for good. The squeezed views exist for pictures an exporter stretched, which come small
    (dataset exports and screenshots of 640 px); there the squeeze can be right while the finer
    look finds a few boxes, so small pictures keep the old choice (DECISION, session 30: measured
    without the size bound, synth_choose 0.8373 -> 0.8454 but leo-riichi-v5 0.9195 -> 0.9140 on
    two stretched screenshots, and the squashed chinese-v4 set 0.8841 -> 0.8827;
    models/README.md, session 30)."""
    cfg = models.settings()
    min_side = cfg.get("view_plain_fine")
    if not min_side or max(plain.rgb.shape[:2]) < min_side or plain.detections \
            or not _wants_finer(plain.detections, plain.rgb.shape, det_size):
        return plain, None
    fine_pass = detect_with_weak(plain.rgb, det_size=cfg["fine_det_size"], model=model)
    fine, _ = with_small_tiles(plain.rgb, plain.detections, (), model, det_size, fine_pass=fine_pass)
    return AspectView(plain.rgb, 1.0, 1.0, fine), fine_pass


def _read_surely(view: AspectView, tile_likeness, sure: float, sample: int) -> bool:
    """Whether the classifier's mean likeness of the view's ``sample`` best boxes is at least
    ``sure`` (never without boxes).

    The coarse read (``closeup_det_size``, off in the shipped settings; DECISION session 14):
    a photo of fewer tiles than a hand whose tiles are big at the input is read again, whole
    view search and close-up detector included, with the main detector at the coarser input,
    where a big tile falls in the scale band it learnt (hand rows, 10-40 px). The close-up
    detector keeps det_size (it learnt big tiles from zoomed views). Measured at 160: close-up
    set v4 crops 0.869 -> 0.911, v4 pasted 0.668 -> 0.758, leo crops 0.777 -> 0.831, leo
    pasted 0.625 -> 0.663, chinese-v4 valid unchanged, but leo-riichi-v5 (whole photos)
    0.836 -> 0.814. Re-read only where the first read is unsure (``closeup_coarse_unsure``):
    0.9 gave leo 0.824, 0.8 leo 0.836 with v4 crops / pasted 0.888 / 0.695. That threshold
    would be chosen on leo, the one set that must stay unseen, so the read stays off."""
    if not view.detections:
        return False
    return float(np.mean(tile_likeness([(view.rgb, view.detections[:sample])])[0])) >= sure


def _few_big_tiles(view: AspectView, det_size: int) -> bool:
    """Whether a view holds fewer tiles than a hand (``closeup_min_tiles``) and they are big at
    the detector's input (median long side >= ``big_tile_px``) or there are none, where a
    close-up detector is configured: the photos read again coarser (``closeup_det_size``)."""
    from .closeup import few_tiles, needs_closeup

    cfg = models.settings()
    if not cfg.get("closeup_detector") or not few_tiles(len(view.detections)):
        return False
    # min_tiles=0: needs_closeup then answers only whether the tiles are big
    return not view.detections or needs_closeup([d.box for d in view.detections], view.rgb.shape, det_size,
                                                min_tiles=0)


def with_closeup(rgb: np.ndarray, view: AspectView, det_size: int, tile_likeness) -> AspectView:
    """The close-up detector's view of the photo instead of ``view`` when the main detector's
    tiles say the photo may be a close-up (:func:`vision.closeup.needs_closeup`) and the
    close-up detector's tiles read better: its summed detection score times the classifier's
    mean confidence on its ``view_sample`` best boxes beats the main view's by
    ``closeup_margin`` (1.0), the same weighing as the squeezed views; with ``closeup_weigh``
    "likeness" the classifier's mean confidence alone. Why: a summed score favours the view
    with more boxes, and a tile cut into six strips has more boxes than the whole tile. The close-up detector
    (``closeup_detector`` in recognizer.json) searches the photo itself with the whole view
    search (squeezed views, flip test, finer pass; one plain pass measured worse): a lone
    tile's pieces had often made a squeezed view of the main detector win, in which
    the tile is no tile shape any more."""
    from .closeup import needs_closeup

    cfg = models.settings()
    name = cfg.get("closeup_detector")
    if not name or not needs_closeup([d.box for d in view.detections], view.rgb.shape, det_size):
        return view
    # the close-up detector learnt big tiles (zoomed views): it reads at det_size even when
    # the main one reads again coarser (closeup_det_size)
    other = detect_any_aspect(rgb, tile_likeness=tile_likeness, model=name, closeup=False)
    chosen = view
    if other.detections:
        sample = cfg.get("view_sample", 8)
        ours, theirs = tile_likeness([(view.rgb, view.detections[:sample]), (other.rgb, other.detections[:sample])])
        mine, close = float(np.mean(ours)) if ours else 0.0, float(np.mean(theirs))
        if cfg.get("closeup_weigh") != "likeness":
            mine, close = _evidence(view.detections) * mine, _evidence(other.detections) * close
        if close > cfg.get("closeup_margin", 1.0) * mine:
            chosen = other
        elif cfg.get("closeup_merge"):
            chosen = _pieces_made_whole(view, other, tile_likeness)
    chosen = _pieces_joined(rgb, chosen, tile_likeness) if cfg.get("closeup_join") else chosen
    from .closeup import few_tiles

    few = few_tiles(len(chosen.detections))        # not a hand photo with big tiles
    return _outlines_made_whole(rgb, chosen, tile_likeness) if cfg.get("closeup_outlines") and few else chosen


def _outlines_made_whole(rgb: np.ndarray, view: AspectView, tile_likeness) -> AspectView:
    """``view`` with the pieces of a tile whose outline the photo shows replaced by that outline
    (:func:`vision.blobs.tile_outlines`). An outline clear of the frame's edge (``closeup_join
    _edge``: at the edge it is tiles the frame cuts) that holds pieces (:func:`vision.closeup
    .piece_candidates`) is first tried as a pair: when its two halves both read surely
    (:func:`vision.closeup.split_wins` against the outline and its pieces, less a piece that is
    a whole tile of the pair, :func:`_half_tile`, which reads surely too) they replace the
    pieces, two tiles side by side having a tile-shaped outline too. Else the outline replaces
    them by the rule of :func:`vision.closeup.whole_tiles` when it also reads at least
    ``closeup_join_min_read``,
    unless two of its pieces are sure whole tiles or one is a sure tile filling one half of it
    (:func:`_half_tile`). An outline over no found tile is left alone: such outlines added false
    tiles (cards, patterned cloth) for little gain (models/README.md, session 25). Returned in
    photo pixels when anything changed. The recognizer asks only where fewer than
    ``closeup_min_tiles`` were found: on hand photos with big tiles, outlines of tiles side by
    side cost right tiles (chinese-v4 valid, session 25)."""
    from .blobs import tile_outlines
    from .closeup import (JOIN_MIN_READ, PIECE_AREA, SURENESS, TILE_SHAPE, halves, off_edge, piece_candidates,
                          split_wins, two_whole, whole_tiles)

    cfg = models.settings()
    h, w = rgb.shape[:2]
    outlines = tile_outlines(rgb)
    edge = cfg.get("closeup_join_edge")
    if edge is not None:
        outlines = [outlines[j] for j in off_edge(outlines, (w, h), edge)]
    if not outlines:
        return view
    boxes = [unscale(d.box, view.fx, view.fy) for d in view.detections]
    candidates = piece_candidates(boxes, outlines, cfg.get("closeup_piece_area", PIECE_AREA))
    need_mine = sorted({i for group in candidates.values() for i in group})
    need_whole = sorted(candidates)
    if not need_whole:
        return view
    pairs = {j: halves(outlines[j]) for j in need_whole}
    got_mine, got_whole, got_halves = tile_likeness([
        (view.rgb, [view.detections[i] for i in need_mine]),
        (rgb, [Detection(outlines[j], 0.0) for j in need_whole]),
        (rgb, [Detection(b, 0.0) for j in need_whole for b in pairs[j]])])
    mine_sure, whole_sure = dict(zip(need_mine, got_mine)), dict(zip(need_whole, got_whole))
    halves_sure = {j: got_halves[2 * n:2 * n + 2] for n, j in enumerate(need_whole)}
    min_read = cfg.get("closeup_join_min_read", JOIN_MIN_READ)
    # the outline's pieces that are a pair's whole tile, filling one half of it
    pair_tiles = {j: {i for i in g if _half_tile(boxes[i], outlines[j], mine_sure[i], min_read)}
                  for j, g in candidates.items()}

    def rival(j) -> float:          # what a pair's halves must beat: the outline, its pieces less a pair's tile
        return max([whole_sure[j]] + [mine_sure[i] for i in candidates[j] if i not in pair_tiles[j]])

    def sure_tiles(j) -> bool:      # two of the outline's pieces are sure whole tiles: nothing to make whole
        return two_whole(boxes, candidates[j], [mine_sure[i] for i in candidates[j]], TILE_SHAPE)

    split = {j for j in need_whole if split_wins(halves_sure[j], rival(j), min_read) and not sure_tiles(j)}

    def score(pieces) -> float:             # a new box carries its pieces' best detection score
        return max(view.detections[i].score for i in pieces)

    taken, added = set(), []
    for j in sorted(split, key=lambda j: -min(halves_sure[j])):
        if taken.isdisjoint(candidates[j]):
            taken.update(candidates[j])
            added += [Detection(b, score(candidates[j])) for b in pairs[j]]
    whole = {j: g for j, g in candidates.items()
             if j not in split and whole_sure[j] >= min_read and taken.isdisjoint(g) and not sure_tiles(j)
             and not pair_tiles[j]}
    merges = whole_tiles(whole, mine_sure, whole_sure, cfg.get("closeup_sureness", SURENESS))
    taken.update(i for _, pieces in merges for i in pieces)
    added += [Detection(outlines[j], score(pieces)) for j, pieces in merges]
    if not added:
        return view
    dets = [Detection(boxes[i], d.score) for i, d in enumerate(view.detections) if i not in taken] + added
    weak = tuple(Detection(unscale(d.box, view.fx, view.fy), d.score) for d in view.weak)
    return AspectView(rgb, 1.0, 1.0, sorted(dets, key=lambda d: -d.score), weak)


def _half_tile(box, outline, sure: float, min_read: float) -> bool:
    """Whether ``box`` is a whole tile filling one half of ``outline``: tile-shaped, read at
    least ``min_read``, at least 80 % inside one half and covering at least half of it. Then
    the outline is a pair, two tiles side by side, not one tile (whose found face spans both
    halves)."""
    from .boxes import areas, intersections
    from .closeup import TILE_SHAPE, halves, tile_shaped

    if sure < min_read or not tile_shaped(box, TILE_SHAPE):
        return False
    b, hs = np.asarray([box], float), np.asarray(halves(outline), float)
    inter = intersections(b, hs)[0]
    return bool(((inter >= 0.8 * areas(b)[0]) & (inter >= 0.5 * areas(hs))).any())


def _pieces_made_whole(view: AspectView, other: AspectView, tile_likeness) -> AspectView:
    """``view`` (the main detector's, kept by the weighing) with the tiles it cut into pieces
    replaced by the close-up view's whole boxes (:func:`vision.closeup.whole_tiles`), compared
    in photo pixels whatever each view's squeeze. Only the boxes the geometry pairs are read
    (one batch). When the views are in different frames the close-up view is taken whole if
    its tiles replace at least half of the main view's evidence."""
    from .closeup import PIECE_AREA, SURENESS, piece_candidates, whole_tiles

    cfg = models.settings()
    mine = [unscale(d.box, view.fx, view.fy) for d in view.detections]
    wholes = [unscale(d.box, other.fx, other.fy) for d in other.detections]
    candidates = piece_candidates(mine, wholes, cfg.get("closeup_piece_area", PIECE_AREA))
    if not candidates:
        return view
    need_mine = sorted({i for group in candidates.values() for i in group})
    need_whole = sorted(candidates)
    got_mine, got_whole = tile_likeness([(view.rgb, [view.detections[i] for i in need_mine]),
                                         (other.rgb, [other.detections[j] for j in need_whole])])
    merges = whole_tiles(candidates, dict(zip(need_mine, got_mine)), dict(zip(need_whole, got_whole)),
                         cfg.get("closeup_sureness", SURENESS))
    if not merges:
        return view
    taken = {i for _, pieces in merges for i in pieces}
    if (view.fx, view.fy) == (other.fx, other.fy):
        merged = [d for i, d in enumerate(view.detections) if i not in taken] + [other.detections[j] for j, _ in merges]
        return AspectView(view.rgb, view.fx, view.fy, sorted(merged, key=lambda d: -d.score), view.weak)
    pieces = sum(view.detections[i].score for i in taken)
    return other if pieces >= 0.5 * _evidence(view.detections) else view


def _pieces_joined(rgb: np.ndarray, view: AspectView, tile_likeness) -> AspectView:
    """``view`` with each lone tile that both detectors found only in pieces made one box:
    pieces that cluster into a tile-shaped union (:func:`vision.closeup.piece_clusters`) are
    replaced by that union (or the union grown a little, whichever reads surer) when it reads
    at least ``closeup_join_sureness`` as surely as the surest piece and at least
    ``closeup_join_min_read``, unless two pieces are sure whole tiles
    (:func:`vision.closeup.join_choice`). Why: a tile alone or big in the frame often comes
    back as strips or corners, and where the close-up detector has no whole box either,
    nothing else makes it whole. The union is read in the photo itself (a
    tile is tile-shaped there), so a view with a join is returned in photo pixels.

    With ``closeup_join_narrow`` a union narrower than a tile counts too, widened to a face
    (:func:`vision.closeup.completed`). With ``closeup_split`` a cluster's union may be a pair
    of tiles whose pieces cluster together: its two halves replace the pieces when both read
    surely and at least as surely as the pieces and the union (:func:`vision.closeup.split_wins`).
    Measured worse and left out (session 16): widening a lone narrow box, and splitting a lone
    tile-shaped box in two (chinese-v4 crops lost what the pasted pairs gained).

    Session 23: with ``closeup_join_edge`` (a share of the long side) boxes at the frame's edge
    are no pieces (:func:`vision.closeup.off_edge`), and with ``closeup_join_tiles`` two sure
    tile-shaped boxes end a join (:func:`vision.closeup.join_choice`): in crops around one tile
    the tile and its neighbours had been joined into one frame-sized box."""
    from .closeup import (JOIN_GAP, JOIN_GROW, JOIN_MIN_READ, SURENESS, TILE_SHAPE, WHOLE_SHAPE, completed, grown,
                          halves, join_choice, off_edge, piece_clusters, split_wins, two_whole, union_box)

    cfg = models.settings()
    h, w = rgb.shape[:2]
    boxes = [unscale(d.box, view.fx, view.fy) for d in view.detections]
    narrow, split = bool(cfg.get("closeup_join_narrow")), bool(cfg.get("closeup_split"))
    clusters = piece_clusters(boxes, cfg.get("closeup_join_gap", JOIN_GAP), narrow)
    edge = cfg.get("closeup_join_edge")
    if edge is not None:            # a cluster holding a tile the frame cuts is tiles, not one tile's pieces
        inner = set(off_edge(boxes, (w, h), edge))
        clusters = [g for g in clusters if inner.issuperset(g)]
    if not clusters:
        return view
    whole_shape = TILE_SHAPE if cfg.get("closeup_join_tiles") else WHOLE_SHAPE
    whole = [completed(union_box([boxes[i] for i in g]), (w, h)) for g in clusters]
    unions = [[grown(u, f, (w, h)) for f in JOIN_GROW] for u in whole]
    pairs = [halves(u) for u in whole] if split else []
    got_pieces, got_unions, got_halves = tile_likeness([
        (view.rgb, [view.detections[i] for g in clusters for i in g]),
        (rgb, [Detection(u, 0.0) for us in unions for u in us]),
        (rgb, [Detection(b, 0.0) for hs in pairs for b in hs])])
    sureness, min_read = cfg.get("closeup_join_sureness", SURENESS), cfg.get("closeup_join_min_read", JOIN_MIN_READ)
    joins, k, m = [], 0, 0
    for n, (g, us) in enumerate(zip(clusters, unions)):
        pieces_read, union_read = got_pieces[k:k + len(g)], got_unions[m:m + len(us)]
        k, m = k + len(g), m + len(us)
        score = max(view.detections[i].score for i in g)
        if split and not two_whole(boxes, g, pieces_read) and split_wins(got_halves[2 * n:2 * n + 2], max(list(pieces_read) + list(union_read)), min_read):
            joins.append((g, [Detection(b, score) for b in pairs[n]]))
            continue
        best = join_choice([boxes[i] for i in g], pieces_read, union_read, sureness, min_read, whole_shape)
        if best is not None:
            joins.append((g, [Detection(us[best], score)]))
    if not joins:
        return view
    taken = {i for g, _ in joins for i in g}
    dets = [Detection(boxes[i], d.score) for i, d in enumerate(view.detections) if i not in taken]
    dets += [d for _, ds in joins for d in ds]
    weak = tuple(Detection(unscale(d.box, view.fx, view.fy), d.score) for d in view.weak)
    return AspectView(rgb, 1.0, 1.0, sorted(dets, key=lambda d: -d.score), weak)


def _long_side(d: Detection) -> float:
    """A detection's long side in its image's pixels."""
    return max(d.box[2] - d.box[0], d.box[3] - d.box[1])


def _wants_finer(dets: list[Detection], shape, det_size: int) -> bool:
    """Whether :func:`with_small_tiles` runs its finer pass: a photo bigger than the input
    whose tiles at ``det_size`` are few (under 3) or small (median long side under 1.1 x
    ``small_tile_px``)."""
    cfg = models.settings()
    h, w = shape[:2]
    if not cfg.get("fine_det_size") or max(h, w) <= det_size:
        return False
    k = det_size / max(h, w)
    return len(dets) < 3 or float(np.median([_long_side(d) * k for d in dets])) < 1.1 * cfg.get("small_tile_px", 26)


def with_small_tiles(rgb: np.ndarray, dets: list[Detection], weak: list[Detection] = (),
                     model: str = models.DETECTOR, det_size: int | None = None,
                     fine_pass: tuple | None = None) -> tuple[list, list]:
    """Second, finer pass for photos of small tiles. At ``det_size`` a tile under
    ``small_tile_px`` (26) pixels is often lost, while at a finer input the detector finds it
    but also sees more clutter. So when the tiles found are small (median under
    1.1 x ``small_tile_px``, or fewer than 3 found), the photo is detected again at
    ``fine_det_size`` (544) and the small boxes come from that pass, the big ones from the
    first (scale-aware merging, as in SNIP); photos of normal-sized tiles cost nothing extra.
    Returns the detections and the weak peaks (``weak``, or the finer pass's when it ran).
    ``fine_pass``: the finer pass's (boxes, weak peaks) when already run on this image."""
    cfg = models.settings()
    fine_size, small = cfg.get("fine_det_size"), cfg.get("small_tile_px", 26)
    h, w = rgb.shape[:2]
    det_size = det_size or cfg.get("det_size", DET_SIZE)
    if not _wants_finer(dets, rgb.shape, det_size):
        return dets, list(weak)
    k = det_size / max(h, w)
    long_side = lambda d: _long_side(d) * k   # noqa: E731
    fine, fine_weak = fine_pass or detect_with_weak(rgb, det_size=fine_size, model=model)
    merged = [d for d in dets if long_side(d) >= 0.8 * small]
    merged += [d for d in fine if long_side(d) < small]
    if not merged:
        return dets, list(weak)
    boxes = np.array([d.box for d in merged]); scores = np.array([d.score for d in merged])
    keep = _suppress(boxes, scores)
    return [merged[i] for i in keep], fine_weak


def with_zoom(rgb: np.ndarray, dets: list[Detection], weak: list[Detection], model: str = models.DETECTOR,
              det_size: int | None = None) -> tuple[list, list]:
    """A few small tiles looked at again up close (:mod:`vision.zoom`): when fewer than
    ``zoom_max_tiles`` were found and their median long side at the detector's input is under
    ``zoom_tile_px``, the window of ``zoom_span`` tile sides around them is detected again at
    ``det_size``, and its boxes replace the first ones inside it. Off unless ``zoom_span`` is set."""
    from .zoom import joined, shifted, zoom_window, inside

    cfg = models.settings()
    span = cfg.get("zoom_span")
    if not span or not dets or len(dets) >= cfg.get("zoom_max_tiles", 10):
        return dets, weak
    h, w = rgb.shape[:2]
    det_size = det_size or cfg.get("det_size", DET_SIZE)
    if float(np.median([_long_side(d) for d in dets])) * det_size / max(h, w) >= cfg.get("zoom_tile_px", 20):
        return dets, weak
    window = zoom_window([d.box for d in dets], rgb.shape, span, cfg.get("zoom_max_share", 0.5))
    if window is None:
        return dets, weak
    x0, y0, x1, y1 = window
    near, near_weak = detect_with_weak(np.ascontiguousarray(rgb[y0:y1, x0:x1]), det_size=det_size, model=model)
    near = [Detection(shifted(d.box, x0, y0), d.score) for d in near]
    near_weak = [Detection(shifted(d.box, x0, y0), d.score) for d in near_weak]
    kept_weak = (near_weak + [d for d in weak if not inside(d.box, window)]) if near else weak
    return joined(dets, near, window), kept_weak
