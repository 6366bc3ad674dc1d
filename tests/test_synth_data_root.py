"""Development tools find the reference data under ``--data-root`` or ``$MJSCORE_DATA_ROOT``,
never under a path of one machine; without either they say so and stop."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from mjscore.datasets.paths import CASES, DATA_ROOT_ENV, DataRootError, data_root, known_data_root

BUNDLED_CASES = Path(__file__).parent / "data" / "cases.json"


def test_the_option_wins_over_the_environment_and_neither_is_an_error(tmp_path, monkeypatch):
    monkeypatch.setenv(DATA_ROOT_ENV, str(tmp_path / "env"))
    assert data_root() == tmp_path / "env"
    assert data_root(tmp_path / "opt") == tmp_path / "opt"
    monkeypatch.delenv(DATA_ROOT_ENV)
    assert known_data_root() is None
    with pytest.raises(DataRootError, match=f"--data-root DIR or set {DATA_ROOT_ENV}"):
        data_root()


def test_the_worked_cases_default_to_the_specs_copy_under_the_data_root(tmp_path, monkeypatch, capsys):
    from mjscore.datasets.synth.hand_set import main as hand_set_main

    monkeypatch.delenv(DATA_ROOT_ENV, raising=False)
    with pytest.raises(SystemExit) as stop:
        hand_set_main(["--out", str(tmp_path / "out")])
    assert stop.value.code == 2 and DATA_ROOT_ENV in capsys.readouterr().err
    (tmp_path / CASES).parent.mkdir(parents=True)
    (tmp_path / CASES).write_text(json.dumps([{"id": "A", "notation": "RRR 234m 88s 45s 99p +6s",
                                                "input": {"hand": {}}, "expected": {"final": 1}}]))
    monkeypatch.setenv(DATA_ROOT_ENV, str(tmp_path))
    assert hand_set_main(["--out", str(tmp_path / "out"), "--variants", "1", "--size", "240", "--art", "committed"]) == 0
    assert [json.loads(line)["case"] for line in (tmp_path / "out" / "hands.jsonl").read_text().splitlines()] == ["A"]


def test_scene_eval_makes_scenes_of_the_cases_it_is_given(tmp_path, monkeypatch, capsys):
    from mjscore.datasets.scene_eval import main as scene_eval_main, make_scenes
    from mjscore.datasets.synth.hand_layout import parse_notation

    entries = make_scenes(tmp_path / "scenes", 2, BUNDLED_CASES, seed=1, size=320)
    assert len(entries) == 2 and (tmp_path / "scenes" / "hands.json").exists()
    for e in entries:
        assert Counter(t["kind"] for t in e["tiles"]) == Counter(parse_notation(e["notation"]).kinds())
    monkeypatch.delenv(DATA_ROOT_ENV, raising=False)
    with pytest.raises(SystemExit) as stop:
        scene_eval_main(["make", str(tmp_path / "more")])
    assert stop.value.code == 2 and DATA_ROOT_ENV in capsys.readouterr().err
