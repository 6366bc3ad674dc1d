"""Long fuzz run of the scoring engine's edges (issue 14): notation and JSON requests through
the Python API and the CLI, counting tracebacks, exceptions and exit codes other than the
documented ones (0 valid, 1 refused hand, 2 bad input: docs/scoring.md).

    python benchmarks/fuzz_scoring.py --count 10000            # 10,000 notations, 5,000 requests
    python benchmarks/fuzz_scoring.py --count 500 --subprocess 20 --seed 7

Inputs grow from the worked cases in tests/data/cases.json (mutated, truncated, types
swapped, nested deep, huge numbers, unicode) plus random text. The CLI part runs in-process
(typer's CliRunner) except for ``--subprocess`` real ``python -m mjscore.cli`` runs.
Exits 1 when anything was found, printing the first examples."""

from __future__ import annotations

import argparse
import copy
import json
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import typer.testing
from typer.testing import CliRunner

from mjscore.cli import app
from mjscore.scoring import NotationError, format_hand, parse_hand, score_request
from mjscore.scoring.validate import kongs, tile_total

CASES = json.loads((Path(__file__).resolve().parent.parent / "tests" / "data" / "cases.json")
                   .read_text(encoding="utf-8"))
ODD = ["²", "١", "①", "𝟙", "５", "Ⅳ", "\u0301", "\x00", "\n", "\t", "\u00a0", "\u2003", "ẞ", "İ", "ﬀ",
       "🀄", "\ufeff", "\u202e", "é", "Ｅ", "\U000e0041"]
PLAIN = list("123456789mpsESWNRGCFPXfj[]{}()+/ ") + ["Wh", "0", "M", "P", "S", "z", "h", "#", "-", "."]
SURROGATE = "\ud800"                     # only in-process: argv and files cannot hold one


# -- notation ----------------------------------------------------------------------------

def _hand_notation(hand: dict) -> str:
    if "notation" in hand:
        return hand["notation"]
    parts = list(hand.get("melds", [])) + [hand.get("concealed", "")]
    if hand.get("winning_tile"):
        parts.append("+" + hand["winning_tile"])
    if hand.get("bonus"):
        parts.append("/ " + " ".join(hand["bonus"]))
    return " ".join(p for p in parts if p)


def seed_notations() -> list[str]:
    out = []
    for case in CASES:
        inp = case["input"]
        hands = [inp["hand"]] if "hand" in inp else list(inp.get("players", {}).values())
        out += [_hand_notation(h) for h in hands if isinstance(h, dict)]
    return out


def mutate_text(rnd: random.Random, text: str) -> str:
    """One to three edits: insert, delete, replace, swap, truncate, duplicate, digit to a
    look-alike, case swap, join with another hand."""
    for _ in range(rnd.randint(1, 3)):
        i = rnd.randint(0, len(text))
        op = rnd.randrange(9)
        pool = ODD if rnd.random() < 0.4 else PLAIN
        if op == 0:
            text = text[:i] + rnd.choice(pool) + text[i:]
        elif op == 1:
            text = text[:i] + text[i + rnd.randint(1, 4):]
        elif op == 2 and text:
            text = text[:i] + rnd.choice(pool) + text[i + 1:]
        elif op == 3 and len(text) > 1:
            i = min(i, len(text) - 2)
            text = text[:i] + text[i + 1] + text[i] + text[i + 2:]
        elif op == 4:
            text = text[:i]
        elif op == 5:
            text = text[:i] + text[i:i + rnd.randint(1, 6)] * 2 + text[i + 6:]
        elif op == 6:
            digits = [k for k, c in enumerate(text) if c in "123456789"]
            if digits:
                k = rnd.choice(digits)
                text = text[:k] + rnd.choice(["²", "١", "①", "𝟙", "５", "٣", "³"]) + text[k + 1:]
        elif op == 7:
            text = text.swapcase()
        else:
            text = text + " " + rnd.choice(SEEDS)
    return text


def random_text(rnd: random.Random) -> str:
    pool = PLAIN * 3 + ODD
    return "".join(rnd.choice(pool) for _ in range(rnd.randint(0, 30)))


def notations(rnd: random.Random, n: int) -> list[str]:
    return [random_text(rnd) if rnd.random() < 0.3 else mutate_text(rnd, rnd.choice(SEEDS)) for _ in range(n)]


SEEDS = seed_notations()


# -- requests ------------------------------------------------------------------------------

class Raw:
    """A value whose JSON text is written by hand: nesting deeper than json.dumps can
    write, integers longer than str() may convert."""

    def __init__(self, value, text: str):
        self.value, self.text = value, text


def _deep(rnd: random.Random) -> Raw:
    inner = rnd.choice([[], {}, "E", 1])
    value, opens = inner, []
    for _ in range(rnd.choice([50, 1000, 5000, 100_000])):
        value, mark = ([value], "[") if rnd.random() < 0.5 else ({"hand": value}, '{"hand":')
        opens.append(mark)
    closes = "".join("]" if mark == "[" else "}" for mark in opens)          # innermost first
    return Raw(value, "".join(reversed(opens)) + json.dumps(inner) + closes)


def _huge(rnd: random.Random) -> Raw:
    digits = rnd.choice([20, 400, 4301, 20_000])
    return Raw(10 ** (digits - 1), "1" + "0" * (digits - 1))


def random_value(rnd: random.Random, depth: int = 0):
    kind = rnd.randrange(12 if depth < 3 else 8)
    if kind == 0:
        return None
    if kind == 1:
        return rnd.choice([True, False])
    if kind == 2:
        return rnd.choice([0, 1, -1, 3, 13, 30, 2000, 2 ** 31, 10 ** 12, -10 ** 12])
    if kind == 3:
        return rnd.choice([0.5, -0.0, 1e308, -1e308, float("nan"), float("inf"), 25.0])
    if kind == 4:
        return rnd.choice(["", "E", "nts", "riichi-settlement", "ron", "self_drawn", "mahjong", "x" * 5000])
    if kind == 5:
        return random_text(rnd)
    if kind == 6:
        return rnd.choice(SEEDS) if rnd.random() < 0.5 else mutate_text(rnd, rnd.choice(SEEDS))
    if kind == 7:
        return _huge(rnd) if rnd.random() < 0.5 else rnd.choice(["E", "S", "W", "N", "f1", "+6s"])
    if kind == 8:
        return [random_value(rnd, depth + 1) for _ in range(rnd.randint(0, 4))]
    if kind == 9:
        keys = ["hand", "melds", "concealed", "winning_tile", "win_type", "seat_wind", "config", "result",
                "type", "winners", "han", "fu", "seat", "scores", "E", "limit", "", "ü"]
        return {rnd.choice(keys): random_value(rnd, depth + 1) for _ in range(rnd.randint(0, 4))}
    if kind == 10:
        return _deep(rnd)
    return rnd.choice(SEEDS)


def _nodes(tree, path=()):
    """Every (container, key) inside a request tree."""
    if isinstance(tree, dict):
        for k, v in tree.items():
            yield tree, k
            yield from _nodes(v)
    elif isinstance(tree, list):
        for i, v in enumerate(tree):
            yield tree, i
            yield from _nodes(v)


def mutate_request(rnd: random.Random, req):
    for _ in range(rnd.randint(1, 3)):
        nodes = list(_nodes(req))
        op = rnd.randrange(8)
        if op == 7 or not nodes:
            return random_value(rnd) if rnd.random() < 0.3 else {"config": random_value(rnd), **req} \
                if isinstance(req, dict) else req
        box, key = rnd.choice(nodes)
        old = box[key]
        if op <= 2:
            box[key] = random_value(rnd)
        elif op == 3 and isinstance(box, dict):
            del box[key]
        elif op == 3:
            box.pop(key)
        elif op == 4 and isinstance(box, dict):
            box[rnd.choice(["extra", "hand", "outcome", "game_end", "notation", "dead", "special"])] = old
        elif op == 5:                                        # swap types
            if isinstance(old, dict):
                box[key] = list(old.values())
            elif isinstance(old, list):
                box[key] = {str(i): v for i, v in enumerate(old)}
            elif isinstance(old, str):
                box[key] = list(old) if rnd.random() < 0.5 else len(old)
            else:
                box[key] = str(old)
        elif op == 6:
            box[key] = _deep(rnd) if rnd.random() < 0.5 else _huge(rnd)
    return req


def one_request(rnd: random.Random):
    """A worked case's request mutated (nine in ten) or any JSON value."""
    if rnd.random() < 0.1:
        return random_value(rnd)
    case = rnd.choice(CASES)
    return mutate_request(rnd, {**copy.deepcopy(case["input"]), "ruleset": case["ruleset"]})


def materialize(tree):
    """The Python object (Raw replaced by its value)."""
    if isinstance(tree, Raw):
        return tree.value
    if isinstance(tree, dict):
        return {k: materialize(v) for k, v in tree.items()}
    if isinstance(tree, list):
        return [materialize(v) for v in tree]
    return tree


def _text_of(tree) -> str:
    """The JSON text of a request tree (Raw pieces written by hand)."""
    if isinstance(tree, Raw):
        return tree.text
    if isinstance(tree, dict):
        return "{" + ",".join(f"{json.dumps(k)}:{_text_of(v)}" for k, v in tree.items()) + "}"
    if isinstance(tree, list):
        return "[" + ",".join(_text_of(v) for v in tree) + "]"
    return json.dumps(tree)


# -- checks --------------------------------------------------------------------------------

class Findings:
    """Counts per kind of problem and the first few examples of each."""

    def __init__(self) -> None:
        self.counts: Counter = Counter()
        self.examples: dict[str, list] = {}
        self.exits: Counter = Counter()

    def add(self, kind: str, example) -> None:
        self.counts[kind] += 1
        self.examples.setdefault(kind, [])
        if len(self.examples[kind]) < 3:
            self.examples[kind].append(example)


def documented_exit(answer: dict) -> int:
    """docs/scoring.md: 0 valid, 2 a malformed request (reason syntax), 1 a refused hand."""
    if answer.get("valid", True) is not False:
        return 0
    return 2 if answer.get("reason") == "syntax" else 1


def check_notation(text: str, found: Findings) -> bool:
    """Through parse_hand: a Hand that round-trips, or a NotationError with a position."""
    try:
        hand = parse_hand(text)
    except NotationError as exc:
        if not (0 <= exc.position <= len(text)) or not isinstance(exc.token, str) or "^" not in exc.caret():
            found.add("error without a position", (text, str(exc)))
        return False
    except Exception as exc:  # noqa: BLE001 - counting them is the point
        found.add(f"traceback: {type(exc).__name__}", (text, repr(exc)))
        return False
    try:
        again = parse_hand(format_hand(hand))
        if again != hand:
            found.add("no round trip", (text, format_hand(hand)))
    except Exception as exc:  # noqa: BLE001
        found.add(f"traceback in format_hand: {type(exc).__name__}", (text, repr(exc)))
    return True


def check_request(request, found: Findings) -> dict | None:
    """Through score_request: an answer, or valid false with a reason and message; never raises."""
    try:
        answer = score_request(request)
    except Exception as exc:  # noqa: BLE001
        found.add(f"traceback: {type(exc).__name__}", (str(request)[:200] if _printable(request) else "?", repr(exc)[:300]))
        return None
    if not isinstance(answer, dict):
        found.add("answer not an object", repr(answer)[:200])
    elif answer.get("valid") is False and not (isinstance(answer.get("reason"), str)
                                                and isinstance(answer.get("message"), str)):
        found.add("refusal without reason or message", answer)
    return answer


def _printable(tree) -> bool:
    try:
        str(tree)
        return True
    except (RecursionError, ValueError):
        return False


def _outcome(code: int, output: str, want: set[int], found: Findings, what: str, shown: str) -> None:
    found.exits[code] += 1
    if "Traceback" in output:
        found.add(f"{what}: traceback", (shown[:200], output[-400:]))
    elif code not in want:
        found.add(f"{what}: exit {code}, documented {sorted(want)}", (shown[:200], output[-300:]))


def _notation_args(text: str, parsed: bool) -> tuple[list[str], set[int]]:
    """The CLI call for a notation and its documented exits: 2 for notation that does not
    parse or a hand typed short of tiles (docs/scoring.md), else 0 or 1."""
    hand = parse_hand(text) if parsed else None
    won = hand is not None and hand.winning_tile is not None
    args = ["score", "--seat", "E", "--wind", "S", *(["--self-drawn"] if won else []), "--", text]
    if hand is None:
        return args, {2}
    short = tile_total(hand) < (14 if won else 13) + kongs(hand)
    return args, ({2} if short else {0, 1})


def _json_want(text: str) -> set[int]:
    try:
        request = json.loads(text)
    except (ValueError, RecursionError):
        return {2}
    if not isinstance(request, dict):
        return {2}
    try:
        return {documented_exit(score_request(request))}
    except Exception:  # noqa: BLE001 - already counted by the API check; any status then
        return {0, 1, 2}


def cli_in_process(runner: CliRunner, args: list[str], want: set[int], found: Findings, what: str,
                   stdin: str | None = None) -> None:
    result = runner.invoke(app, args, input=stdin)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        found.add(f"{what}: exception {type(result.exception).__name__}", (args[-1][:200], repr(result.exception)))
        return
    _outcome(result.exit_code, result.output, want, found, what, args[-1])


def cli_subprocess(args: list[str], want: set[int], found: Findings, what: str) -> None:
    proc = subprocess.run([sys.executable, "-m", "mjscore.cli", *args], capture_output=True, text=True,
                          encoding="utf-8", errors="backslashreplace", timeout=120)
    _outcome(proc.returncode, proc.stdout + proc.stderr, want, found, what, args[-1])


# -- run -----------------------------------------------------------------------------------

def _argv_safe(text: str) -> str:
    return text.replace("\x00", "").replace(SURROGATE, "")


def _build_app_once() -> None:
    """typer builds the click command anew on every CliRunner.invoke (~15 ms, most of a run);
    build it once: the same command, thousands of calls."""
    import functools
    typer.testing._get_command = functools.lru_cache(maxsize=None)(typer.testing._get_command)


def run(count: int, n_requests: int, n_subprocess: int, seed: int) -> Findings:
    rnd = random.Random(seed)
    found = Findings()
    _build_app_once()
    runner = CliRunner()
    texts = notations(rnd, count)
    t0 = time.perf_counter()
    parsed = [check_notation(t, found) for t in texts]
    print(f"notation API: {count} in {time.perf_counter() - t0:.1f} s")
    t0 = time.perf_counter()
    for text, ok in zip(texts, parsed):
        cli_in_process(runner, *_notation_args(text, ok), found, "cli notation")
    print(f"notation CLI in-process: {count} in {time.perf_counter() - t0:.1f} s")
    with tempfile.TemporaryDirectory() as tmp:
        files, keep_every = [], max(1, n_requests // max(1, n_subprocess))
        t0 = time.perf_counter()
        for i in range(n_requests):                  # one at a time: a deep tree is megabytes
            tree = one_request(rnd)
            check_request(materialize(tree), found)
            text = _text_of(tree)
            if rnd.random() < 0.1:                                   # unreadable JSON
                text = text[:rnd.randint(0, len(text))] if rnd.random() < 0.7 else random_text(rnd)
            text = _argv_safe(text)
            want = _json_want(text)
            if i % 10 == 0:
                cli_in_process(runner, ["score", "--json", "-"], want, found, "cli json stdin", stdin=text)
                continue
            path = Path(tmp) / f"r{i}.json"
            path.write_text(text, encoding="utf-8")
            cli_in_process(runner, ["score", "--json", str(path)], want, found, "cli json file")
            if i % keep_every == keep_every - 1:
                files.append((str(path), want))
            else:
                path.unlink()
        for name, want in ((tmp, {2}), (str(Path(tmp) / "missing.json"), {2}), (str(Path(tmp) / "no" / "x"), {2})):
            cli_in_process(runner, ["score", "--json", name], want, found, "cli json path")
        print(f"requests API and CLI in-process: {n_requests} in {time.perf_counter() - t0:.1f} s")
        t0 = time.perf_counter()
        jobs = []
        for k in range(n_subprocess):
            if k % 2 or not files:
                text = _argv_safe(rnd.choice(texts))
                jobs.append((*_notation_args(text, check_notation(text, Findings())), "subprocess notation"))
            else:
                path, want = rnd.choice(files)
                jobs.append((["score", "--json", path], want, "subprocess json"))
        with ThreadPoolExecutor(2) as pool:
            list(pool.map(lambda job: cli_subprocess(job[0], job[1], found, job[2]), jobs))
        print(f"subprocess CLI: {n_subprocess} in {time.perf_counter() - t0:.1f} s")
    return found


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=10_000, help="notations (requests: half as many)")
    ap.add_argument("--requests", type=int, default=None, help="JSON requests (default count / 2)")
    ap.add_argument("--subprocess", type=int, default=300, help="real CLI processes among them")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    n_requests = a.count // 2 if a.requests is None else a.requests
    found = run(a.count, n_requests, a.subprocess, a.seed)
    tracebacks = sum(n for k, n in found.counts.items() if "traceback" in k or "exception" in k)
    print(f"\n{a.count} notations, {n_requests} requests (API and CLI), {a.subprocess} subprocesses, seed {a.seed}")
    print(f"exit codes seen: {dict(sorted(found.exits.items()))}")
    print(f"tracebacks/exceptions: {tracebacks}; other problems: {sum(found.counts.values()) - tracebacks}")
    for kind, n in found.counts.most_common():
        print(f"  {n:6d}  {kind}")
        for ex in found.examples[kind]:
            print(f"          {ex!r}"[:400])
    return 1 if found.counts else 0


if __name__ == "__main__":
    sys.exit(main())
