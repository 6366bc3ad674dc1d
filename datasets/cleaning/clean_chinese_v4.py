"""Reproducible label cleaning of chinese-mahjong-detection-v4 (Roboflow, CC BY 4.0).

Writes a YOLO folder per split under ``--out`` (default ``data/clean/chinese-v4``) whose
class names are our tokens (``vision.kinds.KINDS``) plus ``?`` (a tile whose kind is
unknown: it still trains the class-agnostic detector, never the classifier), with the
images symlinked, and records every change in ``datasets/cleaning/chinese-v4-changes.csv``.

Rules (see README.md here):
- polygon lines (9+ numbers) -> the min/max box of their points;
- empty label files -> image dropped (tiles visible but unlabelled would teach "no tile");
- ``sd1`` is noisy: without ``--sd1-verdicts`` every ``sd1`` box becomes ``?``; with a
  verdict CSV (``image,line,verdict`` where verdict is a token or ``drop``, written by
  ``vision.training.judge_sd1``) each box is relabelled as the classifier judged, or its kind
  dropped (the box stays as ``?``: it is still a tile for the detector);
- ``hdw`` (framed or blank white dragon) -> ``Wh``;
- boxes with a side under 2 px (at 640) are dropped as degenerate.

Run: ``python -m mjscore.datasets.cleaning.clean_chinese_v4 [--data-root DIR] [--sd1-verdicts data/clean/sd1_verdicts.csv | --replay]``
(``--replay`` rebuilds the shipped cleaning from ``chinese-v4-changes.csv``, no judge needed)
(the raw set is ``<data root>/datasets/chinese-mahjong-detection-v4``, see ``datasets.paths``;
``--src`` names it directly).
"""

from __future__ import annotations

import argparse
import csv
import os
from pathlib import Path

from ..paths import CHINESE_V4, add_data_root_option, data_path
from ...vision.kinds import KINDS, token_for_dataset_name

UNKNOWN = "?"
NAMES = KINDS + [UNKNOWN]
HERE = Path(__file__).resolve().parent


def _names(src: Path) -> list[str]:
    text = (src / "data.yaml").read_text()
    line = next(l for l in text.splitlines() if l.strip().startswith("names:"))
    inner = line.split("[", 1)[1].rsplit("]", 1)[0]
    return [n.strip().strip("'\"") for n in inner.split(",") if n.strip()]


def _load_verdicts(path: Path | None) -> dict[tuple[str, int], str]:
    if path is None:
        return {}
    with open(path) as fh:
        return {(r["image"], int(r["line"])): r["verdict"] for r in csv.DictReader(fh)}


def verdicts_from_record(path: Path) -> dict[tuple[str, int], str]:
    """The sd1 verdicts a change record implies: each recorded sd1 line's new token (``?`` =
    drop), every other sd1 line kept as ``1p`` (the record lists changes only). Lets anyone
    rebuild the shipped cleaning from the committed record without rerunning the judge."""
    out: dict[tuple[str, int], str] = {}
    with open(path) as fh:
        for r in csv.DictReader(fh):
            if r["old"] == "sd1" and r["line"]:
                out[(r["image"], int(r["line"]))] = "drop" if r["new"] == UNKNOWN else r["new"]
    return _KeptAsOnePin(out)


class _KeptAsOnePin(dict):
    """Verdicts where an sd1 line the record does not name was kept as ``1p``."""

    def get(self, key, default=None):
        return super().get(key, "1p")


def clean(src: Path, out: Path, verdicts: dict[tuple[str, int], str]) -> list[tuple]:
    """Clean both splits; return the change records (image, line, old, new, reason)."""
    names = _names(src)
    changes: list[tuple] = []
    for split in ("train", "valid"):
        (out / split / "images").mkdir(parents=True, exist_ok=True)
        (out / split / "labels").mkdir(parents=True, exist_ok=True)
        for lab in sorted((src / split / "labels").glob("*.txt")):
            img = next((src / split / "images").glob(lab.stem + ".*"))
            key = f"{split}/{img.name}"
            lines = [l.split() for l in lab.read_text().splitlines() if l.strip()]
            if not lines:
                changes.append((key, "", "", "", "empty label file: image dropped"))
                continue
            rows = []
            for i, parts in enumerate(lines, start=1):
                name = names[int(parts[0])]
                nums = [float(v) for v in parts[1:]]
                old = " ".join(parts)
                if len(nums) == 4:
                    xc, yc, w, h = nums
                else:
                    xs, ys = nums[0::2], nums[1::2]
                    x1, x2, y1, y2 = min(xs), max(xs), min(ys), max(ys)
                    xc, yc, w, h = (x1 + x2) / 2, (y1 + y2) / 2, x2 - x1, y2 - y1
                    changes.append((key, i, old, f"{name} {xc:.6f} {yc:.6f} {w:.6f} {h:.6f}",
                                    "polygon -> min/max box"))
                if w * 640 < 2 or h * 640 < 2:
                    changes.append((key, i, old, "", "degenerate box dropped"))
                    continue
                token = token_for_dataset_name(name)
                if name == "sd1":
                    verdict = verdicts.get((key, i))
                    if verdict is None:      # not judged (yet): a tile of unknown kind
                        token = UNKNOWN
                    elif verdict == "drop":   # still a tile: the detector keeps it, the classifier not
                        changes.append((key, i, "sd1", UNKNOWN, "sd1 box: classifier unsure, kind dropped (box kept as ?)"))
                        token = UNKNOWN
                    elif verdict != "1p":
                        changes.append((key, i, "sd1", verdict, "sd1 box: classifier relabelled"))
                        token = verdict
                rows.append(f"{NAMES.index(token)} {xc:.6f} {yc:.6f} {w:.6f} {h:.6f}")
            (out / split / "labels" / lab.name).write_text("\n".join(rows) + "\n")
            link = out / split / "images" / img.name
            if not link.exists():
                os.symlink(img, link)
    names_yaml = ", ".join(f"'{n}'" for n in NAMES)
    yaml = (f"# cleaned chinese-mahjong-detection-v4 (CC BY 4.0, Roboflow riichimahjongdetection)\n"
            f"train: train/images\nval: valid/images\nnc: {len(NAMES)}\nnames: [{names_yaml}]\n")
    for folder in (out, out / "train", out / "valid"):    # each split is a YOLO folder of its own
        (folder / "data.yaml").write_text(yaml)
    return changes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_data_root_option(ap)
    ap.add_argument("--src", type=Path, default=None, help="the raw set (default: under the data root)")
    ap.add_argument("--out", type=Path, default=Path("data/clean/chinese-v4"))
    ap.add_argument("--sd1-verdicts", type=Path, default=None)
    ap.add_argument("--record", type=Path, default=HERE / "chinese-v4-changes.csv")
    ap.add_argument("--replay", action="store_true",
                    help="take the sd1 verdicts from the committed record (rebuild the shipped cleaning)")
    args = ap.parse_args()
    src = args.src or data_path(ap, args.data_root, CHINESE_V4)
    verdicts = verdicts_from_record(args.record) if args.replay else _load_verdicts(args.sd1_verdicts)
    changes = clean(src, args.out, verdicts)
    with open(args.record, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["image", "line", "old", "new", "reason"])
        w.writerows(changes)
    reasons: dict[str, int] = {}
    for c in changes:
        reasons[c[4]] = reasons.get(c[4], 0) + 1
    print(f"wrote {args.out}; {len(changes)} changes: {reasons}")


if __name__ == "__main__":
    main()
