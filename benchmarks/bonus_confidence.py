"""How sure the recognizer is of the flowers and seasons it reads, right and wrong (issue 17:
"where a bonus tile's kind is unsure, its confidence must say so").

    MJSCORE_MODELS_DIR=models python benchmarks/bonus_confidence.py data/eval/synth_holdout

A bonus read is any box read as a flower or season, or any flower or season (IoU >= 0.5) read
as anything; it is wrong when box or kind is. Prints the share of the wrong ones shown with
confidence >= 0.6 (the review does not ask) and of the right ones under it (it asks for nothing);
then the same for flowers/seasons read as another flower/season at 0.6 and at the score-stakes
level (handscan/stakes.py: such a tile is questioned below it when its kind moves the score)."""
import sys
from pathlib import Path

import numpy as np

from mjscore.vision.evaluate import dataset_tokens, image_label_pairs, labelled_tiles, IOU
from mjscore.vision.boxes import iou_matrix
from mjscore.vision.calibration import REVIEW_CONFIDENCE
from mjscore.vision.recognizer import recognize_file
from mjscore.vision.kinds import BONUS
from mjscore.handscan.stakes import STAKES_CONFIDENCE


def main(folder: Path) -> None:
    tokens = dataset_tokens(folder)
    wrong, right, swapped = [], [], []
    for item in image_label_pairs(folder):
        read = recognize_file(item.image)
        gt = [(k, b) for k, b in labelled_tiles(item, read.width, read.height, tokens) if k is not None]
        gb = np.array([b for _, b in gt], float).reshape(-1, 4)
        for t in read.tiles:
            ious = iou_matrix(np.array([t.box], float), gb)[0] if len(gt) else np.zeros(0)
            j = int(np.argmax(ious)) if len(ious) else -1
            true = gt[j][0] if j >= 0 and ious[j] >= IOU else None
            if t.kind in BONUS or true in BONUS:
                (right if t.kind == true else wrong).append(t.confidence)
                if t.kind in BONUS and true in BONUS and t.kind != true:
                    swapped.append(t.confidence)
    w = np.array(wrong); r = np.array(right)
    sure = REVIEW_CONFIDENCE
    print(f"{folder}: bonus reads right {len(r)}, wrong {len(w)}; wrong shown >= {sure}: {np.mean(w >= sure):.3f} "
          f"({int((w >= sure).sum())}); right under {sure}: {np.mean(r < sure):.3f}")
    s = np.array(swapped)
    for level in (sure, STAKES_CONFIDENCE):     # the score-stakes question (handscan.stakes) asks below 0.9
        print(f"  read as another flower/season: {len(s)}, shown >= {level}: {np.mean(s >= level) if len(s) else 0:.3f}; "
              f"right reads under {level}: {np.mean(r < level):.3f}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
