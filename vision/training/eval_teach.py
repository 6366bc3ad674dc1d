"""How much a taught set helps, on real photos split by photo: teach from every third photo,
read the others untaught and taught (the same matching as ``mjscore eval``); and the
wrong-set check: read another dataset with that set and without.

    python -m mjscore.vision.training.eval_teach --data-root /work/shared --dataset leo --wrong chinese
    python -m mjscore.vision.training.eval_teach --folder data/eval/synth_holdout --art cache:xmahjongg-real --wrong chinese

Each photo is read once (with embeddings); untaught and taught tiles come from the same
read, so the difference is the set alone. Dev-only: the leo split is for this evaluation;
leo never trains or tunes the general models."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from ...datasets.synth.generate import art_families
from ...datasets.paths import CHINESE_V4, LEO_RIICHI, add_data_root_option, data_path
from ..evaluate import add_photo, dataset_tokens, empty_report, labelled_tiles, score_photo
from ..evaluate import PhotoResult
from ..imageio import load_image
from ..lessons import from_pairs
from ..reading import tiles_from_reads
from ..recognizer import detect_and_classify
from ..sets import taught
from ..set_support import read_with_set
from ..yolo import image_label_pairs

DATASETS = {"leo": LEO_RIICHI, "chinese": CHINESE_V4 / "valid"}


def split(pairs: list, every: int = 3) -> tuple[list, list]:
    """(teaching photos: every ``every``-th, the rest) of a sorted list of labelled photos."""
    return pairs[::every], [p for i, p in enumerate(pairs) if i % every]


def read_all(pairs: list, tokens) -> list[tuple]:
    """(view, reads with embeddings, ground truth in the view's photo pixels) per photo."""
    out = []
    for item in pairs:
        img = load_image(item.image)
        view, reads = detect_and_classify(img.rgb, embed=True)
        h, w = img.rgb.shape[:2]
        out.append((item.image, view, reads, labelled_tiles(item, w, h, tokens)))
    return out


def figures(photos: list[tuple], tile_set=None) -> dict:
    """``mjscore eval`` figures of the reads, with or without a set, and photos read exactly."""
    total, exact = empty_report(), 0
    for image, view, reads, gt in photos:
        tiles = read_with_set(view, reads, tile_set) if tile_set else tiles_from_reads(view, reads)
        s = score_photo(gt, [(t.kind, t.confidence, t.box) for t in tiles])
        add_photo(total, PhotoResult(image, gt, s))
        exact += s.correct == s.gt == s.pred
    r = total.to_json()
    return {"photos": r["photos"], "tiles": r["tiles"], "tile_f1": r["tile_f1"],
            "classification_accuracy": r["classification_accuracy"], "exact_photos": exact,
            "confusions": r["confusions"][:8]}


def main() -> None:
    ap = argparse.ArgumentParser(description="taught-set figures on real photos split by photo")
    add_data_root_option(ap)
    ap.add_argument("--dataset", choices=sorted(DATASETS), default="leo")
    ap.add_argument("--wrong", choices=sorted(DATASETS), default=None,
                    help="also read all of this dataset with the taught set and without")
    ap.add_argument("--folder", type=Path, default=None,
                    help="a labelled YOLO folder instead of --dataset (e.g. a synthetic hold-out batch)")
    ap.add_argument("--art", default=None,
                    help="with --folder: only the scenes of this art family (scenes.jsonl style.art), "
                         "e.g. cache:xmahjongg-real: one synthetic tile set as a player's own")
    ap.add_argument("--every", type=int, default=3, help="teach from every N-th photo")
    ap.add_argument("--json", type=Path, default=None, help="write the figures here")
    args = ap.parse_args()
    folder = args.folder or data_path(ap, args.data_root, DATASETS[args.dataset])
    tokens = dataset_tokens(folder)
    pairs = [p for p in image_label_pairs(folder) if p.labels is not None]
    if args.art:
        arts = art_families(folder)
        pairs = [p for p in pairs if arts.get(p.image.stem) == args.art]
        if not pairs:
            ap.error(f"{folder}: no scenes of art {args.art!r} (see its scenes.jsonl)")
    teach_pairs, test_pairs = split(pairs, args.every)
    t0 = time.perf_counter()
    lessons, n = from_pairs(teach_pairs, tokens)
    tset = taught(args.dataset if not args.folder else "synthetic", lessons, (str(folder),))
    seconds = time.perf_counter() - t0
    name = f"{folder}" + (f" ({args.art})" if args.art else "") if args.folder else args.dataset
    out = {"dataset": name, "teach_photos": n, "teach_tiles": int(len(lessons.labels)),
           "teach_seconds": round(seconds, 1), "scale": tset.head.scale, "weight": tset.head.weight,
           "gate": [round(g, 3) for g in tset.head.gate]}
    photos = read_all(test_pairs, tokens)
    out["untaught"], out["taught"] = figures(photos), figures(photos, tset)
    if args.wrong:
        wfolder = data_path(ap, args.data_root, DATASETS[args.wrong])
        wpairs = [p for p in image_label_pairs(wfolder) if p.labels is not None]
        wphotos = read_all(wpairs, dataset_tokens(wfolder))
        out["wrong_set"] = {"dataset": args.wrong, "none": figures(wphotos), "with_set": figures(wphotos, tset)}
    text = json.dumps(out, indent=1)
    if args.json:
        args.json.write_text(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
