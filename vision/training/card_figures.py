"""Measure the shipped recognizer and write the figures block of both model cards.

    python benchmarks/bench_recognizer.py --runs 7        # speed line (optional, read from data/bench)
    python -m mjscore.vision.training.card_figures [--dry-run]

Evaluates every data set of ``data_sets`` that exists on this machine (the real ones live
under the data root, ``--data-root`` or ``$MJSCORE_DATA_ROOT``; the synthetic hold-out
under data/eval) exactly as ``mjscore eval`` does, and
replaces the text between ``<!-- figures -->`` and ``<!-- /figures -->`` in
``models/tile_detector.md`` and ``models/tile_classifier.md``, so the cards never disagree.
Runtime dependencies only."""

from __future__ import annotations

import argparse
import datetime
import json
from pathlib import Path

from ...datasets.paths import CHINESE_V4, DATA_ROOT_ENV, LEO_RIICHI, add_data_root_option, known_data_root
from .. import models
from .eval_by_aspect import STRETCH_LIMIT, measure_by_aspect
from .export import sha256

ROOT = Path(__file__).resolve().parents[2]


def data_sets(data_root: Path | None) -> list[tuple[str, Path | None, str]]:
    """(row name, folder, command note) of every set the cards report; the real sets live
    under the data root (``datasets.paths``) and have no folder when none is given."""
    real = (lambda rel: data_root / rel) if data_root else (lambda rel: None)
    env = f"${DATA_ROOT_ENV}"
    return [
        ("chinese-v4 valid, raw labels", real(CHINESE_V4 / "valid"),
         f"`mjscore eval {env}/{(CHINESE_V4 / 'valid').as_posix()}`"),
        ("chinese-v4 valid, cleaned labels", ROOT / "data" / "clean" / "chinese-v4" / "valid",
         "`mjscore eval data/clean/chinese-v4/valid` (cleaning: `python -m mjscore.datasets.cleaning.clean_chinese_v4`)"),
        ("leo-riichi-v5, all 67 photos (unseen set, never used to choose)", real(LEO_RIICHI),
         f"`mjscore eval {env}/{LEO_RIICHI.as_posix()}` (a Japanese set in no training data; never used to train or choose)"),
        ("synthetic hold-out (200 scenes, seed 105)", ROOT / "data" / "eval" / "synth_holdout",
         "`mjscore eval data/eval/synth_holdout` (`python -m mjscore.datasets.synth.generate --out data/eval/synth_holdout "
         "--count 200 --seed 105`; no training batch uses that seed)"),
        ("lone tiles and close-ups (chinese-v4 valid + leo, 1026 images)", ROOT / "data" / "eval" / "closeup",
         "`mjscore eval data/eval/closeup` (`python -m mjscore.datasets.closeup_eval`, by part and size: "
         "`python -m mjscore.datasets.closeup_eval report`; its leo half is an unseen set, its v4 half shares "
         "sessions with the v4 train photos the close-up training scenes were cut from)"),
    ]


CARDS = [ROOT / "models" / "tile_detector.md", ROOT / "models" / "tile_classifier.md"]


def measure(folder: Path) -> tuple[dict, dict]:
    """(whole report, {"stretched"/"ordinary": report}) as JSON dicts."""
    total, split = measure_by_aspect(folder)
    return total.to_json(), {k: v.to_json() for k, v in split.items()}


def _row(name: str, r: dict) -> str:
    return (f"| {name} | {r['photos']} | {r['tiles']} | {r['detection_recall']:.3f} | {r['detection_precision']:.3f} | "
            f"{r['classification_accuracy']:.3f} | {r['tile_precision']:.3f} | {r['tile_recall']:.3f} | **{r['tile_f1']:.3f}** |")


def _confusions(r: dict, n: int = 8) -> str:
    return ", ".join(f"{c['true']}->{c['predicted']} {c['count']}" for c in r["confusions"][:n])


def figures_block(results: dict, splits: dict, bench: dict | None, sets: list[tuple[str, Path | None, str]]) -> str:
    det, cls = (sha256(models.MODELS_DIR / m)[:12] for m in (models.DETECTOR, models.CLASSIFIER))
    lines = [f"Measured {datetime.date.today()} with the shipped models (detector sha256 {det}..., "
             f"classifier {cls}...) by `python -m mjscore.vision.training.card_figures`.", "",
             "| data | photos | tiles | det. recall | det. precision | cls. accuracy | tile P | tile R | **tile F1** |",
             "|---|---|---|---|---|---|---|---|---|"]
    lines += [_row(name, results[name]) for name, _, _ in sets if name in results]
    lines.append("")
    for name, _, note in sets:
        if name not in results:
            continue
        extra = ""
        sp = splits.get(name) if name.startswith("chinese-v4") else None   # the set known to be stretched
        if sp and sp["stretched"]["photos"]:
            o, s = sp["ordinary"], sp["stretched"]
            extra = (f"; of it, the {o['photos']} unstretched photos ({o['tiles']} tiles): tile F1 {o['tile_f1']:.3f} "
                     f"(detection {o['detection_recall']:.3f}/{o['detection_precision']:.3f}, classification "
                     f"{o['classification_accuracy']:.3f}); the {s['photos']} photos the exporter stretched beyond "
                     f"{STRETCH_LIMIT}:1 ({s['tiles']} tiles): {s['tile_f1']:.3f} "
                     f"(`python -m mjscore.vision.training.eval_by_aspect {Path(results[name]['folder']).as_posix()}`)")
        lines.append(f"- {name}: {note}{extra}")
    synth = next((results[n] for n, _, _ in sets if n.startswith("synthetic") and n in results), None)
    if synth:
        kinds = ", ".join(f"{k} {v['accuracy']:.2f} ({v['matched']}/{v['matched'] + v['missed']} found)"
                          for k, v in synth["per_kind_accuracy"].items())
        lines += ["", "Synthetic hold-out, per kind: classification accuracy of the found tiles (found / labelled), "
                  f"flowers, seasons and backs included: {kinds}."]
    conf = [f"{n.split(',')[0]}: {_confusions(results[n])}" for n in results
            if n.startswith(("chinese-v4 valid, cleaned", "leo"))]
    if conf:
        lines += ["", "Top confusions, " + "; ".join(conf) + "."]
    if bench:
        st = bench["median_stage_ms"]
        lines += ["", f"Speed: median {bench['median_seconds']:.3f} s per 12 MP JPEG end to end over {bench['runs']} runs "
                  f"(stages ms: load {st['load']:.0f}, detect {st['detect']:.0f} (photo, squeezed views weighed by the "
                  f"classifier, finer pass when tiles are small), classify {st['classify']:.0f}), "
                  "`python benchmarks/bench_recognizer.py --runs 7` on the shared 2-core build machine."]
    return "\n".join(lines)


def write_cards(block: str) -> None:
    for card in CARDS:
        text = card.read_text()
        head, rest = text.split("<!-- figures -->", 1)
        _, tail = rest.split("<!-- /figures -->", 1)
        card.write_text(f"{head}<!-- figures -->\n{block}\n<!-- /figures -->{tail}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dry-run", action="store_true", help="print the block; leave the cards as they are")
    add_data_root_option(ap)
    args = ap.parse_args(argv)
    sets = data_sets(known_data_root(args.data_root))
    results, splits = {}, {}
    for name, folder, _ in sets:
        if folder is None:
            print(f"skipped (no data root: --data-root DIR or {DATA_ROOT_ENV}): {name}")
            continue
        if not folder.exists():
            print(f"skipped (not on this machine): {folder}")
            continue
        results[name], splits[name] = measure(folder)
        results[name]["folder"] = str(folder.relative_to(ROOT)) if folder.is_relative_to(ROOT) else str(folder)
        print(_row(name, results[name]), flush=True)
    if len(results) < len(sets):
        print("not every data set is on this machine: the cards are left as they are (--dry-run shows the block)")
        args.dry_run = True
    bench_path = ROOT / "data" / "bench" / "recognizer.json"
    bench = json.loads(bench_path.read_text()) if bench_path.exists() else None
    block = figures_block(results, splits, bench, sets)
    if args.dry_run:
        print(block)
    else:
        write_cards(block)
        print(f"figures written to {', '.join(c.name for c in CARDS)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
