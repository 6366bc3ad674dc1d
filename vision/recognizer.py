"""Photo -> tiles: detect every tile, classify each crop, report kind, confidence, angle."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from . import models
from .boxes import rescale
from .closeup import few_tiles
from .errors import ImageError
from .reading import tiles_from_reads
from ..scoring.tiles import BACK
from .types import PhotoRead, TileRead
from .zoom import median_side


def detect_and_classify(rgb: np.ndarray, timing: dict | None = None, embed: bool = False):
    """The raw reading of a photo: the view the tiles were found in (its detections, with
    uncalibrated scores) and the classifier's read of each. The recognizer builds its tiles
    from these; the calibration fit (vision.training.fit_calibration) needs them as they are.
    With ``embed`` each read keeps its embeddings (what a taught set reads, vision.teach)."""
    from .classifier import classify_boxes, closeup_contexts, read_confidence
    from .detector import detect_any_aspect

    t0 = time.perf_counter()
    view = detect_any_aspect(rgb, tile_likeness=read_confidence)
    t1 = time.perf_counter()
    # read the tiles where they were found: in a squeezed view a stretched tile is tile-shaped again
    contexts = closeup_contexts(len(view.detections))
    reads = classify_boxes(view.rgb, [d.box for d in view.detections], embed=embed, contexts=contexts)
    if not contexts:
        reads = with_unsure_reread(view, reads)
    view, reads = with_row_supported(view, reads, embed)
    if timing is not None:
        timing["detect"] = (t1 - t0) * 1000
        timing["classify"] = (time.perf_counter() - t1) * 1000
    return view, reads


def with_unsure_reread(view, reads: list) -> list:
    """``reads`` with each one whose top probability is under ``cls_unsure_below``
    (recognizer.json; off without it) read again at the extra crop contexts
    ``cls_unsure_contexts`` and averaged in, as every tile of a close-up is
    (:func:`vision.classifier.with_contexts`; ``cls_unsure_turns`` quarter turns each, default
    ``cls_turns``).

    DECISION (session 29): in a hand photo only the tiles the classifier is unsure of are read
    at the two more contexts (a tight crop and one with more table around it); a sure read
    stays as it is, so the cost is a few crops per unsure tile (8 at 0.6 ms on 2 cores), not
    three times every read. The contexts and gate are the close-up's, not searched: 0.9 and
    "every tile" read the same; one context alone, or the two at 2 turns, kept little of the
    gain. Measured (models/README.md "Experiment log: session 29"): synth_choose 0.8262 ->
    0.8363 (flowers/seasons 0.880 -> 0.891, wrong tiles shown >= 0.6 0.33 -> 0.29), chinese-v4
    valid 0.9794 -> 0.9799, exact hands of seed 2 58 -> 62; leo-riichi-v5 0.9144 -> 0.9195."""
    from .classifier import with_contexts

    cfg = models.settings()
    extra, below = cfg.get("cls_unsure_contexts"), cfg.get("cls_unsure_below")
    if not extra or not below:
        return reads
    idx = [i for i, r in enumerate(reads) if r.probs.max() < below]
    if not idx:
        return reads
    again = with_contexts(view.rgb, [view.detections[i].box for i in idx], [reads[i] for i in idx],
                          tuple(extra), cfg.get("cls_unsure_turns"))
    out = list(reads)
    for i, r in zip(idx, again):
        out[i] = r
    return out


def with_row_supported(view, reads: list, embed: bool = False):
    """The view and reads with the weak peaks added that continue a row of found tiles and
    read as faceless tiles (``weak_min_probability`` in recognizer.json; see vision.row_support
    for why). Each weak box is read once; the reads of those kept are reused."""
    from .classifier import classify_boxes, ranked
    from .detector import AspectView
    from .row_support import supported_weak

    min_p = models.settings().get("weak_min_probability")
    if not view.weak or not min_p:
        return view, reads
    weak_boxes = [d.box for d in view.weak]
    weak_reads = {}

    def read(boxes):
        new = [box for box in boxes if box not in weak_reads]     # a box is read once
        for box, r in zip(new, classify_boxes(view.rgb, new, embed=embed)):
            weak_reads[box] = r
        return [ranked(weak_reads[box])[0] for box in boxes]

    cfg = models.settings()
    kept = supported_weak(weak_boxes, [d.box for d in view.detections], read, min_p,
                          cfg.get("weak_face_probability"), cfg.get("weak_sure_probability"),
                          cfg.get("weak_back_probability"), cfg.get("weak_back_run", 3),
                          (view.rgb.shape[1], view.rgb.shape[0]))
    if not kept:
        return view, reads
    view = AspectView(view.rgb, view.fx, view.fy, view.detections + [view.weak[i] for i in kept], view.weak)
    return view, reads + [weak_reads[weak_boxes[i]] for i in kept]


def _read_tiles(rgb: np.ndarray, timing: dict, tile_set=None, finer=None, turn: bool = True) -> list[TileRead]:
    """The photo's tiles; ``finer(window, factor)`` gives a window of the photo at a finer
    scale where it has more pixels than ``rgb`` (:meth:`vision.imageio.LoadedImage.finer`);
    ``turn`` False: no turned read (a window of the closer look, below).

    DECISION (session 33): tiles small enough for the closer look in a photo with finer pixels
    are not read turned: their second read is the closer look's, and a turned read of the
    coarse decode compares junk against many unsure small tiles (a far-off hand on a striped
    table came back as four backs on the stripes, surer in sum). Nor is a window of the closer
    look, whose turned read of a far-off hand gave every tile twice (a box round the face and
    one round face and body). Measured on the far-off hands, models/README.md session 33."""
    tiles = _read_view(rgb, timing, tile_set)
    if turn and not _left_to_closer(tiles, finer):
        tiles = with_turned(rgb, tiles, timing, tile_set)
    tiles = above_floor(with_framed(rgb, tiles, timing, tile_set))
    return with_closer(rgb, tiles, timing, tile_set, finer)


def _left_to_closer(tiles: list[TileRead], finer) -> bool:
    """Whether the photo has finer pixels and its tiles are small enough for the closer look."""
    closer_px = models.settings().get("closer_tile_px")
    return bool(finer is not None and closer_px and tiles and median_side([t.box for t in tiles]) < closer_px)


def with_closer(rgb: np.ndarray, tiles: list[TileRead], timing: dict, tile_set=None, finer=None) -> list[TileRead]:
    """``tiles``, with those inside the window around them replaced by the read of that window
    decoded finer (:mod:`vision.closer` says why) where the tiles are small (median long side
    under ``closer_tile_px``), the photo has the pixels (``finer``) and the finer read's shown
    confidences sum higher than the first read's inside the window (with ``closer_follow``, the
    strips past the edges its tiles reach read too, :func:`vision.closer.onward`, while its tiles
    are under ``closer_follow_grown`` times the median side of the boxes that planned it). Where fewer than
    ``closer_search_below`` tiles were read, the window is planned from a search of the photo
    (:func:`searched_boxes`) and its read stands only when its median tile is at least
    ``closer_search_sure`` sure (a search of a photo with no tiles finds tile-like junk). The
    time of both lands in ``timing["closer"]``. Off where recognizer.json has no ``closer_tile_px``.

    DECISION (session 31) on the bound, 40 px: it decides which photos pay a second read (~0.3 s).
    Chosen on the far-off choice sets (32 and 40 read chinese-v4 far off alike; 40 read two more
    far-off hands right); tiles up to 72 px re-read at 110 px gained one hand of 100 at middle
    distance for one more wrong hand shown unflagged, so photos of a hand at the table keep one read
    (models/README.md, session 31).

    DECISION (session 32) on ``closer_follow_grown``, 4: the strips past a window follow a hand
    laid far off, whose tiles the window reads at about the size that planned it (0.65-2.05x on
    every far-off set); a search of a close-up plans its window around pieces of a big tile, which
    the window then reads whole at 10-40x that size, and following such a read cost a lone tile in
    a 12 MP photo four more reads (4.5-6.6 s; models/README.md, session 32)."""
    from .closer import closer_plan, new_tiles, onward, split_at

    cfg = models.settings()
    tile_px = cfg.get("closer_tile_px")
    if not tile_px or finer is None:
        return tiles
    target, span, max_px = cfg.get("closer_target_px", 48), cfg.get("closer_span", cfg.get("zoom_span", 8)), \
        cfg.get("closer_max_px", 1600)
    t0 = time.perf_counter()
    planned = [t.box for t in tiles]      # the boxes the window is planned around
    plan = closer_plan(planned, rgb.shape, tile_px, target, span, max_px)
    sure = 0.0                      # what the finer read's median tile must reach to stand
    boxes = searched_boxes(rgb.shape, finer) if plan is None and len(tiles) < cfg.get("closer_search_below", 0) \
        else None
    searched = boxes is not None
    if searched:
        planned = boxes
        plan = closer_plan(planned, rgb.shape, tile_px, target, span, max_px)
        sure = cfg.get("closer_search_sure", 0.0)
    image = None if plan is None else finer(*plan)
    near = []
    if image is not None:
        window, factor = plan
        near, looked = _read_window(image, window, tile_set), [window]
        side, grown = median_side([t.box for t in near]), cfg.get("closer_follow_grown")
        # strips are followed only while the window's tiles are of the size that planned it
        if near and cfg.get("closer_follow") and (not grown or side < grown * median_side(planned)):
            for strip in onward(window, [t.box for t in near], rgb.shape, side):
                part = finer(strip, factor)
                if part is not None:
                    near += new_tiles(near, _read_window(part, strip, tile_set))
                    looked.append(strip)
    if searched or image is not None:
        timing["closer"] = (time.perf_counter() - t0) * 1000
    if not near or float(np.median([t.confidence for t in near])) < sure:
        return tiles
    within, outside = split_at(looked, tiles)
    return near + outside if _shown_sum(near) > _shown_sum(within) else tiles


def _read_window(image: np.ndarray, window, tile_set=None) -> list[TileRead]:
    """The tiles of ``image``, a window of the photo decoded finer, in the first image's pixels;
    none where the photo had too few more pixels to be worth a read (under 1.2x)."""
    from .closer import back_in_image

    sx, sy = image.shape[1] / (window[2] - window[0]), image.shape[0] / (window[3] - window[1])
    if min(sx, sy) < 1.2:
        return []
    return [TileRead(t.kind, back_in_image(t.box, window, sx, sy), t.confidence, t.alternatives, t.angle)
            for t in _read_tiles(image, {}, tile_set, turn=False)]


def searched_boxes(shape, finer) -> list | None:
    """Where a hand too small for the first look lies in a big photo: the photo decoded
    ``closer_search_factor`` (2) times finer, cut into cells of ``closer_search_cell`` (200)
    of the first image's pixels, each detected at the normal input; the boxes (first image's
    pixels) of the best cell and its neighbours (:func:`vision.closer.best_group`). None where
    the photo has no finer pixels."""
    from .closer import back_in_image, best_group, search_cells
    from .detector import detect

    cfg = models.settings()
    h, w = shape[:2]
    image = finer((0, 0, w, h), cfg.get("closer_search_factor", 2.0))
    if image is None:
        return None
    k = image.shape[1] / w
    found = []
    for cell in search_cells(image.shape, cfg.get("closer_search_cell", 200) * k):
        x0, y0, x1, y1 = cell
        dets = detect(np.ascontiguousarray(image[y0:y1, x0:x1]), flip=False)
        found.append(((x0 / k, y0 / k, x1 / k, y1 / k),
                      [(back_in_image(d.box, (x0 / k, y0 / k), k, k), d.score) for d in dets]))
    return best_group(found)


def above_floor(tiles: list[TileRead]) -> list[TileRead]:
    """``tiles`` less those whose confidence is under ``report_floor`` (recognizer.json; off
    without it). DECISION (session 26): a tile the recognizer itself gives less than that chance
    of being right (box and kind) is not reported. The confidence is calibrated, so most such
    tiles are junk boxes (a piece of a tile, a tile cut by the frame, a patch of table); shown,
    each is one more box the player must delete, and in a hand one more tile the proposal search
    must leave out. Applied last; the framed look compares its read with the first by the tiles
    each would report (:func:`_shown_sum`). Chosen on the choice sets, figures in
    models/README.md "Experiment log: session 26". Face-down tiles among a hand's tiles (at least
    ``closeup_min_tiles``) are exempt: a back gives the detector little to fire on, so backs are
    found on weak peaks that a row vouches for (vision.row_support) and carry low confidences by
    design; floored, a fifth of the synthetic backs found were lost (synth_choose 22 -> 17 of 46).
    In a photo of a few tiles an unsure faceless read is most often a patch of table."""
    floor = models.settings().get("report_floor")
    if not floor:
        return tiles
    backs_stay = not few_tiles(len(tiles))
    return [t for t in tiles if t.confidence >= floor or (backs_stay and t.kind == BACK)]


def with_framed(rgb: np.ndarray, tiles: list[TileRead], timing: dict, tile_set=None) -> list[TileRead]:
    """``tiles``, or the read of the photo framed by a border of its own colour
    (:mod:`vision.framed`) where fewer than ``closeup_min_tiles`` (10) tiles were found and that
    read's summed confidence is higher. DECISION (session 25): the whole read with the higher
    summed confidence (of the tiles it would report, :func:`_shown_sum`) stands, not a merge of
    the two: the framed read finds a tile that fills the frame whole where the first read had
    its pieces or a neighbour, and the two reads' boxes for one tile differ too much to pair
    safely. Summed, not mean: a read that finds the tile as well as the first one's tiles
    should win; but only with a tile read at least ``MIN_READ`` surely
    (:func:`vision.framed.framed_wins`). Off where
    recognizer.json has no ``pad_share``; hand photos (10 tiles or more) never pay for it.
    ``pad_max_px`` bounds the framed image's long side (the second look's cost)."""
    from .framed import back_in_photo, framed, framed_wins

    cfg = models.settings()
    share = cfg.get("pad_share")
    if not share or not few_tiles(len(tiles)):
        return tiles
    t0 = time.perf_counter()
    h, w = rgb.shape[:2]
    image, pad, scale = framed(rgb, share, cfg.get("pad_max_px"))
    other = []
    for t in _read_view(image, {}, tile_set):
        box = back_in_photo(t.box, pad, (w, h), scale)
        if box is not None:
            other.append(TileRead(t.kind, box, t.confidence, t.alternatives, t.angle))
    timing["framed"] = (time.perf_counter() - t0) * 1000
    best = max((t.confidence for t in other), default=0.0)
    return other if framed_wins(_shown_sum(tiles), _shown_sum(other), best) else tiles


def _shown_sum(tiles: list[TileRead]) -> float:
    """The summed confidence of the tiles a read would report (:func:`above_floor`): junk under
    the floor does not make a read look surer (session 26: close-up v4 pasted 0.928 -> 0.930,
    crops and synthetic close-ups unchanged)."""
    return sum(t.confidence for t in above_floor(tiles))


def _read_view(rgb: np.ndarray, timing: dict, tile_set=None) -> list[TileRead]:
    view, reads = detect_and_classify(rgb, timing, embed=tile_set is not None)
    if tile_set is not None:
        from .set_support import read_with_set
        return without_straddlers(read_with_set(view, reads, tile_set))
    return without_straddlers(tiles_from_reads(view, reads))


def without_straddlers(tiles: list[TileRead]) -> list[TileRead]:
    """``tiles`` less those lying across two or more surer tiles of their size (vision.boxes
    .straddlers says why); off where recognizer.json has no ``straddle_cover``."""
    from .boxes import straddlers

    cover = models.settings().get("straddle_cover")
    if not cover or len(tiles) < 3:
        return tiles
    drop = set(straddlers(np.array([t.box for t in tiles], float),
                          np.array([t.confidence for t in tiles], float), cover).tolist())
    return [t for i, t in enumerate(tiles) if i not in drop]


def with_turned(rgb: np.ndarray, tiles: list[TileRead], timing: dict, tile_set=None) -> list[TileRead]:
    """``tiles``, or the read of the photo turned so its rows run level where they lie at least
    ``turn_min_degrees`` off the image axes and that read is ``turn_margin`` surer in sum
    (vision.turned says why); with ``turn_tiles_tilted`` only where three or more tiles lie
    turned as their rows do (:func:`vision.turned.tiles_turned_with_rows`); with
    ``turn_surer_each`` only where its tiles are also no less sure on average (a sum rewards a
    read that cuts each tile in two). Off where recognizer.json has no ``turn_min_degrees``.

    DECISION (session 34): ``turn_below_mean`` 0.93 skips the turned read where the first read's
    tiles average that sure or more: a turned read kept there must find more tiles than the
    first, each as sure, and on 3,125 photos of twelve sets no kept turned read came from a
    first read above 0.91 (choice sets: 0.90), while 14-81 % of the turned reads run came from
    one (chinese-v4 valid: 22 of 27). Every set reads the same; a tilted photo read surely
    costs one read less (models/README.md, sessions 33-34)."""
    from .turned import (TURN_MARGIN, boxes_kept, evidence, row_tilt, sureness, tiles_back,
                         tiles_turned_with_rows, turn_for, turned_image)

    cfg = models.settings()
    least = cfg.get("turn_min_degrees")
    if not least:
        return tiles
    boxes = [t.box for t in tiles]
    tilted_tiles = cfg.get("turn_tiles_tilted")
    if tilted_tiles and len(boxes) < 3:
        return tiles          # no row: nothing to turn (and no need to look at the photo's edges)
    sure = cfg.get("turn_below_mean")
    if sure and sureness(tiles) >= sure:
        return tiles          # read surely already: a turned read would have to find more tiles, as surely
    tilt = row_tilt(rgb, boxes)
    if abs(tilt) < least:
        return tiles
    if tilted_tiles and not tiles_turned_with_rows(rgb, boxes, tilt, least):
        return tiles          # no row of tiles that lie as the row does: nothing to turn
    t0 = time.perf_counter()
    turn = turn_for(rgb, tilt)
    other = _read_view(turned_image(rgb, turn), {}, tile_set)
    timing["turned"] = (time.perf_counter() - t0) * 1000
    surer_in_sum = evidence(other) > cfg.get("turn_margin", TURN_MARGIN) * evidence(tiles)
    if surer_in_sum and (not cfg.get("turn_surer_each") or sureness(other) >= sureness(tiles)):
        h, w = rgb.shape[:2]
        return boxes_kept(tiles_back(other, turn, (w, h)), tiles)
    return tiles


def recognize_image(rgb: np.ndarray, tile_set=None, finer=None) -> list[TileRead]:
    """Tiles in an RGB uint8 H x W x 3 array (boxes in its pixels); ``tile_set``: a taught
    set's name or :class:`vision.sets.TaughtSet` to read with (``mjscore teach``); ``finer``:
    where the array is a photo decoded smaller, a window of it at a finer scale
    (:meth:`vision.imageio.LoadedImage.finer`, for the closer look)."""
    rgb = np.asarray(rgb)
    if rgb.ndim == 2:
        rgb = np.repeat(rgb[..., None], 3, axis=2)
    if rgb.ndim != 3 or rgb.shape[2] not in (3, 4) or min(rgb.shape[:2]) < 8:
        raise ImageError(f"expected an RGB image array H x W x 3, got shape {rgb.shape}")
    if rgb.dtype != np.uint8:
        raise ImageError(f"expected uint8 pixels, got {rgb.dtype}")
    return _read_tiles(np.ascontiguousarray(rgb[..., :3]), {}, _taught(tile_set), finer)


def _taught(tile_set):
    """A set given by name is loaded from the user's sets (cached), so a name can travel to
    batch workers."""
    if isinstance(tile_set, str):
        from .sets import load_set
        return load_set(tile_set)
    return tile_set


def recognize_file(path: str | Path, tile_set=None) -> PhotoRead:
    """Read a photo file; boxes are in pixels of the EXIF-upright full-resolution image.
    ``tile_set`` as for :func:`recognize_image`. Raises ImageError when the file cannot be read."""
    from .imageio import load_image

    timing: dict[str, float] = {}
    t0 = time.perf_counter()
    img = load_image(path)
    timing["load"] = (time.perf_counter() - t0) * 1000
    tiles = _read_tiles(img.rgb, timing, _taught(tile_set), img.finer_reader)
    if img.scale != 1.0:
        k = 1.0 / img.scale
        tiles = [TileRead(t.kind, rescale(t.box, k), t.confidence, t.alternatives, t.angle) for t in tiles]
    timing["total"] = (time.perf_counter() - t0) * 1000
    return PhotoRead(image=str(path), width=img.width, height=img.height, tiles=tiles, timing_ms=timing)


def set_recognizer(name: str | None):
    """The photo recognizer that reads with taught set ``name`` (checked now, so a wrong name
    stops before any photo is read); None for no set. A partial of a module function, so it
    can travel to batch worker processes."""
    if name is None:
        return None
    from functools import partial

    from .sets import load_set

    load_set(name)
    return partial(recognize_file, tile_set=name)
