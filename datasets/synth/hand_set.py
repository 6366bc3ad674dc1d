"""A photo set of the worked scoring cases: every single-hand case of ``cases.json`` with a
notation, rendered as laid out on a table in several variants, with the case's context and
expected score next to the exact tile labels, for end-to-end tests photo -> score.

    python -m mjscore.datasets.synth.hand_set --out data/synth/hands [--variants 3] [--size 960]

Writes ``<case>_<n>.jpg`` and ``hands.jsonl`` (one line per photo: file, case id, ruleset,
notation, the case ``input`` and ``expected``, layout options, and ``tiles`` = kind, box,
face angle and group of every tile).

The cases are the spec's (DECISION): ``--cases FILE``, by default ``<data root>/spec/cases.json``
(``--data-root`` or ``$MJSCORE_DATA_ROOT``, see ``datasets.paths``), never the tests' copy
found by a path inside the checkout; a test passes the bundled ``tests/data/cases.json``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from ..paths import CASES, add_data_root_option, data_path

from .art import ART_CHOICES, mark_held_out
from .hand_layout import LayoutError, NotationError, parse_notation
from .hand_scene import render_hand



def variant_options(case_index: int, variant: int) -> dict:
    """Layout options for one photo, spread deterministically over the variants."""
    rng = np.random.default_rng([case_index, variant])
    return {"rows": int(rng.choice([1, 2], p=[0.3, 0.7])),
            "rotation": float(rng.choice([0.0, 0.0, 90.0, 180.0, 270.0, float(rng.uniform(0, 360))])),
            "standing": bool(rng.random() < 0.2),
            "sideways": bool(rng.random() < 0.4),
            "seed": int(rng.integers(2**31))}


def main(argv: list[str] | None = None) -> int:
    import cv2

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--cases", type=Path, default=None, help="worked cases (default: <data root>/spec/cases.json)")
    add_data_root_option(ap)
    ap.add_argument("--variants", type=int, default=3)
    ap.add_argument("--size", type=int, default=960)
    ap.add_argument("--art", choices=ART_CHOICES, default="all",
                    help="'unseen': the held-out face design (evaluation only)")
    args = ap.parse_args(argv)
    cases_file = args.cases or data_path(ap, args.data_root, CASES)
    try:
        cases = json.loads(cases_file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        print(f"error: cannot read cases from {cases_file}: {exc}", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    mark_held_out(args.out, args.art)
    count = 0
    with open(args.out / "hands.jsonl", "w") as index:
        for ci, case in enumerate(cases):
            notation = case.get("notation")
            if not notation or "hand" not in case.get("input", {}):
                continue
            try:
                parse_notation(notation)
            except (NotationError, LayoutError) as exc:
                print(f"skip {case['id']}: {exc}", file=sys.stderr)
                continue
            for v in range(args.variants):
                opts = variant_options(ci, v)
                layout = parse_notation(notation)
                layout.rows, layout.rotation, layout.standing = opts["rows"], opts["rotation"], opts["standing"]
                if opts["sideways"]:
                    for m in layout.melds:
                        if not m.concealed:
                            m.sideways = int(np.random.default_rng(opts["seed"]).integers(len(m.tiles)))
                            break
                image, tiles, meta = render_hand(layout, opts["seed"], args.size, args.art)
                name = f"{case['id']}_{v}.jpg"
                cv2.imwrite(str(args.out / name), image[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, 88])
                index.write(json.dumps({
                    "file": name, "case": case["id"], "ruleset": case.get("ruleset"), "notation": notation,
                    "input": case["input"], "expected": case.get("expected"), **opts,
                    "width": image.shape[1], "height": image.shape[0], "art": meta["style"]["art"],
                    "tiles": meta["tiles"]}) + "\n")
                count += 1
    print(f"wrote {count} hand photos to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
