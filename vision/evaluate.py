"""Evaluate the recognizer on a labelled YOLO folder.

Matching: per photo, predictions (best confidence first) are matched greedily to the
unmatched ground-truth box of highest IoU >= 0.5, kind ignored (detection). Ground-truth
boxes whose class maps to no kind (leo's ``0`` = tile cut off at the edge) are "ignored":
a prediction on one counts neither as hit nor as false alarm, and they are never missed.

Figures: detection recall / precision; classification accuracy of matched tiles; tile
precision / recall / F1 where a hit needs box and kind right; per-kind accuracy and the
confusions; seconds per photo (median, end to end from the file)."""

from __future__ import annotations

import statistics
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .boxes import iou_matrix
from .calibration import REVIEW_CONFIDENCE
from .kinds import KINDS, token_for_dataset_name
from .yolo import image_label_pairs, read_boxes, read_names

IOU = 0.5
CONFIDENT = REVIEW_CONFIDENCE    # wrong tiles at or above it were shown without a flag


@dataclass
class PhotoScore:
    gt: int = 0               # ground-truth tiles (ignored ones excluded)
    pred: int = 0             # predictions (those on ignored boxes excluded)
    matched: int = 0          # box right
    correct: int = 0          # box and kind right
    pairs: list[tuple[str, str]] = field(default_factory=list)   # (true, predicted) of matches
    missed: list[str] = field(default_factory=list)
    wrong: list[float] = field(default_factory=list)   # confidences of predictions not right


def score_photo(gt: list[tuple[str | None, tuple]], preds: list[tuple[str, float, tuple]]) -> PhotoScore:
    """Score one photo. ``gt``: (kind or None to ignore, box); ``preds``: (kind, confidence, box)."""
    s = PhotoScore()
    preds = sorted(preds, key=lambda p: -p[1])
    gb = np.array([b for _, b in gt], float).reshape(-1, 4)
    pb = np.array([b for _, _, b in preds], float).reshape(-1, 4)
    ious = iou_matrix(pb, gb)
    used = np.zeros(len(gt), bool)
    for i, (kind, _, _) in enumerate(preds):
        cand = np.where(~used & (ious[i] >= IOU))[0] if len(gt) else np.array([], int)
        if cand.size == 0:
            s.pred += 1
            s.wrong.append(preds[i][1])
            continue
        j = cand[np.argmax(ious[i, cand])]
        used[j] = True
        true = gt[j][0]
        if true is None:
            continue
        s.pred += 1
        s.matched += 1
        s.correct += kind == true
        s.pairs.append((true, kind))
        if kind != true:
            s.wrong.append(preds[i][1])
    for j, (true, _) in enumerate(gt):
        if true is not None:
            s.gt += 1
            if not used[j]:
                s.missed.append(true)
    return s


def _ratio(a: float, b: float) -> float:
    return a / b if b else 0.0


@dataclass
class Report:
    photos: int
    gt: int
    pred: int
    matched: int
    correct: int
    seconds: list[float]
    pairs: list[tuple[str, str]]
    missed: list[str]
    failed: list[str]
    wrong: list[float] = field(default_factory=list)

    def to_json(self) -> dict:
        det_r, det_p = _ratio(self.matched, self.gt), _ratio(self.matched, self.pred)
        t_p, t_r = _ratio(self.correct, self.pred), _ratio(self.correct, self.gt)
        per_kind = defaultdict(lambda: [0, 0])
        confusions = Counter()
        for true, pred in self.pairs:
            per_kind[true][1] += 1
            per_kind[true][0] += true == pred
            if true != pred:
                confusions[(true, pred)] += 1
        return {
            "photos": self.photos, "tiles": self.gt, "predictions": self.pred,
            "detection_recall": round(det_r, 4), "detection_precision": round(det_p, 4),
            "classification_accuracy": round(_ratio(self.correct, self.matched), 4),
            "tile_precision": round(t_p, 4), "tile_recall": round(t_r, 4),
            "tile_f1": round(_ratio(2 * t_p * t_r, t_p + t_r), 4),
            "seconds_per_photo_median": round(statistics.median(self.seconds), 4) if self.seconds else None,
            "seconds_per_photo_mean": round(statistics.fmean(self.seconds), 4) if self.seconds else None,
            "per_kind_accuracy": {k: {"accuracy": round(_ratio(c, n), 4), "matched": n,
                                      "missed": self.missed.count(k)}
                                  for k, (c, n) in sorted(per_kind.items(), key=lambda kv: KINDS.index(kv[0]))},
            "confusions": [{"true": t, "predicted": p, "count": n} for (t, p), n in confusions.most_common()],
            "wrong_tiles": len(self.wrong),
            "wrong_shown_confident": round(_ratio(sum(c >= CONFIDENT for c in self.wrong), len(self.wrong)), 4),
            "failed_images": self.failed,
        }


def dataset_tokens(folder: Path) -> list[str | None]:
    """Our kind token for each class of a YOLO folder's data.yaml; None for classes that are
    ignored ("?" = a tile of unknown kind in our cleaned data, leo's cut-off tiles)."""
    return [None if n == "?" else token_for_dataset_name(n) for n in read_names(folder)]


def labelled_tiles(item, width: float, height: float, tokens: list[str | None]) -> list[tuple[str | None, tuple]]:
    """(kind or None to ignore, box in pixels) of an image's labels; [] without a label file."""
    if item.labels is None:
        return []
    return [(tokens[c] if c < len(tokens) else None, b) for c, b in read_boxes(item.labels, width, height)]


@dataclass
class PhotoResult:
    """One photo of a labelled folder, read and scored (``score`` is None when unreadable)."""
    image: Path
    gt: list                    # (kind or None, box) of the labels
    score: PhotoScore | None
    seconds: float = 0.0
    error: str | None = None


def score_folder(folder: Path, limit: int | None = None, progress=None):
    """Read and score every image of a YOLO folder, one :class:`PhotoResult` at a time."""
    from .errors import ImageError
    from .recognizer import recognize_file

    folder = Path(folder)
    tokens = dataset_tokens(folder)
    pairs = image_label_pairs(folder)[:limit]
    if not pairs:
        raise FileNotFoundError(f"{folder}: no images found in images/ or */images/")
    for n, item in enumerate(pairs, 1):
        t0 = time.perf_counter()
        try:
            read = recognize_file(item.image)
        except ImageError as exc:
            yield PhotoResult(item.image, [], None, error=str(exc))
        else:
            seconds = time.perf_counter() - t0
            gt = labelled_tiles(item, read.width, read.height, tokens)
            yield PhotoResult(item.image, gt, score_photo(gt, [(t.kind, t.confidence, t.box) for t in read.tiles]),
                              seconds)
        if progress:
            progress(n, len(pairs))


def empty_report() -> Report:
    return Report(0, 0, 0, 0, 0, [], [], [], [])


def add_photo(total: Report, photo: PhotoResult) -> None:
    """Fold one photo's result into a report."""
    if photo.score is None:
        total.failed.append(photo.error or str(photo.image))
        return
    s = photo.score
    total.seconds.append(photo.seconds)
    total.photos += 1
    total.gt += s.gt; total.pred += s.pred; total.matched += s.matched; total.correct += s.correct
    total.pairs += s.pairs; total.missed += s.missed; total.wrong += s.wrong


def evaluate_folder(folder: Path, limit: int | None = None, progress=None) -> Report:
    """Run the recognizer on every image of a YOLO folder and score it."""
    total = empty_report()
    for photo in score_folder(folder, limit, progress):
        add_photo(total, photo)
    return total


def format_report(r: dict) -> str:
    lines = [
        f"photos {r['photos']}  tiles {r['tiles']}  predictions {r['predictions']}",
        f"detection   recall {r['detection_recall']:.3f}  precision {r['detection_precision']:.3f}  (IoU >= {IOU})",
        f"classification accuracy of matched tiles {r['classification_accuracy']:.3f}",
        f"tile (box and kind)  precision {r['tile_precision']:.3f}  recall {r['tile_recall']:.3f}  "
        f"F1 {r['tile_f1']:.3f}",
        f"wrong tiles {r['wrong_tiles']}, shown with confidence >= {CONFIDENT}: {r['wrong_shown_confident']:.3f}",
        f"seconds per photo  median {r['seconds_per_photo_median']}  mean {r['seconds_per_photo_mean']}",
        "per kind: accuracy (matched, missed)",
    ]
    items = [f"{k:>3} {v['accuracy']:.2f} ({v['matched']},{v['missed']})" for k, v in r["per_kind_accuracy"].items()]
    for i in range(0, len(items), 6):
        lines.append("  " + "   ".join(items[i:i + 6]))
    if r["confusions"]:
        lines.append("top confusions (true -> predicted: count)")
        lines.append("  " + ", ".join(f"{c['true']}->{c['predicted']}: {c['count']}" for c in r["confusions"][:15]))
    if r["failed_images"]:
        lines.append(f"unreadable images: {len(r['failed_images'])}")
        lines += ["  " + f for f in r["failed_images"][:5]]
    return "\n".join(lines)
