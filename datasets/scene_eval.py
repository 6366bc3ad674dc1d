"""How often photo -> hand is exactly right, and where it goes wrong, on labelled scenes.

    python -m mjscore.datasets.scene_eval make data/scenes --count 80      # render labelled scenes
    python -m mjscore.datasets.scene_eval samples/synthetic [--out report.json] [--limit N]

``make`` renders the spec's worked single-hand cases (``--cases FILE``, by default the spec's
own ``<data root>/spec/cases.json``, see ``datasets.paths``; DECISION: the worked cases stay
the spec's, read from where the spec lives, never from the tests' copy) with the
synthetic generator (``datasets.synth.hand_scene``): one or two rows, flat or standing,
sideways claimed tiles, declared kongs face down at the ends, any rotation; ``hands.json``
keeps each scene's hand, context, expected score and true tiles.

A scene folder holds photos and ``hands.json`` with the true hand of each (the synthetic
generator writes it). For every scene three things are compared with the truth:

- ``layout``: the layout step alone on the scene's true tiles (its label boxes), when given;
- ``end_to_end``: the recognizer's tiles, grouped: the hand notation must match exactly;
- where end-to-end fails, the first stage that went wrong: ``photo_error``, ``detection``
  (a different number of tiles), ``recognition`` (same count, other kinds), ``grouping``
  (the right tiles, grouped differently).

Hand notation is compared in canonical form, as the scoring engine's parser reads it (groups
sorted, tiles in the engine's order inside a group, the concealed part as a multiset), so ``[EEE] RRR 234m`` equals ``234m RRR [EEE]``."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from .paths import CASES, add_data_root_option, data_path
from .synth.art import ART_CHOICES, mark_held_out
from ..scoring.notation import parse_hand, parse_tiles
from ..scoring.tiles import sort_key
from ..vision.types import TileRead


@dataclass
class Scene:
    photo: Path
    notation: str                   # the true hand as laid out (no +winning tile)
    context: dict = field(default_factory=dict)
    tiles: list[TileRead] | None = None
    final: int | None = None         # expected final score with the context


def canonical(notation: str) -> tuple:
    """Order-free form of a hand as the scoring engine reads it (aliases such as the Dutch
    letters resolved, tiles in the engine's order inside each group): the sorted groups as
    (bracket kind, tokens), the concealed multiset, the winning tile, the sorted bonus tiles."""
    hand = parse_hand(notation)
    groups = tuple(sorted((g.kind, g.tokens) for g in hand.groups))
    return groups, tuple(sorted(hand.concealed, key=sort_key)), hand.winning_tile, tuple(sorted(hand.bonus))


def _first(d: dict, *keys, default=None):
    for k in keys:
        if k in d and d[k] not in (None, ""):
            return d[k]
    return default


def load_scenes(folder: str | Path) -> list[Scene]:
    """Scenes from ``hands.json`` (a list, or ``{"scenes": [...]}``): photo file name, the
    true hand notation, optional context and optional true tiles (kind, box, angle)."""
    folder = Path(folder)
    if (folder / "hands.json").exists():
        data = json.loads((folder / "hands.json").read_text())
    else:                                       # datasets.synth.hand_set writes JSON Lines
        data = [json.loads(x) for x in (folder / "hands.jsonl").read_text().splitlines() if x.strip()]
    if isinstance(data, dict):
        data = _first(data, "scenes", "hands", "photos", default=[])
    scenes = []
    for item in data:
        photo = folder / _first(item, "image", "photo", "file")
        notation = _first(item, "layout_notation", "notation", "hand")
        ctx = dict(_first(item, "context", default={}) or {})
        if isinstance(item.get("input"), dict) and "hand" in item["input"]:      # a worked case
            hand = item["input"]["hand"]
            ctx = {"seat_wind": hand.get("seat_wind"), "prevailing_wind": item["input"].get("prevailing_wind"),
                   "winning_tile": hand.get("winning_tile"), "win_type": hand.get("win_type"),
                   "ruleset": item.get("ruleset", "nts"), "special": hand.get("special", [])}
            expected = item.get("expected") or {}
            item = dict(item, final=expected.get("final") if expected.get("valid") else None)
        for k in ("seat", "seat_wind", "prevailing_wind", "wind", "winning_tile", "win_type", "ruleset"):
            if k in item and k not in ctx:
                ctx[k] = item[k]
        tiles = None
        raw = _first(item, "tiles", "labels")
        if isinstance(raw, list) and raw and isinstance(raw[0], dict) and "box" in raw[0]:
            tiles = [TileRead(t["kind"], tuple(float(v) for v in t["box"]), 1.0, (), int(t.get("angle", 0)))
                     for t in raw]
        scenes.append(Scene(photo, notation, ctx, tiles, item.get("final")))
    return scenes


_LABEL_CACHE: dict[str, dict[str, Scene]] = {}


def recognize_from_labels(path: str):
    """A stand-in recognizer that returns a scene's true tiles from its folder's hands.json:
    measures layout + scoring alone (``bench_batch.py --recognizer mjscore.datasets.scene_eval:recognize_from_labels``)."""
    from ..vision.types import PhotoRead
    p = Path(path)
    folder = str(p.parent.resolve())
    if folder not in _LABEL_CACHE:
        _LABEL_CACHE[folder] = {s.photo.name: s for s in load_scenes(p.parent)}
    scene = _LABEL_CACHE[folder].get(p.name)
    if scene is None or scene.tiles is None:
        raise ValueError(f"{p.name} has no labelled tiles in {folder}/hands.json")
    return PhotoRead(str(path), 0, 0, list(scene.tiles))


def manifest_rows(scenes: list[Scene]) -> list[dict]:
    """The scenes as batch manifest rows (context where the scene gives it)."""
    rows = []
    for s in scenes:
        c = s.context
        rows.append({"photo": str(s.photo), "seat": _first(c, "seat", "seat_wind", default=""),
                     "wind": _first(c, "prevailing_wind", "wind", default=""),
                     "win_type": c.get("win_type", ""), "winning_tile": c.get("winning_tile", ""),
                     "ruleset": c.get("ruleset", "nts-app"), "special": ";".join(c.get("special", []))})
    return rows


def _truth_without_winning(notation: str) -> tuple:
    melds, concealed, winning, bonus = canonical(notation)
    if winning:                                     # the photo shows the winning tile among the rest
        concealed = tuple(sorted(concealed + (winning,), key=sort_key))
    return (melds, concealed, None, bonus)


def _result(scene: Scene, layout, alternatives: bool = False):
    """The scan result of a grouped scene with its context (no context: grouping only)."""
    from ..handscan.context import make_context
    from ..handscan.pipeline import evaluate
    c = scene.context
    ctx = make_context()
    if c.get("winning_tile"):
        ctx = make_context(_first(c, "seat_wind", "seat"), _first(c, "prevailing_wind", "wind"), c["winning_tile"],
                           c.get("win_type"), c.get("ruleset", "nts"), c.get("special", []))
    return evaluate(str(scene.photo), layout, ctx, alternatives=alternatives)


def _score(scene: Scene, layout) -> int | None:
    """Final score of a grouped scene with its context (None when not valid / no context)."""
    return _result(scene, layout).final


def diagnose(scene: Scene, recognize=None, truth_only: bool = False) -> dict:
    """One scene: layout-on-truth result, end-to-end result and the failing stage."""
    from ..handscan.pipeline import read_photo
    from ..vision.layout import group_tiles
    truth = _truth_without_winning(scene.notation)
    out = {"photo": scene.photo.name, "truth": scene.notation}
    if scene.final is not None:
        out["expected_final"] = scene.final
    if scene.tiles is not None:
        lay = group_tiles(scene.tiles)
        out["layout_on_truth"] = lay.notation
        out["layout_ok"] = canonical(lay.notation) == truth
        if scene.final is not None:
            out["final_on_truth"] = _score(scene, lay)
    if truth_only:
        return out
    read = read_photo(scene.photo, recognize)
    if read.error:
        out.update(read=None, ok=False, stage="photo_error", error=read.error)
        return out
    if scene.tiles is not None:
        relabelled = _true_kinds_on_detections(read.tiles, scene.tiles)
        if relabelled is not None:                   # every tile found once: grouping on detector boxes
            out["layout_on_detections_ok"] = canonical(group_tiles(relabelled).notation) == truth
    lay = group_tiles(read.tiles)
    out["read"] = lay.notation
    out["ok"] = canonical(lay.notation) == truth
    res = _result(scene, lay, alternatives=True)
    if scene.final is not None:
        out["final"] = res.final
    if res.proposal is not None:                 # the most probable valid reading, flagged
        out["proposal"] = res.proposal.notation
        out["proposal_ok"] = _truth_without_winning(res.proposal.notation) == truth
    # does the user get told? doubtful tiles, layout notes, or no valid hand
    out["flagged"] = bool(res.low_confidence or res.warnings or (res.score is not None and not res.valid))
    if out["ok"]:
        out["stage"] = None
        return out
    true_tiles = Counter(t for _, tokens in truth[0] for t in tokens) + Counter(truth[1]) + Counter(truth[3])
    read_tiles = Counter(t.kind for t in read.tiles)
    if sum(read_tiles.values()) != sum(true_tiles.values()):
        out["stage"] = "detection"
        out["tile_count"] = [sum(read_tiles.values()), sum(true_tiles.values())]
    elif read_tiles != true_tiles:
        out["stage"] = "recognition"
        out["misread"] = {"read": sorted((read_tiles - true_tiles).elements()),
                          "true": sorted((true_tiles - read_tiles).elements())}
    else:
        out["stage"] = "grouping"
    return out


def _iou(a, b) -> float:
    from ..vision.boxes import iou
    return iou(a, b)


def _true_kinds_on_detections(reads: list[TileRead], truth: list[TileRead]) -> list[TileRead] | None:
    """The detector's boxes (and angles) with the true kinds, when every true tile matches
    exactly one detection (IoU >= 0.4) and nothing else was detected; else None."""
    from dataclasses import replace
    if len(reads) != len(truth):
        return None
    pairs = sorted(((_iou(r.box, t.box), i, j) for i, r in enumerate(reads) for j, t in enumerate(truth)), reverse=True)
    used_r, used_t, out = set(), set(), list(reads)
    for iou, i, j in pairs:
        if iou < 0.4:
            break
        if i in used_r or j in used_t:
            continue
        used_r.add(i)
        used_t.add(j)
        out[i] = replace(reads[i], kind=truth[j].kind)
    return out if len(used_r) == len(reads) else None


def evaluate_scenes(scenes: list[Scene], recognize=None, truth_only: bool = False) -> dict:
    rows = [diagnose(s, recognize, truth_only) for s in scenes]
    n = len(rows)
    e2e = [r for r in rows if "ok" in r]
    stages = Counter(r["stage"] for r in e2e if not r["ok"])
    layout_rows = [r for r in rows if "layout_ok" in r]
    scored = [r for r in rows if "expected_final" in r]
    report = {
        "scenes": n,
        "end_to_end_exact": sum(r["ok"] for r in e2e) if e2e else None,
        "end_to_end_share": round(sum(r["ok"] for r in e2e) / len(e2e), 3) if e2e else None,
        "proposal_right": sum(bool(r.get("proposal_ok")) for r in e2e),
        "exact_or_proposal_right": sum(bool(r["ok"] or r.get("proposal_ok")) for r in e2e),
        "end_to_end_final_right": sum(r.get("final") == r["expected_final"] for r in scored) if e2e else None,
        "failures_by_stage": dict(stages),
        "wrong_and_unflagged": sum(1 for r in e2e if not r["ok"] and not r.get("flagged")),
        "right_but_flagged": sum(1 for r in e2e if r["ok"] and r.get("flagged")),
        "final_on_true_tiles_right": (sum(r.get("final_on_truth") == r["expected_final"] for r in scored)
                                      if scored and layout_rows else None),
        "detected_exactly_once": sum("layout_on_detections_ok" in r for r in rows),
        "layout_on_detector_boxes_exact": sum(r.get("layout_on_detections_ok", False) for r in rows),
        "layout_on_true_tiles_exact": sum(r["layout_ok"] for r in layout_rows) if layout_rows else None,
        "layout_on_true_tiles_share": (round(sum(r["layout_ok"] for r in layout_rows) / len(layout_rows), 3)
                                       if layout_rows else None),
        "rows": rows,
    }
    return report


def _scene_notation(notation: str) -> str:
    """Declared kongs written with all faces (``{7777p}``) are laid with the outer tiles face
    down, as a photo shows them; the engine scores both the same."""
    import re
    def face_down(m):
        toks = parse_tiles(m.group(1))
        if "X" in toks or len(toks) != 4:
            return m.group(0)
        t = toks[0]
        return "{X" + (t[0] + t if len(t) == 2 and t[0].isdigit() else t + t) + "X}"
    return re.sub(r"\{([^}]*)\}", face_down, notation)


def make_scenes(out: Path, count: int, cases_file: Path, seed: int = 0, size: int = 960,
                art: str = "all") -> list[dict]:
    """Render ``count`` scenes of the worked cases in ``cases_file`` into ``out`` with ``hands.json``
    (``art="unseen"``: in the held-out face design, ``synth.unseen_faces``)."""
    import numpy as np
    from .synth.hand_layout import parse_notation
    from .synth.hand_scene import render_hand
    cases = [c for c in json.loads(cases_file.read_text(encoding="utf-8"))
             if "hand" in c["input"] and c["expected"].get("valid") and c.get("notation")]
    rng = np.random.default_rng(seed)
    out.mkdir(parents=True, exist_ok=True)
    mark_held_out(out, art)
    entries = []
    for i in range(count):
        case = cases[i % len(cases)]
        notation = _scene_notation(case["notation"])
        layout = parse_notation(notation)
        layout.rows = int(rng.choice([1, 2]))
        layout.standing = bool(rng.random() < 0.25)
        if rng.random() < 0.4:
            open_sets = [m for m in layout.melds if not m.concealed]
            if open_sets:
                open_sets[int(rng.integers(len(open_sets)))].sideways = int(rng.integers(3))
        image, tiles, meta = render_hand(layout, seed=seed * 10_000 + i, size=size, art=art)
        name = f"scene_{i:03d}.jpg"
        import cv2
        cv2.imwrite(str(out / name), image[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, 88])
        hand = case["input"]["hand"]
        entries.append({
            "image": name, "case": case["id"], "notation": notation,
            "context": {"seat_wind": hand["seat_wind"], "prevailing_wind": case["input"]["prevailing_wind"],
                        "winning_tile": hand["winning_tile"], "win_type": hand["win_type"],
                        "ruleset": case["ruleset"], "special": hand.get("special", [])},
            "final": case["expected"]["final"],
            "rows": layout.rows, "standing": layout.standing, "rotation": meta["rotation"],
            "missing": meta["missing"],
            "tiles": [{"kind": t["kind"], "box": t["box"], "angle": t["angle"]} for t in meta["tiles"]],
        })
        (out / "hands.json").write_text(json.dumps(entries, indent=1))
    return entries


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "make":
        mp = argparse.ArgumentParser(description="Render labelled hand scenes of the worked cases.")
        mp.add_argument("out", type=Path)
        mp.add_argument("--count", type=int, default=80)
        mp.add_argument("--seed", type=int, default=0)
        mp.add_argument("--size", type=int, default=960)
        mp.add_argument("--art", choices=ART_CHOICES, default="all",
                        help="'unseen': the held-out face design (evaluation only)")
        mp.add_argument("--cases", type=Path, default=None, help="worked cases (default: <data root>/spec/cases.json)")
        add_data_root_option(mp)
        margs = mp.parse_args(argv[1:])
        cases = margs.cases or data_path(mp, margs.data_root, CASES)
        entries = make_scenes(margs.out, margs.count, cases, margs.seed, margs.size, margs.art)
        print(f"wrote {len(entries)} scenes to {margs.out}")
        return 0
    ap = argparse.ArgumentParser(description="Exact-hand accuracy of photo -> hand on labelled scenes.")
    ap.add_argument("folder", type=Path)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--limit", type=int)
    ap.add_argument("--truth-only", action="store_true", help="only the layout step on the true tiles")
    args = ap.parse_args(argv)
    if not (args.folder / "hands.json").exists() and not (args.folder / "hands.jsonl").exists():
        print(f"error: {args.folder} has no hands.json or hands.jsonl", file=sys.stderr)
        return 2
    scenes = load_scenes(args.folder)[: args.limit]
    report = evaluate_scenes(scenes, truth_only=args.truth_only)
    if args.out:
        args.out.write_text(json.dumps(report, indent=2))
    summary = {k: v for k, v in report.items() if k != "rows"}
    print(json.dumps(summary, indent=2))
    for r in report["rows"]:
        if "layout_ok" in r and not r["layout_ok"]:
            print(f"  {r['photo']}: layout on true tiles {r['layout_on_truth']!r}, true {r['truth']!r}")
        if "ok" in r and not r["ok"]:
            print(f"  {r['photo']}: {r['stage']}: read {r.get('read')!r}, true {r['truth']!r}"
                  + (f" {r.get('misread')}" if r.get("misread") else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
