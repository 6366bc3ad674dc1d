"""Judge one or more models folders on issue 17's evaluation sets in one command, side by side.

Why: every candidate network or setting since session 7 was read on the same sets by scripts
kept in /tmp that did not outlive their session; a model file is committed only with the
command that evaluates it, and a session lent a GPU has little time left after training. This
runs each (models folder, set) job as its own process (``MJSCORE_MODELS_DIR``, one ONNX thread
each) in ``--lanes`` parallel lanes, longest first, keeps each job's output under ``--out``
(a finished job is not run again, so a cut session resumes), and prints one table.

Choice sets (to choose between candidates): synth_choose, chinese-v4 valid and its far-off
copies, the hands of seed 2 up close and far off, the synthetic close-ups (and at phone size),
the close-up set's chinese-v4 parts. ``--report`` adds the sets only ever reported, read after
the choice: the synthetic hold-out, leo-riichi-v5, the hands of seed 1 up close and far off,
the close-up set as a whole and its leo parts. Without ``--report`` no leo figure is printed.

    python benchmarks/judge_models.py --models models --models /tmp/cand --out runs/judge
    python benchmarks/judge_models.py --models models --models /tmp/cand --out runs/judge --report --data-root DIR

The sets are made by the commands in models/README.md; a set not on disk is shown as ``-``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

EVAL = [sys.executable, "-m", "mjscore.cli", "eval"]
SCENES = [sys.executable, "-m", "mjscore.datasets.scene_eval"]
CLOSEUPS = [sys.executable, "-m", "mjscore.datasets.closeup_eval", "report"]


def jobs(report: bool, data_root: Path | None) -> list[tuple[str, list[str], Path, int]]:
    """(name, command, folder it reads, rough minutes on one core) of each set to read."""
    choice = [
        ("synth_choose", EVAL + ["--json"], Path("data/eval/synth_choose"), 2),
        ("v4_valid", EVAL + ["--json"], Path("data/clean/chinese-v4/valid"), 4),
        ("v4_far_off", EVAL + ["--json"], Path("data/eval/v4_far_off"), 6),
        ("hands2", SCENES, Path("data/eval/scenes_choose"), 4),
        ("hands2_far", SCENES, Path("data/eval/scenes_far_off"), 5),
        ("closeup_synth", CLOSEUPS, Path("data/eval/closeup_synth"), 3),
        ("closeup_big", CLOSEUPS, Path("data/eval/closeup_big"), 4),
        ("closeup", CLOSEUPS, Path("data/eval/closeup"), 6),
    ]
    if not report:
        return choice
    leo = (data_root or Path(os.environ.get("MJSCORE_DATA_ROOT", "../shared"))) / "datasets/leo-riichi-v5"
    return choice + [
        ("holdout", EVAL + ["--json"], Path("data/eval/synth_holdout"), 2),
        ("leo", EVAL + ["--json"], leo, 3),
        ("hands1", SCENES, Path("data/scenes"), 4),
        ("hands1_far", SCENES, Path("data/eval/scenes1_far_off"), 5),
    ]


def run_job(models: Path, name: str, command: list[str], folder: Path, out: Path) -> Path:
    """Run one job unless its output is already complete; the output file is written whole
    (``.part`` renamed) only when the command ends well."""
    target = out / f"{models.name}.{name}.txt"
    if target.exists() or not folder.exists():
        return target
    env = dict(os.environ, MJSCORE_MODELS_DIR=str(models.resolve()), MJSCORE_ORT_THREADS="1")
    part = target.with_suffix(".part")
    with open(part, "w") as fh, open(target.with_suffix(".err"), "w") as err:
        rc = subprocess.run(command + [str(folder)], stdout=fh, stderr=err, env=env).returncode
    if rc == 0:
        part.rename(target)
    return target


def tile_figures(text: str) -> str:
    """``mjscore eval --json`` -> 'F1 (X found of all; flowers/seasons right of found)'."""
    d = json.loads(text)
    kinds = d["per_kind_accuracy"]
    x = kinds.get("X", {"matched": 0, "missed": 0})
    bonus = [v for k, v in kinds.items() if k[0] in "fj"]
    found = sum(v["matched"] for v in bonus)
    right = sum(v["accuracy"] * v["matched"] for v in bonus)
    extra = f"X {x['matched']}/{x['matched'] + x['missed']}" if x["matched"] + x["missed"] else ""
    if found:
        extra += f"{'; ' if extra else ''}bonus {right / found:.3f} of {found}"
    return f"{d['tile_f1']:.4f}" + (f" ({extra})" if extra else "") + f" w>=.6 {d['wrong_shown_confident']:.2f}"


def hand_figures(text: str) -> str:
    """``scene_eval`` (a JSON object, then one line per failed hand) -> 'exact + proposal = right (wrong unflagged)'."""
    d = json.loads(text[:text.index("\n}") + 2])
    return (f"{d['end_to_end_exact']} + {d['proposal_right']} = {d['exact_or_proposal_right']}"
            f" ({d['wrong_and_unflagged']})")


def closeup_figures(text: str, parts: tuple[str, ...]) -> str:
    """``closeup_eval report`` -> the F1 of each named part ('all', 'v4-crops', ...) with its
    share of wrong tiles shown >= 0.6."""
    found = {}
    for line in text.splitlines():
        if line[:1].strip() and "F1" in line:
            words = line.split()
            found[words[0]] = f"{words[words.index('F1') + 1]} ({words[words.index('wrong>=0.6') + 1]})"
    return " / ".join(found.get(p, "-") for p in parts)


def row_figures(name: str, text: str, report: bool) -> str:
    if name in ("hands1", "hands2", "hands1_far", "hands2_far"):
        return hand_figures(text)
    if name == "closeup":
        return closeup_figures(text, ("v4-crops", "v4-pasted") + (("all", "leo-crops", "leo-pasted") if report else ()))
    if name in ("closeup_synth", "closeup_big"):
        return closeup_figures(text, ("all",))
    return tile_figures(text)


def table(models: list[Path], names: list[str], out: Path, report: bool) -> str:
    lines = ["| set | " + " | ".join(m.name for m in models) + " |", "|---" * (len(models) + 1) + "|"]
    for name in names:
        cells = []
        for m in models:
            f = out / f"{m.name}.{name}.txt"
            try:
                cells.append(row_figures(name, f.read_text(), report) if f.exists() else "-")
            except (ValueError, KeyError) as exc:
                cells.append(f"unreadable ({exc.__class__.__name__})")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--models", type=Path, action="append", required=True, help="a models folder (repeat)")
    ap.add_argument("--out", type=Path, default=Path("runs/judge"))
    ap.add_argument("--lanes", type=int, default=4)
    ap.add_argument("--report", action="store_true", help="also the report-only sets (after the choice)")
    ap.add_argument("--data-root", type=Path, default=None, help="folder holding datasets/ (for leo)")
    args = ap.parse_args(argv)
    if len({m.name for m in args.models}) != len(args.models):
        ap.error("give each models folder a different name: the outputs are named by it")
    args.out.mkdir(parents=True, exist_ok=True)
    todo = jobs(args.report, args.data_root)
    work = sorted(((m, *j) for m in args.models for j in todo), key=lambda w: -w[4])
    with ThreadPoolExecutor(args.lanes) as pool:
        for done in pool.map(lambda w: run_job(w[0], w[1], w[2], w[3], args.out), work):
            print(f"done {done.name}", file=sys.stderr, flush=True)
    print(table(args.models, [j[0] for j in todo], args.out, args.report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
