"""The scene evaluation that produces the report's accuracy figures: canonical hand
comparison and the stage each miss is blamed on."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from mjscore.datasets.scene_eval import canonical, diagnose, evaluate_scenes, load_scenes, recognize_from_labels
from mjscore.vision.types import PhotoRead

ROOT = Path(__file__).resolve().parents[1]
SCENES = {s.photo.name: s for s in load_scenes(ROOT / "samples" / "synthetic")}
APP = SCENES["app_example.jpg"]          # [EEE] RRR 234m 88s 45s +6s / f2


def test_canonical_ignores_order_and_spacing_but_not_groups():
    assert canonical("[EEE] RRR 234m 88s 45s +6s / f2") == canonical("234m RRR 45s 88s [EEE] +6s / f2")
    assert canonical("[EEE] RRR 234m") != canonical("EEE RRR 234m")
    assert canonical("[PPP] 11m") == canonical("[WhWhWh] 11m")
    # the engine reads a declared kong's face-down places in its own order; a declared kong
    # is still not an exposed one
    assert canonical("{X77pX} 11m") == canonical("{7pX7pX} 11m") != canonical("[7777p] 11m")


def _recognizer(change):
    def recognize(path):
        return PhotoRead(str(path), 720, 540, change(list(APP.tiles)))
    return recognize


def test_each_miss_is_blamed_on_its_first_wrong_stage():
    assert diagnose(APP, recognize_from_labels)["ok"]
    dropped = diagnose(APP, _recognizer(lambda t: t[:-1]))
    assert dropped["stage"] == "detection" and dropped["tile_count"] == [14, 15]
    misread = diagnose(APP, _recognizer(lambda t: [replace(t[0], kind="G")] + t[1:]))
    assert misread["stage"] == "recognition" and misread["misread"] == {"read": ["G"], "true": ["R"]}

    def one_touching_row(tiles):                        # every tile read, but laid in one block
        return [replace(t, box=(55.0 * k, 300.0, 55.0 * k + 53, 375.0), angle=0) for k, t in enumerate(tiles)]
    grouped = diagnose(APP, _recognizer(one_touching_row))
    assert grouped["stage"] == "grouping", grouped


def test_report_counts():
    report = evaluate_scenes([APP, SCENES["all_concealed_turned.jpg"]], recognize_from_labels)
    assert report["scenes"] == 2 and report["end_to_end_exact"] == 2 and report["end_to_end_share"] == 1.0
    assert report["layout_on_true_tiles_exact"] == 2 and report["failures_by_stage"] == {}
