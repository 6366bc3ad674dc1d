"""Render the bundled synthetic hand photos in ``samples/synthetic/`` and their ``hands.json``.

    python -m mjscore.datasets.synth.make_samples [--out samples/synthetic]

Only repository art is used (``art="repo"``: FluffyStuff CC0, xhokir CC BY 4.0, Commons
public domain), so the images can be committed.  ``hands.json`` lists for each file the
notation, the layout options and the exact label of every tile (kind, box, face angle,
group), for end-to-end tests of photo -> tiles -> groups -> score."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from .hand_layout import parse_notation
from .hand_scene import render_hand

REPO = Path(__file__).resolve().parents[2]

SAMPLES = [
    # file, notation, seed, rows, rotation, standing, sideways set index
    ("app_example.jpg", "[EEE] RRR 234m 88s 45s +6s / f2", 11, 2, 0.0, False, None),
    ("concealed_kong_one_row.jpg", "[EEE] {X77pX} RRR 234m 88s 45s +6s / f1 j3", 12, 1, 90.0, False, None),
    ("sideways_upside_down.jpg", "[5555p] [678s] 234m 99m WW +W", 13, 2, 180.0, False, 1),
    ("two_kongs_rack.jpg", "{1111s} {XRRX} 999m 567p 3s +3s / j1 j2 j3 j4", 14, 2, 15.0, True, None),
    ("all_concealed_turned.jpg", "111m 234m 567p 789s N +N", 15, 1, 270.0, False, None),
    ("three_dragons_diagonal.jpg", "[WhWhWh] [GGG] [RRR] 345s 2p +2p / f3", 16, 2, 135.0, False, 0),
]

# A family fixed before it was ever read (session 5): six hands with a declared concealed kong
# (face-down ends) and bonus tiles, each laid in one row and in two rows, random rotation, flat.
# All twelve are bundled, read exactly or not: the share read exactly is a figure, not a choice.
KONG_AND_BONUS = ["{X55sX} [222m] 345p 678p 9s +9s / f1 j2", "{XEEX} 123m 456m 789m 5p +5p / f2 j3",
                  "{X88pX} [RRR] 234s 66s 78m +9m / j1", "{X33mX} [678s] 111p 456s N +N / f3 f4",
                  "{X99sX} [EEE] 123p 456p 2m +2m / f4 j4", "{X11pX} 234m 567m 345s 8s +8s / j1 j3"]
SAMPLES += [(f"kong_bonus_{i}_{rows}row.jpg", notation, 100 + 10 * i + rows, rows, None, False, None)
            for i, notation in enumerate(KONG_AND_BONUS) for rows in (1, 2)]


def main(argv: list[str] | None = None) -> int:
    import cv2

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=REPO / "samples" / "synthetic")
    ap.add_argument("--size", type=int, default=720)
    ap.add_argument("--quality", type=int, default=80)
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    entries = []
    for name, notation, seed, rows, rotation, standing, sideways in SAMPLES:
        layout = parse_notation(notation)
        layout.rows, layout.rotation, layout.standing = rows, rotation, standing
        if sideways is not None:
            layout.melds[sideways].sideways = 1
        image, tiles, meta = render_hand(layout, seed, args.size, art="repo")
        path = args.out / name
        cv2.imwrite(str(path), image[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, args.quality])
        entries.append({"file": name, "notation": notation, "seed": seed, "rows": rows, "rotation": rotation,
                        "standing": standing, "sideways_set": sideways, "width": image.shape[1],
                        "height": image.shape[0], "art": meta["style"]["art"], "tiles": meta["tiles"]})
        print(f"{path}: {len(tiles)} tiles, {path.stat().st_size // 1024} KB")
    (args.out / "hands.json").write_text(json.dumps(entries, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
