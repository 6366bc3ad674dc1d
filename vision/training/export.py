"""Export trained checkpoints to ONNX in ``models/`` and write ``models/recognizer.json``.

    python -m mjscore.vision.training.export --cls runs/cls/best.pt --det runs/det/last.pt
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

from ..crops import CONTEXT, CROP_SIZE
from ..kinds import KINDS
from .common import setup_torch

MODELS = Path(__file__).resolve().parents[2] / "models"


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _export(torch, model, dummy, path: Path, input_name: str, output_names, dynamic):
    model.eval()
    torch.onnx.export(model, dummy, str(path), input_names=[input_name], output_names=output_names,
                      dynamic_axes=dynamic, opset_version=17, dynamo=False)


def main() -> None:
    ap = argparse.ArgumentParser(description="export the recognizer models to ONNX")
    ap.add_argument("--cls", type=Path, default=Path("runs/cls/best.pt"))
    ap.add_argument("--det", type=Path, default=Path("runs/det/last.pt"))
    ap.add_argument("--out", type=Path, default=MODELS)
    ap.add_argument("--det-size", type=int, default=320)
    ap.add_argument("--det-threshold", type=float, default=0.5)
    ap.add_argument("--nms-containment", type=float, default=0.6)
    ap.add_argument("--aspect-squeezes", default="2,4,8",
                    help="squeezed views searched for stretched photos (comma list, '' for none)")
    ap.add_argument("--fine-det-size", type=int, default=544,
                    help="second, finer detector input for photos of small tiles (0: none)")
    ap.add_argument("--small-tile-px", type=float, default=26)
    ap.add_argument("--view-gate", type=float, default=0.7,
                    help="squeezed views with this share of the plain view's detection evidence are weighed by the classifier")
    ap.add_argument("--view-margin", type=float, default=1.1,
                    help="how much better a squeezed view must read than the plain one to be chosen")
    ap.add_argument("--no-det-flip", action="store_true",
                    help="detect without the flip test (the mirrored photo's heat map averaged in)")
    ap.add_argument("--weak-threshold", type=float, default=0.2,
                    help="weak peaks from this score on are candidates for row support (vision/row_support.py; 0: off)")
    ap.add_argument("--weak-min-probability", type=float, default=0.6,
                    help="a row-supported weak peak is kept when read X/Wh with this probability")
    ap.add_argument("--only", choices=["det", "cls"], help="export just this model (the other ONNX file is left as is)")
    args = ap.parse_args()
    wanted = {"det", "cls"} if args.only is None else {args.only}
    for name in sorted(wanted):
        ckpt = args.det if name == "det" else args.cls
        if not ckpt.exists():
            raise SystemExit(f"export: checkpoint {ckpt} for the {name} model is missing "
                             f"(train it first, or pass --only {'cls' if name == 'det' else 'det'})")
    torch = setup_torch(2)
    from .nets import build_classifier, build_detector

    args.out.mkdir(parents=True, exist_ok=True)
    if "cls" in wanted:
        ck = torch.load(args.cls, weights_only=False)
        m = build_classifier(ck.get("arch", "small"), ck.get("width", 32), pretrained=False)
        m.load_state_dict(ck["model"])
        crop = ck.get("crop_size", CROP_SIZE)
        _export(torch, m, torch.zeros(1, 3, crop, crop), args.out / "tile_classifier.onnx",
                "crops", ["kind_logits", "orient_logits"], {"crops": {0: "n"}, "kind_logits": {0: "n"},
                                                              "orient_logits": {0: "n"}})
        from .add_embedding import add_embedding_output      # taught sets read the neck (vision/teach.py)
        print(add_embedding_output(args.out / "tile_classifier.onnx"))
        print("classifier", sha256(args.out / "tile_classifier.onnx"))
    if "det" in wanted:
        ck = torch.load(args.det, weights_only=False)
        m = build_detector(ck.get("arch", "centernet"), pretrained=False)
        m.load_state_dict(ck["model"])
        _export(torch, m, torch.zeros(1, 3, 384, 512), args.out / "tile_detector.onnx", "image",
                ["heatmap", "size", "offset"],
                {"image": {2: "h", 3: "w"}, "heatmap": {2: "h4", 3: "w4"}, "size": {2: "h4", 3: "w4"},
                 "offset": {2: "h4", 3: "w4"}})
        print("detector", sha256(args.out / "tile_detector.onnx"))
    cfg_path = args.out / "recognizer.json"
    cfg = json.loads(cfg_path.read_text()) if cfg_path.exists() else {}
    if "cls" in wanted:
        cfg["crop_size"] = crop                    # the classifier's input side
    cfg.setdefault("crop_size", CROP_SIZE)
    cfg.update({"det_size": args.det_size, "det_threshold": args.det_threshold, "nms_iou": 0.6, "nms_containment": args.nms_containment, "cls_turns": 4,
                "aspect_squeezes": [int(v) for v in args.aspect_squeezes.split(",") if v.strip()],
                "fine_det_size": args.fine_det_size or None, "small_tile_px": args.small_tile_px,
                "view_gate": args.view_gate, "view_margin": args.view_margin, "view_sample": 8,
                "det_flip": not args.no_det_flip,
                "weak_threshold": args.weak_threshold or None, "weak_min_probability": args.weak_min_probability,
                "crop_context": CONTEXT, "kinds": KINDS})
    cfg_path.write_text(json.dumps(cfg, indent=1) + "\n")


if __name__ == "__main__":
    main()
