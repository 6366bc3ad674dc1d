"""``mjscore eval`` on the bundled YOLO folder, and the matching rules it reports with."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from typer.testing import CliRunner

from mjscore.vision import cli_eval
from mjscore.vision.evaluate import score_photo

SAMPLES = Path(__file__).resolve().parent.parent / "samples" / "chinese-v4"


def _app() -> typer.Typer:
    app = typer.Typer()
    cli_eval.register(app)

    @app.command("noop")
    def _noop():   # a second command keeps "eval" a named subcommand
        pass
    return app


def test_eval_command_reports_figures_as_json():
    result = CliRunner().invoke(_app(), ["eval", str(SAMPLES), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["photos"] == 5
    assert report["tiles"] == sum(len(p.read_text().splitlines()) for p in (SAMPLES / "labels").glob("*.txt"))
    for key in ("detection_recall", "detection_precision", "classification_accuracy", "tile_f1"):
        assert 0.5 <= report[key] <= 1.0, (key, report[key])   # measured 0.61 .. 0.85
    assert report["seconds_per_photo_median"] > 0
    assert set(report["per_kind_accuracy"]) >= {"f1", "E", "R"}


def test_eval_command_text_report_and_bad_folder(tmp_path):
    ok = CliRunner().invoke(_app(), ["eval", str(SAMPLES), "--limit", "1"])
    assert ok.exit_code == 0 and "tile (box and kind)" in ok.output and "photos 1" in ok.output
    missing = CliRunner().invoke(_app(), ["eval", str(tmp_path / "nowhere")])
    assert missing.exit_code == 2 and "not a directory" in missing.output
    (tmp_path / "images").mkdir()
    no_yaml = CliRunner().invoke(_app(), ["eval", str(tmp_path)])
    assert no_yaml.exit_code == 2 and "data.yaml" in no_yaml.output


def test_matching_counts_ignored_boxes_as_neither_hit_nor_miss():
    gt = [("1m", (0, 0, 10, 10)), (None, (20, 0, 30, 10)), ("E", (40, 0, 50, 10))]
    preds = [("1m", 0.9, (0, 0, 10, 10)),      # right
             ("2m", 0.8, (21, 0, 30, 10)),     # on the ignored cut-off tile
             ("S", 0.7, (41, 1, 50, 10)),      # box right, kind wrong
             ("X", 0.6, (60, 0, 70, 10))]      # false alarm
    s = score_photo(gt, preds)
    assert (s.gt, s.pred, s.matched, s.correct) == (2, 3, 2, 1)
    assert s.pairs == [("1m", "1m"), ("E", "S")] and s.missed == []


def test_matching_one_prediction_per_tile():
    gt = [("5p", (0, 0, 10, 14))]
    s = score_photo(gt, [("5p", 0.9, (0, 0, 10, 14)), ("5p", 0.5, (1, 0, 10, 14))])
    assert (s.matched, s.correct, s.pred) == (1, 1, 2)
    s = score_photo(gt, [])
    assert s.missed == ["5p"] and s.pred == 0


def test_wrong_tiles_and_how_many_were_shown_confident():
    from mjscore.vision.evaluate import add_photo, empty_report, PhotoResult, score_photo

    gt = [("5p", (0, 0, 10, 14)), ("E", (20, 0, 30, 14))]
    preds = [("5p", 0.9, (0, 0, 10, 14)),        # right
             ("W", 0.8, (20, 0, 30, 14)),        # wrong kind, shown confident
             ("G", 0.3, (50, 0, 60, 14))]        # no tile there, flagged (under 0.6)
    s = score_photo(gt, preds)
    assert sorted(s.wrong) == [0.3, 0.8]
    total = empty_report()
    add_photo(total, PhotoResult("p.jpg", gt, s))
    r = total.to_json()
    assert r["wrong_tiles"] == 2 and r["wrong_shown_confident"] == 0.5
