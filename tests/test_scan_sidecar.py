"""The context file beside a photo (``PHOTO.json`` or the same name with ``.json``) and the
README's first command, which scans the bundled hand photo with it.

``samples/chinese-v4/images/photo_3.jpg`` is a real winning hand (its dataset labels:
RRR 111s 234s 55s 567s and f1 f2 j1 j2 j4); ``photo_3.json`` beside it gives the table
context the photo cannot show: seat E, prevailing wind E, won on a discarded 7s, nts-app."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mjscore.cli import app
from mjscore.handscan.context import SidecarError, read_sidecar, sidecar_path

ROOT = Path(__file__).resolve().parents[1]
HAND_PHOTO = ROOT / "samples" / "chinese-v4" / "images" / "photo_3.jpg"
runner = CliRunner()

# The bundled hand with its context file, worked out by hand (nts-app, SCORING_SPEC) and
# confirmed by the engine: concealed pungs 111s and RRR 8 + 8, mahjong 20, five bonus tiles
# 5 x 4 = 56 base points; doublings: dragon pung, clean hand (bamboo + honours), own flower
# f1 and own season j1 (seat East = 1) = 4, so 56 x 2^4 = 896, under the 2000 limit.
FINAL_WITH_SIDECAR = 896
# The same with --self-drawn on the command line: + 2 for self-drawn = 58 base points;
# + 2 doublings for a fully concealed self-drawn hand (hidden treasure) = 6;
# 58 x 64 = 3712, over the limit: 2000.
TOTAL_SELF_DRAWN, FINAL_SELF_DRAWN = 3712, 2000


def scan(*args: str):
    return runner.invoke(app, ["scan", *map(str, args)])


def test_readme_first_command_scans_the_bundled_hand():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    quick = readme.split("## Quick start", 1)[1]
    first = re.search(r"```sh\n(.*?)\n", quick).group(1)
    command = first.split("&&")[-1].split()
    assert command[:2] == [".venv/bin/mjscore", "scan"], first
    assert ROOT / command[2] == HAND_PHOTO and len(command) == 3, "the first command is the short one"
    assert sidecar_path(HAND_PHOTO) == HAND_PHOTO.with_suffix(".json")


def test_the_hand_photo_scores_with_its_sidecar():
    result = scan(HAND_PHOTO.relative_to(ROOT) if Path.cwd() == ROOT else HAND_PHOTO)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert re.search(r"^context from .*photo_3\.json: seat E, prevailing wind E, winning tile 7s, on a discard, "
                     r"ruleset nts-app$", out, re.M), out
    assert "hand: 11123455567s RRR / f1 f2 j1 j2 j4" in out                      # read as labelled
    assert "hand (scored): 1112345556s RRR +7s / f1 f2 j1 j2 j4" in out
    assert "(111s) (234s) (567s)* (RRR) (55s)" in out
    assert re.search(r"^  base points +56$", out, re.M) and re.search(r"^  doublings +4$", out, re.M)
    assert out.rstrip().splitlines()[-1].split()[-1] == str(FINAL_WITH_SIDECAR)


def test_json_names_the_context_file_and_scores():
    result = scan(HAND_PHOTO, "--json")
    assert result.exit_code == 0, result.output
    obj = json.loads(result.stdout)
    assert obj["context_file"] == str(HAND_PHOTO.with_suffix(".json"))
    assert obj["context"] == {"seat": "E", "prevailing_wind": "E", "winning_tile": "7s", "win_type": "discard",
                              "ruleset": "nts-app", "special": []}
    assert obj["valid"] and obj["final"] == FINAL_WITH_SIDECAR
    assert "context from" in result.stderr                     # said on stderr, stdout stays JSON


def test_an_option_overrides_the_sidecar():
    result = scan(HAND_PHOTO, "--self-drawn", "--json")
    assert result.exit_code == 0, result.output
    obj = json.loads(result.stdout)
    assert obj["context"]["win_type"] == "self_drawn" and obj["context"]["seat"] == "E"
    assert obj["score"]["total_before_limit"] == TOTAL_SELF_DRAWN and obj["final"] == FINAL_SELF_DRAWN
    assert "(--self-drawn from the command line override it)" in result.stderr
    ruleset = scan(HAND_PHOTO, "--ruleset", "nts", "--json")           # nts: bonus tiles are refused
    assert ruleset.exit_code == 1 and json.loads(ruleset.stdout)["score"]["reason"] == "bonus_tiles_not_allowed"


def test_no_context_file_reads_only():
    result = scan(HAND_PHOTO, "--no-context-file")
    assert result.exit_code == 0, result.output
    assert "context from" not in result.output and "final score" not in result.stdout
    assert "hand: 11123455567s RRR / f1 f2 j1 j2 j4" in result.stdout


@pytest.fixture
def photo(tmp_path):
    target = tmp_path / "hand.jpg"
    shutil.copyfile(HAND_PHOTO, target)
    return target


@pytest.mark.parametrize("text, problem", [
    ('{"seat": "E",', "not valid JSON"),
    ('["E", "E"]', "must be one JSON object"),
    ('{"seat": "Q"}', "seat 'Q' is not a wind"),
    ('{"seet": "E"}', "unknown key 'seet'"),
    ('{"seat": 1}', "'seat' must be a text"),
    ('{"winning_tile": "7x"}', "winning tile '7x' is not a tile"),
    ('{"win_type": "lucky"}', "win type 'lucky'"),
    ('{"ruleset": "mcr"}', "ruleset 'mcr'"),
    ('{"wind": "E", "prevailing_wind": "S"}', "once"),
    ('\udcff', "not UTF-8"),
])
def test_a_broken_sidecar_is_exit_2_named_and_untouched(photo, text, problem):
    sidecar = photo.with_suffix(".json")
    data = text.encode("utf-8", "surrogateescape")
    sidecar.write_bytes(data)
    result = scan(photo)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"error: context file {sidecar}: ") and problem in result.stderr, result.stderr
    assert result.stdout == ""                                    # stopped before reading the photo
    assert "Traceback" not in result.output
    assert hashlib.sha256(sidecar.read_bytes()).digest() == hashlib.sha256(data).digest()


def test_a_broken_sidecar_of_a_later_photo_stops_before_the_first(photo):
    second = photo.with_name("second.jpg")
    shutil.copyfile(photo, second)
    second.with_suffix(".json").write_text("{}{}")
    result = scan(photo, second)
    assert result.exit_code == 2 and "second.json" in result.stderr and result.stdout == ""


def test_photo_dot_json_comes_first_and_a_saved_result_is_no_sidecar(photo):
    photo.with_suffix(".json").write_text('{"seat": "Q"}')                # would be refused
    (photo.parent / "hand.jpg.json").write_text('{"seat": "S", "wind": "W", "winning_tile": "7s", '
                                                 '"win_type": "discard", "ruleset": "nts-app"}')
    assert sidecar_path(photo) == photo.parent / "hand.jpg.json"
    assert read_sidecar(sidecar_path(photo))["seat"] == "S"
    (photo.parent / "hand.jpg.json").unlink()
    with pytest.raises(SidecarError, match="hand.json"):
        read_sidecar(sidecar_path(photo))
    # scan --save hand.json beside the photo is a saved result, not a context: noted, not used
    photo.with_suffix(".json").write_text(json.dumps({"photo": str(photo), "tiles": [], "context": {}}))
    assert read_sidecar(photo.with_suffix(".json")) is None
    result = scan(photo)
    assert result.exit_code == 0, result.output
    assert "is a saved scan result, not a context file: not used" in result.stdout
    assert "final score" not in result.stdout


def test_dutch_context_line(photo):
    shutil.copyfile(HAND_PHOTO.with_suffix(".json"), photo.with_suffix(".json"))
    result = scan(photo, "--lang", "nl", "--seat", "O", "--json")
    assert result.exit_code == 0, result.output
    assert ("(--seat van de opdrachtregel gaan voor): eigen wind O, ronde O, winnende steen 7s, "
            "van een weggelegde steen, regels nts-app") in result.stderr


def test_special_moments_travel_too_and_no_context_file_skips_a_broken_one(photo):
    sidecar = photo.with_suffix(".json")
    sidecar.write_text('{"seat": "S", "wind": "E", "winning_tile": "7s", "win_type": "self_drawn", '
                       '"ruleset": "nts-app", "special": "last_wall_tile"}')
    assert read_sidecar(sidecar)["special"] == ["last_wall_tile"]
    result = scan(photo, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["context"]["special"] == ["last_wall_tile"]
    sidecar.write_text("{broken")
    skipped = scan(photo, "--no-context-file", "--json")
    assert skipped.exit_code == 0 and "context_file" not in json.loads(skipped.stdout)
