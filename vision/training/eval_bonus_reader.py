"""How the bonus reader's settings would change the kind reads, on the true boxes of labelled
folders (so detection plays no part), to choose ``bonus_reader_gate/weight/mass``.

Both networks are run once per folder (answers cached under data/cache);
every setting is then a cheap re-weighing (``vision.bonus_reader.reweigh``). Per folder and
setting it prints the accuracy on the flowers and seasons, on the other kinds and on all, and
how many tiles the setting fixes and breaks. Choose on folders the reader was not trained on
and that are not the figures reported (e.g. chinese-v4 valid and a synthetic batch of its own
seed), never on leo-riichi-v5.

    python -m mjscore.vision.training.eval_bonus_reader --reader runs/bonus1/bonus_reader.onnx \\
        data/clean/chinese-v4/valid data/eval/synth_choose
"""

from __future__ import annotations

import argparse
import hashlib
from pathlib import Path

import numpy as np

from ..bonus_reader import BONUS_INDEX, bonus_mass, read_bonus, with_bonus_reader
from ..kinds import KIND_INDEX

GATES = (0.02, 0.05, 0.1, 0.2)
WEIGHTS = (0.0, 0.3, 0.5, 0.7, 0.85, 1.0)
MASSES = (0.0, 0.25, 0.5)


def _labelled_crops(folder: Path, limit: int | None):
    """Per image: (rgb, boxes, kind indices) of the labelled tiles of known kind."""
    from ..evaluate import dataset_tokens, labelled_tiles
    from ..imageio import load_image
    from ..yolo import image_label_pairs

    tokens = dataset_tokens(folder)
    for item in image_label_pairs(folder)[:limit]:
        rgb = load_image(item.image).rgb           # the runtime's working size
        tiles = [(k, b) for k, b in labelled_tiles(item, rgb.shape[1], rgb.shape[0], tokens) if k in KIND_INDEX]
        if tiles:
            yield rgb, [b for _, b in tiles], [KIND_INDEX[k] for k, _ in tiles]


def truebox_reads(folder: Path, reader: Path | None, limit: int | None = None):
    """(classifier probs N x 43 without the reader, reader probs N x 9, true kind index N) of
    every labelled tile of known kind (no reader: None for its probs); each network's answers
    cached on its own under data/cache (keyed by the folder and the model file), so a new
    reader does not rerun the classifier."""
    from .. import models
    from ..classifier import _crops, classify_boxes
    from .crop_source import cached

    def key(model: Path) -> str:
        st = model.stat()
        return hashlib.md5(f"{folder.resolve()}:{limit}:{model.resolve()}:{st.st_size}:{st.st_mtime_ns}".encode()).hexdigest()[:10]

    def run(fn):
        def build():
            outs, ys = [], []
            for rgb, boxes, kinds in _labelled_crops(folder, limit):
                outs.append(fn(rgb, boxes)); ys += kinds
            return np.concatenate(outs), np.array(ys)
        return build

    cls_file = models.MODELS_DIR / models.CLASSIFIER
    p, y = cached(f"truebox_cls_{folder.name}_{key(cls_file)}", run(
        lambda rgb, boxes: np.array([r.probs for r in classify_boxes(rgb, boxes, bonus_reader=False)])))
    if reader is None:
        return p, None, y
    r, y2 = cached(f"truebox_reader_{folder.name}_{key(reader)}", run(
        lambda rgb, boxes: read_bonus(_crops(rgb, boxes), str(reader.resolve()))))
    assert (y == y2).all()
    return p, r, y


def apply(p, r, gate, weight, mass) -> np.ndarray:
    """The runtime's re-weighing with these settings, the reader's answers taken from ``r``."""
    cfg = {"model": None, "gate": gate, "weight": weight, "mass": mass}
    return with_bonus_reader(p, np.arange(len(p)), cfg, read=lambda rows, _model: r[rows])


def report(name: str, p, r, y) -> None:
    is_b = np.isin(y, BONUS_INDEX)
    base = p.argmax(1) == y
    print(f"\n{name}: {len(y)} tiles, {is_b.sum()} flowers/seasons; without the reader: "
          f"bonus {base[is_b].mean() if is_b.any() else float('nan'):.3f} other {base[~is_b].mean():.4f}")
    print("gate weight mass | bonus  other  all    | fixed broken | asked")
    for gate in GATES:
        for weight in WEIGHTS[1:]:
            for mass in MASSES:
                ok = apply(p, r, gate, weight, mass).argmax(1) == y
                print(f"{gate:4} {weight:6} {mass:4} | {ok[is_b].mean() if is_b.any() else float('nan'):.3f}  "
                      f"{ok[~is_b].mean():.4f} {ok.mean():.4f} | {(ok & ~base).sum():5} {(~ok & base).sum():6} | "
                      f"{(bonus_mass(p) >= gate).mean():.3f}")


def main() -> None:
    ap = argparse.ArgumentParser(description="the bonus reader's settings on true boxes")
    ap.add_argument("folders", nargs="+", type=Path)
    ap.add_argument("--reader", type=Path, default=None)
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--classifier-only", action="store_true", help="cache the classifier's answers and stop")
    args = ap.parse_args()
    for folder in args.folders:
        if args.classifier_only:
            truebox_reads(folder, None, args.limit)
            continue
        report(str(folder), *truebox_reads(folder, args.reader, args.limit))


if __name__ == "__main__":
    main()
