"""Two detectors of one lineage blended weight by weight (a weight-space ensemble, "WiSE-FT").

Why (session 39): every CPU stage of the main detector on racks of backs learnt the backs and
lost a little of what the starting network read on real photos (det31, det38n, det39n); the
fine-tuned and the starting weights lie in one basin (the stage starts from the shipped file at
a small learning rate), and a point between them often keeps most of both. Both ONNX files are
read into the trainable folded CenterNet (``nets.load_onnx_detector``: batch norms are folded
into the convolutions, so each conv's weight and bias are blended as they stand), and the
result is saved as a checkpoint that ``export --only det --det OUT`` turns into an ONNX file.

    python -m mjscore.vision.training.blend_detector models/tile_detector.onnx runs/export_d39nlast/tile_detector.onnx \\
        --share 0.5 --out runs/blend39/last.pt

``--share`` is the second file's share: 0 gives the first file, 1 the second."""

from __future__ import annotations

import argparse
from pathlib import Path


def blended_state(first: dict, second: dict, share: float) -> dict:
    """``(1 - share) * first + share * second``, tensor by tensor; the two must hold the same
    names and shapes (one architecture)."""
    if first.keys() != second.keys():
        raise ValueError(f"not one architecture: {sorted(first.keys() ^ second.keys())[:5]} differ")
    out = {}
    for name, a in first.items():
        b = second[name]
        if a.shape != b.shape:
            raise ValueError(f"{name}: shapes {tuple(a.shape)} and {tuple(b.shape)} differ")
        out[name] = (1 - share) * a + share * b if a.is_floating_point() else a
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("first", type=Path, help="detector ONNX file (share 0)")
    ap.add_argument("second", type=Path, help="detector ONNX file (share 1)")
    ap.add_argument("--share", type=float, default=0.5, help="the second file's share of each weight")
    ap.add_argument("--out", type=Path, required=True, help="checkpoint to write (export --only det --det OUT)")
    args = ap.parse_args()
    from .common import save_ckpt
    from .nets import load_onnx_detector

    first, second = load_onnx_detector(args.first), load_onnx_detector(args.second)
    state = blended_state(first.state_dict(), second.state_dict(), args.share)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    save_ckpt(args.out, model=state, epoch=0, arch="centernet-folded")
    print(f"{args.out}: {1 - args.share:g} x {args.first} + {args.share:g} x {args.second}")


if __name__ == "__main__":
    main()
