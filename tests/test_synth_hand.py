"""Hand scenes for end-to-end tests: notation -> layout -> photo with every tile labelled."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from mjscore.datasets.synth.hand_scene import LayoutError, NotationError, main as hand_main, parse_notation, render_hand

EXAMPLE = "[EEE] {X77pX} RRR 234m 88s 45s +6s / f1 j3"


def test_notation_becomes_the_layout_on_the_table():
    layout = parse_notation(EXAMPLE)
    assert layout.concealed == ["R", "R", "R", "2m", "3m", "4m", "8s", "8s", "4s", "5s", "6s"]
    assert layout.winning == "6s" and layout.concealed[-1] == "6s"
    assert [m.tiles for m in layout.melds] == [["E", "E", "E"], ["X", "7p", "7p", "X"]]
    assert [m.concealed for m in layout.melds] == [False, True]
    assert layout.bonus == ["f1", "j3"]
    assert Counter(layout.kinds()) == Counter(
        {"R": 3, "E": 3, "X": 2, "7p": 2, "8s": 2, "2m": 1, "3m": 1, "4m": 1, "4s": 1, "5s": 1, "6s": 1,
         "f1": 1, "j3": 1})


def test_notation_aliases_and_honour_runs():
    layout = parse_notation("[CCC] {FFFF} WhWhP 1112345678999m")
    assert layout.melds[0].tiles == ["R"] * 3 and layout.melds[1].tiles == ["G"] * 4
    assert layout.concealed[:3] == ["Wh", "Wh", "Wh"] and len(layout.concealed) == 16


@pytest.mark.parametrize("bad, words, position", [
    ("55P", "suit letters are lowercase: write 55p", 1),
    ("123", "digits must be followed by a suit letter", 1),
    ("RRR +6s +7s", "only one +winning tile", 9),
    ("RRR / 5p", "only flowers (f1..f4) and seasons (j1..j4) go after /", 7),
    ("[EEE RRR", "group opened with '[' is never closed", 1)])
def test_unreadable_notation_gets_the_engines_message_and_position(bad, words, position):
    with pytest.raises(NotationError) as exc:
        parse_notation(bad)
    assert words in str(exc.value) and f"at position {position})" in str(exc.value)


@pytest.mark.parametrize("bad, word", [("[X55p]", "face-down"), ("{XXXX}", "face up"), ("RR X +R", "face-down"),
                                       ("", "empty"), ("/ f1", "empty"), ("[f1f2f3]", "aside")])
def test_notation_that_cannot_lie_on_the_table_is_named(bad, word):
    with pytest.raises(LayoutError) as exc:
        parse_notation(bad)
    assert word in str(exc.value)


def test_layout_follows_the_engines_reading_of_fixed_groups_and_loose_flowers():
    layout = parse_notation("RR (555p) f2 123m +R")
    assert layout.concealed == ["5p", "5p", "5p", "R", "R", "1m", "2m", "3m", "R"]
    assert layout.bonus == ["f2"] and layout.melds == []


@pytest.mark.parametrize("seed, rows, rotation, standing, sideways", [
    (1, 2, 0.0, False, False), (2, 1, 90.0, False, True), (3, 2, 180.0, False, True), (4, 2, 20.0, True, False)])
def test_render_hand_shows_every_tile_once(seed, rows, rotation, standing, sideways):
    layout = parse_notation(EXAMPLE)
    layout.rows, layout.rotation, layout.standing = rows, rotation, standing
    if sideways:
        layout.melds[0].sideways = 1
    image, tiles, meta = render_hand(layout, seed, size=480, art="committed")
    h, w = image.shape[:2]
    assert (w, h) == ((480, 640) if rotation == 90.0 else (480, 360))  # portrait when turned
    assert Counter(kind for kind, _, _ in tiles) == Counter(layout.kinds())
    for _, (x0, y0, x1, y1), _ in tiles:
        assert 0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h
    assert meta["missing"] == 0 and meta["rotation"] == rotation % 360
    groups = Counter(t["group"] for t in meta["tiles"])
    assert groups == Counter({"concealed": 11, "meld0": 3, "meld1": 4, "bonus": 2})
    # upright tiles of the concealed row point the way the photo is turned
    angles = [t["angle"] for t in meta["tiles"] if t["group"] == "concealed"]
    diff = [abs((a - rotation + 180) % 360 - 180) for a in angles]
    assert np.median(diff) < 25


def test_sideways_tile_is_turned_a_quarter():
    layout = parse_notation("[555p] 123m 456m 789m 1s +1s")
    layout.rotation, layout.melds[0].sideways = 0.0, 0
    _, _, meta = render_hand(layout, 5, size=480, art="committed")
    meld = [t for t in meta["tiles"] if t["group"] == "meld0"]
    turned = [t for t in meld if t["position"] == 0][0]
    assert 60 < abs((turned["angle"] + 180) % 360 - 180) < 120


def test_hand_cli_writes_a_jpeg_and_rejects_bad_notation(tmp_path, capsys):
    out = tmp_path / "hand.jpg"
    assert hand_main(["--notation", "RRR 234m 88s 45s 99p +6s", "--out", str(out), "--size", "320",
                      "--art", "committed", "--seed", "3"]) == 0
    assert out.read_bytes()[:2] == b"\xff\xd8"
    assert hand_main(["--notation", "55P", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "bad hand notation: suit letters are lowercase" in err and "at position 1" in err


def test_bundled_samples_match_their_notation():
    """samples/synthetic: small JPEGs whose listed labels are exactly the notation's tiles."""
    import json
    from pathlib import Path

    folder = Path(__file__).resolve().parents[1] / "samples" / "synthetic"
    entries = json.loads((folder / "hands.json").read_text())
    assert len(entries) >= 6
    for entry in entries:
        path = folder / entry["file"]
        assert path.read_bytes()[:2] == b"\xff\xd8" and path.stat().st_size < 200_000
        kinds = Counter(t["kind"] for t in entry["tiles"])
        assert kinds == Counter(parse_notation(entry["notation"]).kinds()), entry["file"]
        for t in entry["tiles"]:
            x0, y0, x1, y1 = t["box"]
            assert 0 <= x0 < x1 <= entry["width"] and 0 <= y0 < y1 <= entry["height"]


def test_hand_set_renders_the_worked_cases_with_their_expected_scores(tmp_path):
    import json

    from mjscore.datasets.synth.hand_set import main as hand_set_main

    cases = [
        {"id": "A", "ruleset": "nts-app", "notation": "[EEE] RRR 234m 88s 45s +6s / f1",
         "input": {"hand": {"seat_wind": "E"}}, "expected": {"final": 136}},
        {"id": "B", "notation": "55P", "input": {"hand": {}}},  # unreadable: skipped
        {"id": "C", "notation": "RRR", "input": {"players": []}},  # not a single hand: skipped
    ]
    (tmp_path / "cases.json").write_text(json.dumps(cases))
    out = tmp_path / "hands"
    assert hand_set_main(["--out", str(out), "--cases", str(tmp_path / "cases.json"), "--variants", "2",
                          "--size", "320", "--art", "committed"]) == 0
    lines = [json.loads(line) for line in (out / "hands.jsonl").read_text().splitlines()]
    assert [e["file"] for e in lines] == ["A_0.jpg", "A_1.jpg"]
    for e in lines:
        assert (out / e["file"]).exists() and e["expected"]["final"] == 136
        assert Counter(t["kind"] for t in e["tiles"]) == Counter(parse_notation(e["notation"]).kinds())
    assert hand_set_main(["--out", str(out), "--cases", str(tmp_path / "missing.json")]) == 2
