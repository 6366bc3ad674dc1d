"""Snapshot what the program answers, to prove a restructure changed nothing.

    python benchmarks/snapshot_outputs.py save /tmp/before      # before the change
    python benchmarks/snapshot_outputs.py save /tmp/after       # after it
    python benchmarks/snapshot_outputs.py compare /tmp/before /tmp/after

``save`` writes ``mjscore scan --json`` of every bundled photo (``samples/``) and the engine's
answer to every case of ``tests/data/cases.json``; ``compare`` says which differ, ignoring
timing fields (``timing_ms``, ``seconds``), and exits 1 when any does."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TIMING = ("timing_ms", "seconds")


def save(out: Path) -> int:
    from mjscore.scoring import score_request

    out.mkdir(parents=True, exist_ok=True)
    photos = sorted((ROOT / "samples").glob("*/*.jpg")) + sorted((ROOT / "samples").glob("*/images/*.jpg"))
    for photo in photos:
        run = subprocess.run([sys.executable, "-m", "mjscore.cli", "scan", str(photo.relative_to(ROOT)), "--json"],
                             capture_output=True, text=True, timeout=300, cwd=ROOT)
        (out / f"{photo.name}.json").write_text(run.stdout, encoding="utf-8")
    cases = json.loads((ROOT / "tests" / "data" / "cases.json").read_text(encoding="utf-8"))
    answers = {c["id"]: score_request({**c["input"], "ruleset": c["ruleset"]}) for c in cases}
    (out / "cases_out.json").write_text(json.dumps(answers, indent=1, sort_keys=True), encoding="utf-8")
    print(f"{len(photos)} photos and {len(cases)} cases saved in {out}")
    return 0


def _strip(value):
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in value.items() if k not in TIMING}
    if isinstance(value, list):
        return [_strip(v) for v in value]
    return value


def _load(path: Path):
    text = path.read_text(encoding="utf-8")
    try:
        return _strip(json.loads(text))
    except ValueError:                       # one JSON document a line
        return [_strip(json.loads(line)) for line in text.splitlines() if line.strip()]


def compare(before: Path, after: Path) -> int:
    files = sorted(before.glob("*.json"))
    differ = [f.name for f in files if not (after / f.name).exists() or _load(f) != _load(after / f.name)]
    for name in differ:
        print("DIFF", name)
    print(f"{len(files)} files compared, {len(differ)} differ")
    return 1 if differ else 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="verb", required=True)
    sub.add_parser("save").add_argument("out", type=Path)
    cmp = sub.add_parser("compare")
    cmp.add_argument("before", type=Path)
    cmp.add_argument("after", type=Path)
    args = parser.parse_args(argv)
    return save(args.out) if args.verb == "save" else compare(args.before, args.after)


if __name__ == "__main__":
    sys.exit(main())
