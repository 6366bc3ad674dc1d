"""Worked hands with flowers and seasons, for photos where a bonus tile's kind moves the score.

    python -m mjscore.datasets.bonus_hands --out data/eval/bonus_cases.json --count 60 --seed 7
    python -m mjscore.datasets.scene_eval make data/eval/bonus_hands --cases data/eval/bonus_cases.json --count 60 --seed 7
    python -m mjscore.datasets.scene_eval data/eval/bonus_hands

Why: the spec's worked cases hold only three hands with bonus tiles, too few to see how often a
flower read as another (a season read as the player's own flower doubles the score) reaches the
player unflagged. Each case here is a valid worked hand of the spec (`nts`) scored under
`nts-app` with one to four random flowers/seasons laid aside and a random seat; its expected
final score is the engine's on the true hand (the engine itself is checked by the spec's 89
cases; this set checks the photo reading, not the rules). Same case file layout as the spec's
``cases.json``, so ``scene_eval make --cases`` renders it.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from .paths import CASES, add_data_root_option, data_path
from ..handscan.context import make_context
from ..handscan.hand import score
from ..scoring.notation import parse_hand

BONUS_KINDS = ["f1", "f2", "f3", "f4", "j1", "j2", "j3", "j4"]
WINDS = ["E", "S", "W", "N"]


def bonus_cases(spec_cases: list[dict], count: int, seed: int) -> list[dict]:
    """``count`` cases: spec hands (valid, single hand, no bonus tiles yet) with bonus tiles added."""
    rng = random.Random(seed)
    base = [c for c in spec_cases if "hand" in c["input"] and c["expected"].get("valid") and c.get("notation")
            and "/" not in c["notation"] and c["ruleset"] in ("nts", "nts-app")]
    out = []
    while len(out) < count:
        case = base[len(out) % len(base)] if len(out) < len(base) else rng.choice(base)
        bonus = sorted(rng.sample(BONUS_KINDS, rng.choice([1, 1, 2, 2, 3, 4])))
        notation = f"{case['notation']} / {' '.join(bonus)}"
        hand = dict(case["input"]["hand"], seat_wind=rng.choice(WINDS))
        ctx = make_context(hand["seat_wind"], case["input"]["prevailing_wind"], hand["winning_tile"],
                           hand["win_type"], "nts-app", hand.get("special", []))
        answer = score(parse_hand(notation), ctx)
        if not answer.valid:                 # a seat-bound special condition, say: draw again
            continue
        out.append({"id": f"BONUS-{len(out):03d}-{case['id']}", "ruleset": "nts-app", "notation": notation,
                    "input": {"prevailing_wind": case["input"]["prevailing_wind"], "hand": hand},
                    "expected": {"valid": True, "final": answer.final}})
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[1])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--count", type=int, default=60)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--cases", type=Path, default=None, help="worked cases (default: <data root>/spec/cases.json)")
    add_data_root_option(ap)
    args = ap.parse_args(argv)
    spec = json.loads((args.cases or data_path(ap, args.data_root, CASES)).read_text(encoding="utf-8"))
    cases = bonus_cases(spec, args.count, args.seed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(cases, indent=1), encoding="utf-8")
    print(f"wrote {len(cases)} cases to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
