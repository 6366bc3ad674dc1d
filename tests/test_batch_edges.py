"""Batch edges (issue 14): bad rows among good ones, a run killed with SIGKILL and resumed,
duplicates with another context, file names with quoted newlines and U+2028."""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from typer.testing import CliRunner

from mjscore.handscan.batch import ResultSink, load_jobs, row_key, run_batch
from mjscore.handscan.context import make_context
from test_layout_support import place
from mjscore.vision.types import PhotoRead

RECOGNIZER = "test_batch_support:recognize"
GOOD = [["EEE"], ["RRR234m88s456s"]]          # self-drawn 6s, nts-app: a valid hand from any seat
HEADER = ["photo", "table", "round", "seat", "wind", "win_type", "winning_tile", "ruleset", "hand"]


def _photo(folder: Path, name: str) -> None:
    from PIL import Image

    Image.new("RGB", (64, 48), (20, 100, 50)).save(folder / name)
    read = PhotoRead(str(folder / name), 1600, 1200, place(GOOD, rotate=8))
    (folder / (name + ".reads.json")).write_text(json.dumps(read.to_json()))


def _manifest(folder: Path) -> tuple[Path, int, int]:
    """60 rows: 50 good photos, 4 of them again with another seat (good too), 6 bad ones
    (2 empty photo cells, a missing file, a corrupt image, an impossible hand, a bad seat)."""
    rows = []
    for n in range(50):
        _photo(folder, f"g{n:02}.jpg")
        rows.append([f"g{n:02}.jpg", "1", str(n), "E", "S", "self_drawn", "6s", "nts-app", ""])
    for n in range(4):
        rows.append([f"g{n:02}.jpg", "2", str(n), "S", "E", "self_drawn", "6s", "nts-app", ""])
    (folder / "corrupt.jpg").write_bytes(b"\xff\xd8\xff\xe0 truncated")
    rows += [["", "3", "1", "E", "S", "self_drawn", "6s", "nts-app", ""],
             ["", "3", "2", "", "", "", "", "", ""],
             ["missing.jpg", "3", "3", "E", "S", "self_drawn", "6s", "nts-app", ""],
             ["corrupt.jpg", "3", "4", "E", "S", "self_drawn", "6s", "nts-app", ""],
             ["g10.jpg", "3", "5", "E", "S", "self_drawn", "6s", "nts-app", "1111m 1111m 999p 99s +9s"],
             ["g11.jpg", "3", "6", "Q", "S", "self_drawn", "6s", "nts-app", ""]]
    path = folder / "manifest.csv"
    with open(path, "w", newline="") as fh:
        csv.writer(fh).writerows([HEADER] + rows)
    return path, 54, 6


def _read(out: Path) -> list[dict]:
    with open(out, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def _check(rows: list[dict], good: int, bad: int) -> None:
    keys = [row_key(r) for r in rows]
    assert len(rows) == good + bad and len(set(keys)) == len(keys)        # nothing lost, nothing doubled
    scored = [r for r in rows if r["valid"] == "true" and r["final"]]
    failed = [r for r in rows if r["error"] or r["valid"] != "true"]     # the impossible hand: bad_hand
    assert (len(scored), len(failed)) == (good, bad)
    seats = {(r["photo"], r["seat"]) for r in scored}
    assert ("g00.jpg", "E") in seats and ("g00.jpg", "S") in seats        # the duplicate with another context


def _children(pid: int) -> list[int]:
    """Child processes of ``pid`` (from /proc; none where there is no /proc)."""
    found = []
    for stat_file in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat_file.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(stat_file.parent.name))
        except (OSError, ValueError, IndexError):
            pass
    return found


def _gone(pids: list[int], seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while pids and time.monotonic() < deadline:
        pids = [p for p in pids if Path(f"/proc/{p}").exists()
                and Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"]
        time.sleep(0.1)
    assert not pids, f"workers {pids} still running after the batch was killed"


def test_sixty_rows_ten_percent_bad_killed_and_resumed(tmp_path):
    manifest, good, bad = _manifest(tmp_path)
    out = tmp_path / "results.csv"
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).parent) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    cmd = [sys.executable, "-m", "mjscore.cli", "batch", str(manifest), "--out", str(out), "--jobs", "2",
           "--recognizer", "test_batch_support:recognize_slowly"]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not out.exists() or len(_read(out)) < 15):
        time.sleep(0.02)
    workers = _children(proc.pid)
    assert workers or not Path("/proc").exists()
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    _gone(workers)                                                      # the workers end with it
    done_before = len(_read(out))
    assert 15 <= done_before < good + bad                               # killed mid-run
    again = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    assert again.returncode == 1, again.stderr                          # rows failed: 1, resumed or not
    assert f"{done_before} already in the output" in again.stdout or "already in the output" in again.stdout
    _check(_read(out), good, bad)
    third = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    assert third.returncode == 1 and "0 photos" in third.stdout         # all done: still fails
    assert "Traceback" not in again.stderr + third.stderr
    _check(_read(out), good, bad)


def test_the_same_photo_with_another_context_is_its_own_row_even_with_restart(tmp_path):
    manifest, _, _ = _manifest(tmp_path)
    out = tmp_path / "r.jsonl"
    jobs = load_jobs(manifest, make_context())
    run_batch(jobs, ResultSink(out, restart=True), recognizer=RECOGNIZER)
    again = run_batch(jobs, ResultSink(out, restart=True), recognizer=RECOGNIZER)
    assert (again.processed, again.skipped) == (60, 0)
    rows = [json.loads(x) for x in out.read_text().split("\n") if x]
    assert len(rows) == 60 and sum(r["photo"] == "g00.jpg" for r in rows) == 2


def test_file_names_with_newlines_and_line_separators_stay_whole(tmp_path):
    names = ["two\nlines.jpg", "sep\u2028arator.jpg", "para\u2029graph.jpg", 'quote",comma.jpg']
    for name in names:
        _photo(tmp_path, name)
    manifest = tmp_path / "m.csv"
    with open(manifest, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows([HEADER] + [[n, "1", "1", "E", "S", "self_drawn", "6s", "nts-app", ""] for n in names])
    for suffix in (".csv", ".jsonl", ".json"):
        out = tmp_path / f"r{suffix}"
        first = run_batch(load_jobs(manifest, make_context()), ResultSink(out), recognizer=RECOGNIZER)
        assert (first.processed, first.scored) == (4, 4)
        second = run_batch(load_jobs(manifest, make_context()), ResultSink(out), recognizer=RECOGNIZER)
        assert (second.processed, second.skipped) == (0, 4), suffix            # read back whole
    assert sorted(r["photo"] for r in _read(tmp_path / "r.csv")) == sorted(names)


def test_broken_json_entries_are_failed_rows_and_the_batch_goes_on(tmp_path):
    _photo(tmp_path, "a.jpg")
    good = {"photo": "a.jpg", "seat": "E", "wind": "S", "win_type": "self", "winning_tile": "6s", "ruleset": "nts-app"}
    entries = [{"photo": None}, "a.jpg", 7, good, {"photo": "a\u0000.jpg"}, {**good, "special": [1, None]},
               {**good, "seat": {"x": 1}}, dict(good, table="2")]
    (tmp_path / "m.json").write_text(json.dumps(entries))
    out = tmp_path / "r.csv"
    r = CliRunner().invoke(__import__("mjscore.cli", fromlist=["app"]).app,
                           ["batch", str(tmp_path / "m.json"), "--out", str(out), "--recognizer", RECOGNIZER])
    assert r.exit_code == 1 and "Traceback" not in r.output
    rows = _read(out)
    assert len(rows) == len(entries)
    assert [bool(x["error"]) for x in rows] == [True, True, True, False, True, True, True, False]
    assert "no photo given" in rows[0]["error"] and "expected an object" in rows[1]["error"]
    assert all("bad_manifest_row" in x["flags"] for x in rows if x["error"])


def test_a_broken_csv_line_is_a_failed_row(tmp_path):
    _photo(tmp_path, "a.jpg")
    row = "a.jpg,1,1,E,S,self_drawn,6s,nts-app,\r\n"
    (tmp_path / "m.csv").write_text(",".join(HEADER) + "\r\n" + row + "y" * 200_000 + ",2\r\n" + row, newline="")
    jobs = load_jobs(tmp_path / "m.csv", make_context())
    assert len(jobs) == 3 and [bool(j.error) for j in jobs] == [False, True, False]
    assert jobs[1].error.startswith("manifest line 3")
