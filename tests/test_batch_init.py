"""`mjscore batch-init DIR`: a manifest template an organiser fills in (issue 16), and the hint
a folder run without context gives."""

from __future__ import annotations

import csv
import os

from typer.testing import CliRunner

from mjscore.cli import app
from mjscore.handscan.context import make_context
from mjscore.handscan.manifest import TEMPLATE_COLUMNS, _key, load_jobs
from test_batch import RECOGNIZER, _photo


def init(*args: str):
    return CliRunner().invoke(app, ["batch-init", *args])


def _folder(tmp_path):
    for n, name in enumerate(["c.jpg", "a.png", "b.jpg"]):      # taken in the order c, a, b
        (tmp_path / name).write_bytes(b"x")
        os.utime(tmp_path / name, (1_700_000_000 + n, 1_700_000_000 + n))
    (tmp_path / "notes.txt").write_text("not a photo")
    return tmp_path


def test_template_lists_the_photos_in_the_order_taken(tmp_path):
    r = init(str(_folder(tmp_path)))
    assert r.exit_code == 0, r.output
    assert "mjscore batch " in r.output and "manifest.csv" in r.output
    rows = list(csv.reader((tmp_path / "manifest.csv").open(encoding="utf-8", newline="")))
    assert rows[0] == TEMPLATE_COLUMNS and [row[0] for row in rows[1:]] == ["c.jpg", "a.png", "b.jpg"]
    assert all(cell == "" for row in rows[1:] for cell in row[1:])


def test_every_template_column_is_one_the_manifest_reads(tmp_path):
    init(str(_folder(tmp_path)))
    assert [_key(c) for c in TEMPLATE_COLUMNS] == TEMPLATE_COLUMNS
    jobs = load_jobs(tmp_path / "manifest.csv", make_context(wind="E"))
    assert [j.photo for j in jobs] == ["c.jpg", "a.png", "b.jpg"]
    assert all(j.error is None and j.path == str((tmp_path / j.photo).resolve()) for j in jobs)


def test_an_existing_manifest_is_kept_unless_forced(tmp_path):
    _folder(tmp_path)
    (tmp_path / "manifest.csv").write_text("photo,seat\nc.jpg,E\n")
    kept = init(str(tmp_path))
    assert kept.exit_code == 2 and "--force" in kept.output
    assert (tmp_path / "manifest.csv").read_text() == "photo,seat\nc.jpg,E\n"
    forced = init(str(tmp_path), "--force")
    assert forced.exit_code == 0 and "c.jpg,,," in (tmp_path / "manifest.csv").read_text()


def test_no_folder_or_no_photos_is_bad_input(tmp_path):
    assert init(str(tmp_path / "nope")).exit_code == 2
    empty = init(str(tmp_path))
    assert empty.exit_code == 2 and "no photos" in empty.output and not (tmp_path / "manifest.csv").exists()


def test_a_folder_run_says_how_to_get_a_manifest(tmp_path):
    _photo(tmp_path, "a.jpg", [["EEE"], ["RRR234m88s456s"]])
    r = CliRunner().invoke(app, ["batch", str(tmp_path), "--out", str(tmp_path / "out" / "r.csv"), "--wind", "E",
                                 "--recognizer", RECOGNIZER])
    assert r.exit_code == 0, r.output
    assert f"mjscore batch-init {tmp_path}" in r.stdout
