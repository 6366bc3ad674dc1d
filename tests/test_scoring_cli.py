"""`mjscore score` through the real command (typer's CliRunner): breakdowns in English and
Dutch, JSON answers, exit codes, and bad input shown without a traceback."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mjscore.cli import app

runner = CliRunner()
CASES = json.loads((Path(__file__).parent / "data" / "cases.json").read_text(encoding="utf-8"))


def run(*args: str, stdin: str | None = None):
    return runner.invoke(app, ["score", *args], input=stdin)


def test_seed_example_breakdown_in_english():
    result = run("[EEE] RRR 234m 88s 45s +6s", "--seat", "E", "--wind", "S", "--self-drawn",
                 "--ruleset", "nts-app")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Open pung of terminals or honours (East)" in out
    assert "Pung/kong of dragons (red)" in out
    assert "34 x 2^2 = 136" in out
    assert "Final score" in out and out.rstrip().splitlines()[-2].endswith("136")
    assert "[EEE] (RRR) (234m) (456s)* (88s)" in out


def test_breakdown_in_dutch():
    result = run("[EEE] RRR 234m 88s 45s +6s", "--seat", "E", "--wind", "S", "--self-drawn", "--lang", "nl")
    assert result.exit_code == 0, result.output
    assert "Dichte pung van hoekstenen, winden of draken (rood)" in result.stdout
    assert "Eindscore" in result.stdout and "Verdubbelingen" in result.stdout


def test_json_answer_for_a_hand_in_notation():
    result = run("[RRR] [GGG] 234m 567p Wh +Wh", "--seat", "S", "--wind", "E", "--discard", "--json")
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert answer["final"] == 272 and ["little_three_dragons", 1] in answer["doublings"]


def test_special_moments_and_bonus_options():
    result = run("[RRR] {7777m} 234s 678s 5p +5p", "--seat", "S", "--wind", "E", "--self-drawn",
                 "--kong-replacement", "--json")
    assert ["plum_blossom", 3] in json.loads(result.stdout)["doublings"]
    result = run("[RRR] 234m567p345s8p +8p", "--seat", "S", "--wind", "E", "--discard", "--bonus", "f2",
                 "--ruleset", "nts-app", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["final"] == 120            # APP-004


def test_refused_hand_exits_1_with_reason_and_would_be_lines():
    result = run("[RRR] 234m567p345s8p +8p", "--seat", "S", "--wind", "E", "--discard")
    assert result.exit_code == 1
    assert "NOT A VALID HAND: min_doublings" in result.stdout
    assert "Pung/kong of dragons (red)" in result.stdout


def test_notation_error_shows_a_caret_under_the_token():
    result = run("[RRR] 234m 55P +8p", "--seat", "S", "--wind", "E", "--discard")
    assert result.exit_code == 2
    assert "suit letters are lowercase" in result.stderr
    lines = result.stderr.splitlines()
    assert lines[1].strip() == "[RRR] 234m 55P +8p"
    assert lines[2].index("^") == lines[1].index("55P") and lines[2].count("^") == 3
    assert "Traceback" not in result.output


def test_missing_options_are_named():
    assert "--seat" in run("RRR +G", "--wind", "E", "--discard").stderr
    assert "--self-drawn" in run("[RRR] [GGG] 234m 567p Wh +Wh", "--seat", "S", "--wind", "E").stderr
    bad = run("[RRR] [GGG] 234m 567p Wh +Wh", "--seat", "Q", "--wind", "E", "--discard")
    assert bad.exit_code == 2 and "--seat" in bad.stderr


def test_json_request_from_a_file(tmp_path):
    case = next(c for c in CASES if c["id"] == "SET-02")
    path = tmp_path / "request.json"
    path.write_text(json.dumps({**case["input"], "ruleset": case["ruleset"]}))
    result = run("--json", str(path))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["settlement"] == case["expected"]["settlement"]


def test_json_request_from_stdin_invalid_request_exits_1():
    case = next(c for c in CASES if c["id"] == "NTS-039")
    result = run("--json", "-", stdin=json.dumps({**case["input"], "ruleset": "nts"}))
    assert result.exit_code == 1
    assert json.loads(result.stdout) == {**json.loads(result.stdout), "valid": False, "reason": "too_many_copies"}


def test_unreadable_json_exits_2_without_traceback():
    result = run("--json", "-", stdin="{not json")
    assert result.exit_code == 2
    assert "not valid JSON" in result.stderr and "Traceback" not in result.output
    result = run("--json", "-", stdin="[1, 2]")
    assert result.exit_code == 2 and "one JSON object" in result.stderr


def test_config_switch_and_non_winner_hand():
    capped = run("[EEE] [NNN] [RRR] WWW Wh +Wh", "--seat", "S", "--wind", "E", "--self-drawn",
                 "--config", "limit=1000", "--json")
    assert json.loads(capped.stdout)["final"] == 1000
    bad = run("[EEE] [NNN] [RRR] WWW Wh +Wh", "--seat", "S", "--wind", "E", "--self-drawn", "--config", "limit")
    assert bad.exit_code == 2 and "KEY=VALUE" in bad.stderr
    own = run("RRR 147m258p369sWh", "--seat", "E", "--wind", "E")
    assert own.exit_code == 0 and "own score" in own.stdout and own.stdout.rstrip().endswith("16")


def test_winds_are_read_in_english_or_dutch_the_same_everywhere():
    """One reader of typed winds (scoring.words.wind_code): letters, names, Dutch O/Z."""
    from mjscore.handscan.context import parse_wind
    from mjscore.scoring.words import wind_code

    assert [wind_code(t) for t in ("e", " South ", "Oost", "O", "Z", "noord", "W")] == ["E", "S", "E", "E", "S", "N", "W"]
    assert wind_code("Q") is None and wind_code("") is None
    assert parse_wind("zuid", "seat") == "S"


# -- bad input at the edges (issue 14) -------------------------------------------------------

def test_a_digit_that_is_not_ascii_gets_a_caret_and_exit_2():
    result = run("12𝟙s 345m", "--seat", "E", "--wind", "S")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == ["error: tile numbers are the plain digits 1 to 9",
                                          "  12𝟙s 345m", "    ^"]


def test_json_of_a_folder_or_a_missing_file_is_a_clear_error(tmp_path):
    folder = run("--json", str(tmp_path))
    assert folder.exit_code == 2 and folder.stderr == f"error: {tmp_path} is a folder, not a request file\n"
    missing = run("--json", str(tmp_path / "request.json"))
    assert missing.exit_code == 2 and missing.stderr == f"error: no such file: {tmp_path / 'request.json'}\n"
    hand = run("--json", "[RRR] 234m 678p 555s 1s", "--seat", "E", "--wind", "S")   # notation stays notation
    assert hand.exit_code == 0 and json.loads(hand.stdout)["final"] == 16


@pytest.mark.parametrize("text, message", [
    ("[" * 100_000 + "]" * 100_000, "is nested too deeply to be a request"),
    ('{"ruleset": "nts", "config": {"limit": 1' + "0" * 5000 + "}}", "holds a number too long"),
])
def test_json_too_deep_or_with_a_huge_number_exits_2(text, message):
    result = run("--json", "-", stdin=text)
    assert result.exit_code == 2 and message in result.stderr and "Traceback" not in result.output


@pytest.mark.parametrize("request_, reason, status", [
    ({"ruleset": "nts", "config": [1], "prevailing_wind": "E", "hand": {}}, "syntax", 2),
    ({"ruleset": "riichi-settlement", "result": {"type": "draw", "tenpai": "E"}}, "syntax", 2),
    ({"ruleset": "riichi-settlement", "result": {"type": "ron", "discarder": "E",
                                                "winners": [{"seat": "E", "han": 1, "fu": 30}]}},
     "impossible_result", 1),
])
def test_a_refused_request_exits_by_its_reason(request_, reason, status):
    result = run("--json", "-", stdin=json.dumps(request_))
    assert result.exit_code == status
    assert json.loads(result.stdout)["reason"] == reason


def test_a_lone_surrogate_quoted_back_stays_valid_json():
    request_ = '{"ruleset": "nts", "prevailing_wind": "E", "hand": {"seat_wind": "E", "concealed": "\\ud800"}}'
    result = run("--json", "-", stdin=request_)
    assert result.exit_code == 2
    assert json.loads(result.stdout)["text"] == "\ud800"


# -- issue 16: empty and short hands, the * legend, Dutch messages ------------------------------

@pytest.mark.parametrize("hand", ["", "   ", "RRR 234m", "RRR 234m +5m"])
def test_an_empty_or_short_hand_is_bad_input(hand):
    result = run(hand, "--seat", "E", "--wind", "S", *(["--discard"] if "+" in hand else []))
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("error: ") and "None" not in result.output
    assert ("empty" if not hand.strip() else "belong") in result.stderr


def test_the_star_is_explained_only_when_shown():
    won = run("[EEE] RRR 234m 88s 45s +6s", "--seat", "E", "--wind", "S", "--self-drawn")
    lines = won.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("Arrangement:"))
    assert lines[at + 1] == "  * = the set the winning tile completed"
    nl = run("[EEE] RRR 234m 88s 45s +6s", "--seat", "E", "--wind", "S", "--self-drawn", "--lang", "nl")
    assert "  * = de set die de winnende steen afmaakte" in nl.stdout.splitlines()
    own = run("RRR 147m258p369sWh", "--seat", "E", "--wind", "E")
    assert "*" not in own.stdout


ENGLISH = {"the", "tile", "tiles", "doubling", "doublings", "missing", "give", "should", "with", "only", "must",
           "group", "winning", "winner", "error", "appears", "there", "are", "not", "use", "write", "needs",
           "one", "after", "before", "closed", "lowercase", "followed", "valid", "flowers", "seasons", "unknown",
           "empty", "invalid", "number", "wrong", "how", "won", "self", "drawn", "discard", "play", "none"}
WON = ["--seat", "E", "--wind", "S", "--discard"]


@pytest.mark.parametrize("args, status", [
    (["123m 456m 789m 234p 55s +5s", *WON], 1),                          # tile_count
    (["123m 456m 789m 23p 55s +4p", *WON], 1),                           # min_doublings
    (["[12p] RRR 234m 88s 456s +6s", *WON], 1),                          # invalid_meld
    (["[f1 f2 f3] RRR 234m 88s 456s +6s", *WON], 1),                     # invalid_meld (bonus in a group)
    (["X RRR 234m 88s 45s 66s +6s", *WON], 1),                           # face_down_tile
    (["1111m 234p 55s 456s 789s +1m", *WON], 1),                         # too_many_copies
    (["135m 246p 79s 135s EE +W", *WON], 1),                             # no_valid_hand
    (["[EEE] RRR 234m 88s 45s +6s / f1", *WON], 1),                      # bonus_tiles_not_allowed
    (["[EEE] RRR 234m 88s 45s +6s / f1 f1", *WON, "--ruleset", "nts-app"], 1),   # duplicate_bonus_tile
    (["[EEE] RRR 234m 88s 45s +6s", "--seat", "S", "--wind", "S", "--self-drawn", "--heavenly"], 1),
    (["[EEE] RRR 234m 88s 45s +6s", "--seat", "E", "--wind", "S", "--discard", "--kong-replacement"], 1),
    (["123m 456m 7M", *WON], 2), (["103m", *WON], 2), (["[123m 456m", *WON], 2), (["123m] +1m", *WON], 2),
    (["123m +", *WON], 2), (["12m f5", *WON], 2), (["abc", *WON], 2), (["123m +1m +2m", *WON], 2),
    (["[]", *WON], 2), (["123m", "--bonus", "f5", *WON], 2), (["123m / 4m", *WON], 2),
    (["RRR +G", "--wind", "E", "--discard"], 2), (["RRR +G", "--seat", "Q", "--wind", "E", "--discard"], 2),
    (["RRR +G", "--seat", "E", "--wind", "E", "--discard", "--self-drawn"], 2),
    (["RRR +G", "--seat", "E", "--wind", "E"], 2), (["RRR", *WON], 2),
    (["RRR +G", *WON, "--ruleset", "mcr"], 2), (["RRR +G", *WON, "--config", "limit"], 2),
    (["RRR +G", *WON, "--config", "limit=lots"], 2), ([""], 2), (["RRR 234m", "--seat", "E", "--wind", "S"], 2),
])
def test_dutch_refusals_and_errors_hold_no_english(args, status):
    result = run(*args, "--lang", "nl")
    assert result.exit_code == status, result.output
    said = re.sub(r"--[a-z-]+", " ", result.output.lower().replace(args[0].lower(), " "))   # option names stay
    words = set(re.findall(r"[a-z]+", said))
    assert not words & ENGLISH, (result.output, words & ENGLISH)
    assert "Traceback" not in result.output


def test_dutch_request_file_errors(tmp_path):
    folder = run("--json", str(tmp_path), "--lang", "nl")
    assert folder.exit_code == 2 and folder.stderr == f"fout: {tmp_path} is een map, geen verzoekbestand\n"
    missing = run("--json", str(tmp_path / "r.json"), "--lang", "nl")
    assert missing.stderr == f"fout: bestand bestaat niet: {tmp_path / 'r.json'}\n"
    assert "geen geldige JSON" in run("--json", "-", "--lang", "nl", stdin="{").stderr
    assert "één JSON-object" in run("--json", "-", "--lang", "nl", stdin="[1]").stderr
