"""Teaching material -> taught tiles (:class:`vision.sets.Lessons`): labelled YOLO folders
(what ``scan --yolo-labels`` writes after a review) and reference-sheet photos.

A reference sheet shows every kind of the set once, in rows, in :data:`SHEET_ORDER`
(docs/teach.md): the detector finds the tiles, rows are read top to bottom and each row left
to right, and the n-th tile found is the n-th kind of the order."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np

from ..errors import InputError
from .kinds import KIND_INDEX, KINDS, token_for_dataset_name
from .sets import Lessons

# 1m..9m, 1p..9p, 1s..9s, E S W N, R G Wh; then, on sheets of 42, f1..f4 j1..j4
SHEET_ORDER: list[str] = KINDS[:34]
SHEET_ORDER_BONUS: list[str] = KINDS[:42]


def read_tiles(rgb: np.ndarray, boxes: list, photo: int) -> Lessons:
    """Features and the general classifier's read of each box (4 turns, as at scan time)."""
    from .classifier import classify_boxes
    from .teach import read_features

    reads = classify_boxes(rgb, boxes, turns=4, embed=True)
    return Lessons(read_features(reads), np.zeros(len(reads), np.int64),
                   np.stack([r.probs for r in reads]), np.full(len(reads), photo, np.int64),
                   np.full((len(reads), 4), np.nan))


def _labelled(lessons: Lessons, kinds: list[str]) -> Lessons:
    return replace(lessons, labels=np.array([KIND_INDEX[k] for k in kinds], np.int64))


def _folder_tokens(folder: Path) -> list[str | None]:
    from .yolo import read_names

    try:
        names = read_names(folder)
    except (FileNotFoundError, ValueError) as exc:
        raise InputError(f"{folder}: {exc}") from None
    tokens = []
    for n in names:
        try:
            tokens.append(None if n == "?" else token_for_dataset_name(n))
        except KeyError:
            raise InputError(f"{folder}/data.yaml: unknown class name {n!r} (use tile tokens such as 5p, E, Wh "
                             f"or the names mjscore eval reads)") from None
    return tokens


def from_folder(folder: Path, first_photo: int = 0) -> tuple[Lessons, int]:
    """The labelled tiles of a YOLO folder, and how many photos had labels."""
    from .yolo import image_label_pairs

    folder = Path(folder)
    if not folder.is_dir():
        raise InputError(f"{folder} is not a folder (teach reads YOLO folders: images/, labels/, data.yaml)")
    tokens = _folder_tokens(folder)
    pairs = [p for p in image_label_pairs(folder) if p.labels is not None]
    if not pairs:
        raise InputError(f"{folder}: no labelled photos (images/NAME.jpg needs labels/NAME.txt)")
    return from_pairs(pairs, tokens, first_photo, str(folder))


def from_pairs(pairs: list, tokens: list[str | None], first_photo: int = 0, where: str = "") -> tuple[Lessons, int]:
    """The labelled tiles of (image, label file) pairs (vision.yolo.LabelledImage)."""
    from .imageio import load_image
    from .yolo import read_boxes

    parts, photos = [], 0
    for item in pairs:
        img = load_image(item.image)
        h, w = img.rgb.shape[:2]
        labelled = [(tokens[c], b) for c, b in read_boxes(item.labels, w, h) if c < len(tokens) and tokens[c]]
        if not labelled:
            continue
        rgb, boxes, fits = as_detected(img.rgb, [b for _, b in labelled])
        read = read_tiles(rgb, boxes, first_photo + photos)
        parts.append(replace(_labelled(read, [k for k, _ in labelled]), fits=fits))
        photos += 1
    if not parts:
        raise InputError(f"{where or 'teach'}: the label files name no tiles")
    return _joined(parts), photos


def as_detected(rgb: np.ndarray, boxes: list) -> tuple[np.ndarray, list]:
    """The view a scan reads the photo in, and each labelled box as the detector found it
    (its box, or weak peak, of IoU >= 0.5; the label's box where it found none). Why: taught
    crops must look like the crops a scan classifies; leo's labels are 16 % taller than the
    detector's boxes (they take in the tile's side), which crops the face at another scale."""
    from .boxes import iou_matrix, rescale
    from .classifier import read_confidence
    from .detector import detect_any_aspect

    view = detect_any_aspect(rgb, tile_likeness=read_confidence)
    labelled = np.array([rescale(b, view.fx, view.fy) for b in boxes], float)
    found = [d.box for d in list(view.detections) + list(view.weak)]
    fits = np.full((len(boxes), 4), np.nan)
    if not found:
        return view.rgb, [tuple(b) for b in labelled], fits
    ious = iou_matrix(labelled, np.array(found, float))
    best = ious.argmax(axis=1)
    out = []
    for i, j in enumerate(best):
        if ious[i, j] >= 0.5:
            out.append(found[j])
            fits[i] = box_fit(found[j], labelled[i])
        else:
            out.append(tuple(labelled[i]))
    return view.rgb, out, fits


def box_fit(found, label) -> np.ndarray:
    """How a label box sits on the detector's box: centre shift in box sides, side ratios."""
    fw, fh = found[2] - found[0], found[3] - found[1]
    return np.array([((label[0] + label[2]) - (found[0] + found[2])) / 2 / fw,
                     ((label[1] + label[3]) - (found[1] + found[3])) / 2 / fh,
                     (label[2] - label[0]) / fw, (label[3] - label[1]) / fh])


def _joined(parts: list[Lessons]) -> Lessons:
    return Lessons(*(np.concatenate([getattr(p, f) for p in parts]) for f in ("feats", "labels", "general", "groups", "fits")))


def sheet_order(boxes: list) -> list[int]:
    """Box indices in reading order: rows top to bottom, each left to right. The sheet may
    lie tilted in the photo: centres are first turned by the median angle between
    neighbours in a row (each tile's nearest neighbour, where that is more across than down),
    then a tile starts a new row when it lies over half a tile height below the last one."""
    c = np.array([((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for b in boxes], float)
    heights = np.array([b[3] - b[1] for b in boxes], float)
    if len(c) > 1:
        d = c[None] - c[:, None]
        dist = np.hypot(d[..., 0], d[..., 1]) + np.eye(len(c)) * 1e12
        v = d[np.arange(len(c)), dist.argmin(axis=1)]
        v = v[np.abs(v[:, 0]) > np.abs(v[:, 1])]
        v[v[:, 0] < 0] *= -1
        tilt = float(np.median(np.arctan2(v[:, 1], v[:, 0]))) if len(v) else 0.0
        cos, sin = np.cos(-tilt), np.sin(-tilt)
        c = c @ np.array([[cos, sin], [-sin, cos]])
    order = np.argsort(c[:, 1])
    rows: list[list[int]] = [[int(order[0])]] if len(order) else []
    for i in order[1:]:
        if c[i, 1] - c[rows[-1][-1], 1] > 0.5 * np.median(heights):
            rows.append([])
        rows[-1].append(int(i))
    return [i for row in rows for i in sorted(row, key=lambda j: c[j, 0])]


def from_sheet(photo: Path, first_photo: int = 0) -> Lessons:
    """The tiles of a reference-sheet photo, labelled by their place in the sheet order."""
    from .detector import detect_any_aspect
    from .imageio import load_image

    from .classifier import read_confidence

    img = load_image(photo)
    view = detect_any_aspect(img.rgb, tile_likeness=read_confidence)
    boxes = [d.box for d in view.detections]
    kinds = {len(SHEET_ORDER): SHEET_ORDER, len(SHEET_ORDER_BONUS): SHEET_ORDER_BONUS}.get(len(boxes))
    if kinds is None:
        raise InputError(f"{photo}: {len(boxes)} tiles found on the sheet, expected {len(SHEET_ORDER)} "
                         f"(1m-9m, 1p-9p, 1s-9s, E S W N R G Wh) or {len(SHEET_ORDER_BONUS)} (with f1-f4 j1-j4); "
                         f"lay the tiles out apart, in rows, on a plain surface (docs/teach.md)")
    boxes = [boxes[i] for i in sheet_order(boxes)]
    return _labelled(read_tiles(view.rgb, boxes, first_photo), kinds)
