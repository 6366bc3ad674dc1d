"""A reference sheet end to end, on a synthetic set: render one tile set's reference sheet
(every kind once, rows 1m-9m / 1p-9p / 1s-9s / E S W N R G Wh, docs/teach.md), teach it
with ``--sheet``'s code path, then read a few hands drawn with the same set, untaught and
taught, and count the hands whose tiles are all read right.

    python -m mjscore.vision.training.sheet_demo --out data/sheet_demo [--hands 12] [--style-seed 5]

Dev-only (the synthetic generator). The hands are ``hand_scene.render_hand`` with its style
fixed to the sheet's, so sheet and hands show one set."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

import numpy as np

from ...datasets.synth import hand_scene
from ...datasets.synth.art import face_sets_for
from ...datasets.synth.compose import HAND, render_scene
from ...datasets.synth.geometry import Placement
from ...datasets.synth.style import make_style
from ..evaluate import score_photo
from ..lessons import SHEET_ORDER, from_sheet
from ..recognizer import recognize_image
from ..sets import taught

HANDS = ["[EEE] RRR 234m 88s 45s +6s", "123m 456p 789s 11p 55s +5s", "222m 333p 444s 666s 7m +7m",
         "[GGG] [NNN] 13579m 9m +9m", "111p 234p 567s 88m 99s +9s", "WhWhWh SSS 678m 33s 12p +3p",
         "345m 345p 345s 22s 67p +8p", "789m 789p 11s 234s 55m +5m", "WWW 666p 777s 2m 3m 4m 99p +9p",
         "[RRR] 123s 456s 789s 1m +1m", "EE SS WW NN 11m 99p 5s +5s", "456m 456p 456s 77m 89s +7s"]


def sheet_placements(dims) -> list[Placement]:
    """The sheet: 9, 9, 9 and 7 tiles in rows, a little apart, all upright."""
    out, gap, row_gap = [], dims.width * 0.25, dims.height * 1.35
    for i, kind in enumerate(SHEET_ORDER):
        row, col = divmod(i, 9)
        out.append(Placement(kind, col * (dims.width + gap), -row * row_gap, "up", 0.0, row))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description="reference sheet -> taught set -> hands of that set")
    ap.add_argument("--out", type=Path, default=Path("data/sheet_demo"))
    ap.add_argument("--hands", type=int, default=12)
    ap.add_argument("--style-seed", type=int, default=5)
    ap.add_argument("--art", default="committed")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("MJSCORE_DATA_DIR", str(args.out / "userdata"))
    style = make_style(np.random.default_rng(args.style_seed), face_sets_for(args.art), generated=True)
    rng = np.random.default_rng(args.style_seed + 1)
    sheet = render_scene(sheet_placements(style.dims), rng, 1600, style=style, aspect=4 / 3, fill=0.85, look=HAND,
                         camera=hand_scene.hand_camera(rng, sheet_placements(style.dims), style.dims, 0.0, False))
    import cv2
    cv2.imwrite(str(args.out / "sheet.jpg"), sheet.image[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, 90])
    tset = taught("sheet-demo", from_sheet(args.out / "sheet.jpg"), (str(args.out / "sheet.jpg"),))
    hand_scene.make_style = lambda *a, **k: style            # the hands show the sheet's set
    exact = {"untaught": 0, "taught": 0}
    rows = []
    for n, notation in enumerate((HANDS * 3)[:args.hands]):
        image, tiles, _ = hand_scene.render_hand(notation, seed=100 + n, size=960, art=args.art)
        gt = [(k, box) for k, box, _ in tiles]
        row = {"notation": notation}
        for name, ts in (("untaught", None), ("taught", tset)):
            read = recognize_image(image, tile_set=ts)
            s = score_photo(gt, [(t.kind, t.confidence, t.box) for t in read])
            ok = s.correct == s.gt == s.pred
            exact[name] += ok
            row[name] = {"right": s.correct, "tiles": s.gt, "found": s.pred, "exact": ok}
        rows.append(row)
    out = {"sheet_tiles": int(len(tset.lessons.labels)), "weight": tset.head.weight, "hands": len(rows),
           "exact_hands": exact, "per_hand": rows}
    (args.out / "sheet_demo.json").write_text(json.dumps(out, indent=1) + "\n")
    print(json.dumps({k: v for k, v in out.items() if k != "per_hand"}, indent=1))


if __name__ == "__main__":
    main()
