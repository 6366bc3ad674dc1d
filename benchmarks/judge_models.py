"""Judge one or more models folders on issue 17's evaluation sets in one command, side by side.

Why: every candidate network or setting since session 7 was read on the same sets by scripts
kept in /tmp that did not outlive their session; a model file is committed only with the
command that evaluates it, and a session lent a GPU has little time left after training. This
runs each (models folder, set) job as its own process (``MJSCORE_MODELS_DIR``, one ONNX thread
each) in ``--lanes`` parallel lanes, longest first, keeps each job's output under ``--out``
(a finished job is not run again, so a cut session resumes), and prints one table.

Choice sets (to choose between candidates): synth_choose, chinese-v4 valid and its far-off
copies, the hands of seed 2 up close and far off, the synthetic close-ups (and at phone size),
the close-up set's chinese-v4 parts, and the two sets in the held-out face design
(``--art unseen``: scenes of seed 107 and hands of seed 3, which no network was ever trained
on; the training code refuses them). ``--report`` adds the sets only ever reported, read after
the choice: the synthetic hold-out, leo-riichi-v5, the hands of seed 1 up close and far off,
the close-up set as a whole and its leo parts. Without ``--report`` no leo figure is printed.

    python benchmarks/judge_models.py --models models --models /tmp/cand --out runs/judge
    python benchmarks/judge_models.py --models models --models /tmp/cand --out runs/judge --report --data-root DIR

The sets are made by ``sh datasets/rebuild_eval.sh DATA_ROOT`` (one resumable command, the lines of
models/README.md that made each set); a set not on disk is shown as ``-``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Callable

from mjscore.scoring.tiles import is_bonus

EVAL = [sys.executable, "-m", "mjscore.cli", "eval"]
SCENES = [sys.executable, "-m", "mjscore.datasets.scene_eval"]
CLOSEUPS = [sys.executable, "-m", "mjscore.datasets.closeup_eval", "report"]


@dataclass(frozen=True)
class Job:
    """One set to read: its name in the table, the command (the folder is appended), the folder,
    rough minutes on one core (longest first), and how its output becomes the table's cell."""
    name: str
    command: list[str]
    folder: Path
    minutes: int
    figures: Callable[[str], str]


def jobs(report: bool, data_root: Path | None) -> list[Job]:
    """The choice sets, and with ``report`` the report sets after them."""
    def tiles(name, folder, minutes):
        return Job(name, EVAL + ["--json"], Path(folder), minutes, tile_figures)

    def hands(name, folder, minutes):
        return Job(name, SCENES, Path(folder), minutes, hand_figures)

    def closeups(name, folder, minutes, parts):
        return Job(name, CLOSEUPS, Path(folder), minutes, partial(closeup_figures, parts=parts))

    choice = [
        tiles("synth_choose", "data/eval/synth_choose", 2),
        tiles("unseen_design", "data/eval/synth_unseen", 2),
        tiles("v4_valid", "data/clean/chinese-v4/valid", 4),
        tiles("v4_far_off", "data/eval/v4_far_off", 6),
        hands("hands2", "data/eval/scenes_choose", 4),
        hands("hands2_far", "data/eval/scenes_far_off", 5),
        hands("hands3_unseen", "data/eval/scenes_unseen", 4),
        closeups("closeup_synth", "data/eval/closeup_synth", 3, ("all",)),
        closeups("closeup_big", "data/eval/closeup_big", 4, ("all",)),
        closeups("closeup", "data/eval/closeup", 6,
                 ("v4-crops", "v4-pasted") + (("all", "leo-crops", "leo-pasted") if report else ())),
    ]
    if not report:
        return choice
    leo = (data_root or Path(os.environ.get("MJSCORE_DATA_ROOT", "../shared"))) / "datasets/leo-riichi-v5"
    return choice + [
        tiles("holdout", "data/eval/synth_holdout", 2),
        tiles("leo", leo, 3),
        hands("hands1", "data/scenes", 4),
        hands("hands1_far", "data/eval/scenes1_far_off", 5),
    ]


def run_job(models: Path, job: Job, out: Path) -> Path:
    """Run one job unless its output is already complete; the output file is written whole
    (``.part`` renamed) only when the command ends well."""
    target = out / f"{models.name}.{job.name}.txt"
    if target.exists() or not job.folder.exists():
        return target
    env = dict(os.environ, MJSCORE_MODELS_DIR=str(models.resolve()), MJSCORE_ORT_THREADS="1")
    part = target.with_suffix(".part")
    with open(part, "w") as fh, open(target.with_suffix(".err"), "w") as err:
        rc = subprocess.run(job.command + [str(job.folder)], stdout=fh, stderr=err, env=env).returncode
    if rc == 0:
        part.rename(target)
    return target


def tile_figures(text: str) -> str:
    """``mjscore eval --json`` -> 'F1 (X found of all; flowers/seasons right of found)'."""
    d = json.loads(text)
    kinds = d["per_kind_accuracy"]
    x = kinds.get("X", {"matched": 0, "missed": 0})
    bonus = [v for k, v in kinds.items() if is_bonus(k)]
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


def table(models: list[Path], todo: list[Job], out: Path) -> str:
    lines = ["| set | " + " | ".join(m.name for m in models) + " |", "|---" * (len(models) + 1) + "|"]
    for job in todo:
        cells = []
        for m in models:
            f = out / f"{m.name}.{job.name}.txt"
            try:
                cells.append(job.figures(f.read_text()) if f.exists() else "-")
            except (ValueError, KeyError) as exc:
                cells.append(f"unreadable ({exc.__class__.__name__})")
        lines.append(f"| {job.name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--models", type=Path, action="append", required=True, help="a models folder (repeat)")
    ap.add_argument("--out", type=Path, default=Path("runs/judge"))
    ap.add_argument("--lanes", type=int, default=4)
    ap.add_argument("--report", action="store_true", help="also the report-only sets (after the choice)")
    ap.add_argument("--data-root", type=Path, default=None, help="folder holding datasets/ (for leo)")
    ap.add_argument("--only", default="", metavar="SET,...",
                    help="read only these sets (names as in the table), e.g. to sort out candidates on the "
                         "quick ones first; the rest can follow in a later run into the same --out")
    args = ap.parse_args(argv)
    if len({m.name for m in args.models}) != len(args.models):
        ap.error("give each models folder a different name: the outputs are named by it")
    args.out.mkdir(parents=True, exist_ok=True)
    todo = jobs(args.report, args.data_root)
    if args.only:
        wanted = [n for n in args.only.split(",") if n]
        unknown = sorted(set(wanted) - {j.name for j in todo})
        if unknown:
            ap.error(f"--only: no set named {unknown} (sets: {', '.join(j.name for j in todo)})")
        todo = [j for j in todo if j.name in wanted]
    work = sorted(((m, j) for m in args.models for j in todo), key=lambda w: -w[1].minutes)
    with ThreadPoolExecutor(args.lanes) as pool:
        for done in pool.map(lambda w: run_job(*w, args.out), work):
            print(f"done {done.name}", file=sys.stderr, flush=True)
    print(table(args.models, todo, args.out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
