"""``benchmarks/judge_models.py``: the one command that reads models folders on the evaluation
sets side by side. Run here on the repository's own real photos (samples/chinese-v4, labelled)
and synthetic hands (samples/synthetic): the table must carry the figures the real commands
print, a finished job is not run again, and a failed one shows as missing, not as a figure."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mjscore.benchmarks import judge_models
from mjscore.benchmarks.judge_models import EVAL, SCENES, Job, hand_figures, tile_figures
from mjscore.datasets.closeup_eval import format_report
from mjscore.vision.evaluate import add_photo, empty_report, evaluate_folder, score_folder

ROOT = Path(__file__).resolve().parents[1]
V4 = ROOT / "samples" / "chinese-v4"
HANDS = ROOT / "samples" / "synthetic"


def test_table_holds_what_the_real_commands_print(tmp_path, monkeypatch, capsys):
    empty = tmp_path / "no_hands"
    empty.mkdir()
    monkeypatch.setattr(judge_models, "jobs", lambda report, root: [
        Job("v4_valid", EVAL + ["--json"], V4, 1, tile_figures),
        Job("hands2", SCENES + ["--limit", "2"], HANDS, 1, hand_figures),
        Job("hands1", SCENES, empty, 1, hand_figures),   # scene_eval refuses a folder without hands
    ])
    twin = tmp_path / "twin"
    twin.symlink_to(ROOT / "models")
    out = tmp_path / "judge"
    assert judge_models.main(["--models", str(ROOT / "models"), "--models", str(twin), "--out", str(out),
                              "--lanes", "2"]) == 0
    rows = {line.split(" | ")[0].strip("| "): [c.strip() for c in line.strip("| \n").split(" | ")[1:]]
            for line in capsys.readouterr().out.splitlines()[2:]}
    expected = evaluate_folder(V4).to_json()
    assert rows["v4_valid"][0] == rows["v4_valid"][1]
    assert rows["v4_valid"][0].startswith(f"{expected['tile_f1']:.4f}")
    hands = json.loads((out / "models.hands2.txt").read_text().split("\n}")[0] + "\n}")
    assert rows["hands2"] == [f"{hands['end_to_end_exact']} + {hands['proposal_right']} = "
                              f"{hands['exact_or_proposal_right']} ({hands['wrong_and_unflagged']})"] * 2
    assert hands["scenes"] == 2
    assert rows["hands1"] == ["-", "-"] and not (out / "models.hands1.txt").exists()

    capsys.readouterr()
    judge_models.main(["--models", str(twin), "--out", str(out), "--only", "hands1"])
    assert [line.split(" | ")[0].strip("| ") for line in capsys.readouterr().out.splitlines()[2:]] == ["hands1"]
    with pytest.raises(SystemExit):                                # a set name that is not there
        judge_models.main(["--models", str(twin), "--out", str(out), "--only", "hands9"])

    before = (out / "twin.v4_valid.txt").stat().st_mtime_ns     # a second run reads, not reruns
    judge_models.main(["--models", str(twin), "--out", str(out)])
    assert (out / "twin.v4_valid.txt").stat().st_mtime_ns == before


def test_closeup_rows_read_each_named_part():
    whole, crops = empty_report(), empty_report()
    for photo in score_folder(V4, limit=2):
        add_photo(whole, photo)
        add_photo(crops, photo)
    text = format_report({"all": whole.to_json(),
                          "parts": {"v4-crops": {"all": crops.to_json(), "groups": {"k1": crops.to_json()}}}})
    f1 = f"{whole.to_json()['tile_f1']:.3f}"
    wrong = f"{whole.to_json()['wrong_shown_confident']:.2f}"
    assert judge_models.closeup_figures(text, ("v4-crops", "all", "leo-crops")) == \
        f"{f1} ({wrong}) / {f1} ({wrong}) / -"
