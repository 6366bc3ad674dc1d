"""`mjscore batch`: manifest context per photo, one row per photo written as it finishes,
resumable, parallel, and one bad photo or row never stops the batch."""

from __future__ import annotations

import csv
import json

import pytest
from typer.testing import CliRunner

from mjscore.handscan.batch import COLUMNS, ManifestError, ResultSink, load_jobs, run_batch
from mjscore.handscan.context import make_context
from test_layout_support import place
from mjscore.vision.types import PhotoRead, TileRead

RECOGNIZER = "test_batch_support:recognize"


def _photo(folder, name, rows, *, unsure: int | None = None):
    from PIL import Image
    path = folder / name
    Image.new("RGB", (1600, 1200), (20, 100, 50)).save(path)
    tiles = place(rows, rotate=8)
    if unsure is not None:
        t = tiles[unsure]
        tiles[unsure] = TileRead(t.kind, t.box, 0.4, (("5s", 0.35),), t.angle)
    (folder / (name + ".reads.json")).write_text(json.dumps(PhotoRead(str(path), 1600, 1200, tiles).to_json()))
    return path


@pytest.fixture
def manifest(tmp_path):
    _photo(tmp_path, "app001.jpg", [["EEE"], ["RRR234m88s456s"]])
    _photo(tmp_path, "five.jpg", [["5555p"], ["4s5p6sRRRGGG9s9s"]], unsure=5)
    _photo(tmp_path, "nowin.jpg", [["RRR", "WhWhWh"], ["123m789pSS"]])
    (tmp_path / "corrupt.jpg").write_bytes(b"\xff\xd8\xff\xe0 truncated")
    rows = [
        ["photo", "table", "round", "seat", "prevailing wind", "win type", "winning tile", "player", "ruleset"],
        ["app001.jpg", "1", "3", "E", "S", "self_drawn", "6s", "Anna", "nts-app"],
        ["five.jpg", "1", "4", "S", "E", "discard", "9s", "Bram", "nts"],
        ["nowin.jpg", "2", "1", "N", "S", "discard", "", "Cor", "nts"],
        ["missing.jpg", "2", "2", "E", "E", "discard", "5p", "Dirk", "nts"],
        ["corrupt.jpg", "2", "3", "E", "E", "discard", "5p", "Eva", "nts"],
        ["app001.jpg.reads.json", "3", "1", "Q", "E", "discard", "5p", "Fenna", "nts"],
    ]
    path = tmp_path / "manifest.csv"
    with open(path, "w", newline="") as fh:
        csv.writer(fh).writerows(rows)
    return path


def _rows(path):
    with open(path, newline="") as fh:
        return {r["photo"]: r for r in csv.DictReader(fh)}


def test_batch_scores_good_photos_and_reports_every_bad_one(manifest, tmp_path):
    out = tmp_path / "results.csv"
    r = CliRunner().invoke(__import__("mjscore.cli", fromlist=["app"]).app, ["batch", str(manifest), "--out", str(out),
                                                   "--recognizer", RECOGNIZER])
    assert r.exit_code == 1                          # errors are reported in the exit status
    rows = _rows(out)
    assert list(next(csv.reader(open(out)))) == COLUMNS
    assert len(rows) == 6
    good = rows["app001.jpg"]
    assert (good["hand"], good["final"], good["valid"], good["player"], good["table"], good["round"]) == \
        ("[EEE] 234m 4588s RRR +6s", "136", "true", "Anna", "1", "3")
    five = rows["five.jpg"]
    assert five["valid"] == "false" and five["reason"] == "too_many_copies"
    assert "invalid_hand:too_many_copies" in five["flags"] and "low_confidence:6" in five["flags"]
    assert five["alternatives"].startswith("[5555p] 4569s RRR GGG +9s = ")   # closest valid reading
    nowin = rows["nowin.jpg"]
    assert "missing_winning_tile" in nowin["flags"] and nowin["final"] == "" and not nowin["error"]
    assert "no such photo" in rows["missing.jpg"]["error"]
    assert "not an image" in rows["corrupt.jpg"]["error"] or "damaged" in rows["corrupt.jpg"]["error"]
    assert "seat 'Q' is not a wind" in rows["app001.jpg.reads.json"]["error"]
    assert "1 scored, 1 invalid hands, 1 not scored" in r.output and "3 errors" in r.output
    assert "missing.jpg: no such photo" in r.output


def test_second_run_skips_finished_photos_and_retry_redoes_errors(manifest, tmp_path):
    out = tmp_path / "results.jsonl"
    defaults = make_context()
    jobs = load_jobs(manifest, defaults)
    first = run_batch(jobs, ResultSink(out), recognizer=RECOGNIZER)
    assert (first.processed, first.skipped, first.errors) == (6, 0, 3)
    second = run_batch(jobs, ResultSink(out), recognizer=RECOGNIZER)
    assert (second.processed, second.skipped) == (0, 6)
    retry = run_batch(jobs, ResultSink(out, retry_errors=True), recognizer=RECOGNIZER)
    assert (retry.processed, retry.skipped, retry.errors) == (3, 3, 3)
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(lines) == 6 and len({x["path"] for x in lines}) == 6


def test_rows_are_on_disk_as_each_photo_finishes(manifest, tmp_path):
    out = tmp_path / "results.json"
    seen = []

    def progress(row):
        seen.append(len(json.loads(out.read_text())))   # the file is complete JSON after every photo

    run_batch(load_jobs(manifest, make_context()), ResultSink(out), recognizer=RECOGNIZER, progress=progress)
    assert seen == [1, 2, 3, 4, 5, 6]


def test_a_cut_off_last_line_is_dropped_on_resume(manifest, tmp_path):
    out = tmp_path / "results.csv"
    run_batch(load_jobs(manifest, make_context()), ResultSink(out), recognizer=RECOGNIZER)
    text = out.read_text()
    out.write_text(text[: text.rstrip("\n").rfind("\n") + 1] + text.rstrip("\n").split("\n")[-1][:25])
    again = run_batch(load_jobs(manifest, make_context()), ResultSink(out), recognizer=RECOGNIZER)
    assert (again.processed, again.skipped) == (1, 5)
    assert len(_rows(out)) == 6


def test_parallel_workers_give_the_same_rows(manifest, tmp_path):
    one, two = tmp_path / "one.csv", tmp_path / "two.csv"
    jobs = load_jobs(manifest, make_context())
    run_batch(jobs, ResultSink(one), recognizer=RECOGNIZER)
    summary = run_batch(jobs, ResultSink(two), workers=2, recognizer=RECOGNIZER)
    assert summary.processed == 6
    strip = lambda rows: {k: {c: v for c, v in r.items() if c != "seconds"} for k, r in rows.items()}  # noqa: E731
    assert strip(_rows(one)) == strip(_rows(two))


def test_folder_of_photos_without_context(tmp_path):
    _photo(tmp_path, "a.jpg", [["EEE"], ["RRR234m88s456s"]])
    _photo(tmp_path, "b.jpg", [["RRR", "WhWhWh"], ["123m789pSS"]])
    out = tmp_path / "out" / "r.csv"
    r = CliRunner().invoke(__import__("mjscore.cli", fromlist=["app"]).app, ["batch", str(tmp_path), "--out", str(out), "--wind", "E",
                                                   "--recognizer", RECOGNIZER])
    assert r.exit_code == 0, r.output
    rows = _rows(out)
    assert rows[str(tmp_path / "a.jpg")]["hand"] == "[EEE] 234m 45688s RRR"
    assert "missing_seat" in rows[str(tmp_path / "b.jpg")]["flags"]
    assert "0 scored" in r.output and "2 not scored" in r.output


def test_json_manifest_and_manifest_errors(tmp_path):
    _photo(tmp_path, "a.jpg", [["EEE"], ["RRR234m88s456s"]])
    (tmp_path / "m.json").write_text(json.dumps([{"photo": "a.jpg", "seat": "E", "wind": "S",
                                                  "winning_tile": "6s", "win_type": "self", "ruleset": "nts-app",
                                                  "players": ["Anna", "Bram"]}]))
    jobs = load_jobs(tmp_path / "m.json", make_context())
    assert jobs[0].context.win_type == "self_drawn" and jobs[0].meta["player"] == "Anna, Bram"
    with pytest.raises(ManifestError, match="no such folder or manifest"):
        load_jobs(tmp_path / "nope.csv", make_context())
    (tmp_path / "bad.csv").write_text("image_name,seat\na.jpg,E\n")
    with pytest.raises(ManifestError, match="no photo column"):
        load_jobs(tmp_path / "bad.csv", make_context())
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(ManifestError, match="not valid JSON"):
        load_jobs(tmp_path / "bad.json", make_context())
    with pytest.raises(ManifestError, match="use a .csv, .json or .jsonl"):
        ResultSink(tmp_path / "out.xlsx")
    r = CliRunner().invoke(__import__("mjscore.cli", fromlist=["app"]).app, ["batch", str(tmp_path / "nope.csv"), "--out", str(tmp_path / "o.csv")])
    assert r.exit_code == 2 and "no such folder or manifest" in r.output and "Traceback" not in r.output


def test_manifest_hand_column_replaces_the_photo_grouping(tmp_path):
    # the photo shows 13 tiles (one missed by the camera); the table wrote the hand down
    _photo(tmp_path, "a.jpg", [["EEE"], ["RRR234m88s45s"]])
    (tmp_path / "m.csv").write_text("photo,seat,wind,win_type,ruleset,hand\n"
                                    "a.jpg,E,S,self_drawn,nts-app,[EEE] RRR 234m 88s 45s +6s\n")
    out = tmp_path / "r.csv"
    run_batch(load_jobs(tmp_path / "m.csv", make_context()), ResultSink(out), recognizer=RECOGNIZER)
    row = _rows(out)["a.jpg"]
    assert (row["final"], row["valid"], row["winning_tile"]) == ("136", "true", "6s")
    assert "13 tiles" in row["warnings"]                # what the photo showed is still reported
