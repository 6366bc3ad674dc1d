"""Recognizer figures split by how stretched each photo is (median aspect of its labelled boxes).

Some dataset exporters squash photos to a square; chinese-v4 valid holds 39 such photos, up to
15:1. This splits ``mjscore eval``'s figures into stretched (median box aspect > ``--limit``) and
ordinary photos, so the cost of each is visible.

    python -m mjscore.vision.training.eval_by_aspect data/clean/chinese-v4/valid [--limit 2.2]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from ..evaluate import Report, add_photo, empty_report, score_folder


def median_aspect(boxes: np.ndarray) -> float:
    """Median of max(w/h, h/w) over the boxes (1.0 without boxes)."""
    if not len(boxes):
        return 1.0
    w, h = boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]
    return float(np.median(np.maximum(w / np.maximum(h, 1e-9), h / np.maximum(w, 1e-9))))


STRETCH_LIMIT = 2.2


def measure_by_aspect(folder: Path, limit: float = STRETCH_LIMIT) -> tuple[Report, dict[str, Report]]:
    """(report over the whole folder, {"stretched" / "ordinary": report}) from one pass."""
    total, groups = empty_report(), {"stretched": empty_report(), "ordinary": empty_report()}
    for photo in score_folder(folder):
        add_photo(total, photo)
        boxes = np.array([b for _, b in photo.gt]).reshape(-1, 4)
        add_photo(groups["stretched" if median_aspect(boxes) > limit else "ordinary"], photo)
    return total, groups


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--limit", type=float, default=STRETCH_LIMIT)
    args = ap.parse_args()
    _, groups = measure_by_aspect(args.folder, args.limit)
    for key, report in groups.items():
        r = report.to_json()
        print(f"{key}: {r['photos']} photos, {r['tiles']} tiles: detection recall {r['detection_recall']:.3f} "
              f"precision {r['detection_precision']:.3f}  classification {r['classification_accuracy']:.3f}  "
              f"tile F1 {r['tile_f1']:.3f}")


if __name__ == "__main__":
    main()
