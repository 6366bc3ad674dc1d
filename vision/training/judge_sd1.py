"""Let the trained classifier judge every ``sd1`` box of chinese-v4 (a noisy default class).

For each ``sd1`` label line the box is cropped and classified in all four quarter turns
(probabilities averaged). Verdict: ``1p`` (label kept) when the classifier agrees with the
label at p >= ``--agree`` (label and classifier are two pieces of evidence); another token when
the classifier overrules the label at p >= ``--sure``; else ``drop``. The classifier judging
never saw a real ``1p`` (all sd1 boxes were held out), hence the low bar for agreeing. Writes ``image,line,verdict,p`` for
``datasets.cleaning.clean_chinese_v4 --sd1-verdicts``.

    python -m mjscore.vision.training.judge_sd1 --ckpt runs/cls/best.pt --out data/clean/sd1_verdicts.csv [--data-root DIR]

The raw set is ``<data root>/datasets/chinese-mahjong-detection-v4`` (``datasets.paths``).
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

import numpy as np

from ...datasets.paths import CHINESE_V4, add_data_root_option, data_path
from ..crops import CONTEXT, CROP_SIZE, square_crop, to_tensor
from ..kinds import KINDS
from .common import load_rgb, setup_torch
from ..yolo import read_boxes, read_names


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ckpt", type=Path, default=Path("runs/cls/best.pt"))
    ap.add_argument("--out", type=Path, default=Path("data/clean/sd1_verdicts.csv"))
    ap.add_argument("--sure", type=float, default=0.8)
    ap.add_argument("--agree", type=float, default=0.3)
    add_data_root_option(ap)
    args = ap.parse_args()
    src = data_path(ap, args.data_root, CHINESE_V4)
    torch = setup_torch(2)
    from .nets import TileClassifier

    ck = torch.load(args.ckpt, weights_only=False)
    model = TileClassifier(ck.get("width", 32))
    model.load_state_dict(ck["model"])
    model.eval()
    sd1 = read_names(src).index("sd1")
    rows, verdicts = [], {}
    for split in ("train", "valid"):
        for lab in sorted((src / split / "labels").glob("*.txt")):
            boxes = read_boxes(lab, 640, 640)
            lines = [i for i, (c, _) in enumerate(boxes, start=1) if c == sd1]
            if not lines:
                continue
            img_path = next((src / split / "images").glob(lab.stem + ".*"))
            img = load_rgb(img_path)
            h, w = img.shape[:2]
            boxes = read_boxes(lab, w, h)
            crops = np.stack([square_crop(img, boxes[i - 1][1], CROP_SIZE, CONTEXT) for i in lines])
            x = torch.from_numpy(to_tensor(crops))
            with torch.no_grad():
                p = sum(torch.softmax(model(torch.rot90(x, k, (2, 3)))[0], 1) for k in range(4)) / 4
            for i, pi in zip(lines, p.numpy()):
                k = int(pi.argmax())
                sure = args.agree if KINDS[k] == "1p" else args.sure
                verdict = KINDS[k] if pi[k] >= sure else "drop"
                rows.append((f"{split}/{img_path.name}", i, verdict, round(float(pi[k]), 4), KINDS[k]))
                verdicts[verdict] = verdicts.get(verdict, 0) + 1
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w", newline="") as fh:
        wr = csv.writer(fh)
        wr.writerow(["image", "line", "verdict", "p", "best"])
        wr.writerows(rows)
    print(f"{len(rows)} sd1 boxes judged: {dict(sorted(verdicts.items(), key=lambda kv: -kv[1]))}")


if __name__ == "__main__":
    main()
