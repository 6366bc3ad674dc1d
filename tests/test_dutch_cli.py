"""Dutch at the command line (``--lang nl``): numbers with a thousands dot (7.394) in every
breakdown and final of ``mjscore score`` and ``mjscore scan`` (one function,
``scoring.numbers.number``), winds as O/Z/W/N, and refusals and errors without English."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from mjscore.cli import app
from mjscore.handscan.render import score_text
from mjscore.scoring.messages import translate
from mjscore.scoring.numbers import number

runner = CliRunner()


def score(*args: str):
    return runner.invoke(app, ["score", *args])


@pytest.mark.parametrize("value, nl, en", [
    (0, "0", "0"), (7, "7", "7"), (999, "999", "999"), (1000, "1.000", "1000"), (7394, "7.394", "7394"),
    (-12500, "-12.500", "-12500"), (1234567, "1.234.567", "1234567"), (2000.0, "2.000", "2000"),
    (None, "None", "None"), ("x", "x", "x"),
])
def test_number(value, nl, en):
    assert number(value, "nl") == nl and number(value, "en") == en and number(value) == en


def test_number_signed_and_fractions():
    assert number(1536, "nl", signed=True) == "+1.536" and number(-1536, "nl", signed=True) == "-1.536"
    assert number(0, "nl", signed=True) == "0" and number(1536, signed=True) == "+1536"
    assert number(1234.5, "nl") == "1.234,50" and number(1234.5) == "1234.50"
    assert number(True, "nl") == "True"


# [RRR] [GGG] (111m) (999m) (EE)* on a discard, nts-app (engine answer): 48 base points
# (4 + 4 open dragon pungs, 8 + 8 concealed terminal pungs, mahjong 20, only tile 2, pair
# completed 2) x 2^5 (two dragon pungs, very clean hand 2, four pungs) = 1536, under 2000.
BIG = ["[RRR] [GGG] 111m 999m E +E", "--seat", "E", "--wind", "E", "--discard", "--ruleset", "nts-app"]


def test_score_breakdown_numbers_in_dutch_and_english():
    nl = score(*BIG, "--lang", "nl")
    assert nl.exit_code == 0, nl.output
    lines = nl.stdout.splitlines()
    assert re.search(r"^Totaal +48 x 2\^5 = 1\.536$", nl.stdout, re.M), nl.stdout
    assert re.search(r"^Limiet +2\.000$", nl.stdout, re.M) and re.search(r"^Eindscore +1\.536$", nl.stdout, re.M)
    assert lines[1] == "  nts-app, eigen wind O, ronde O, van een weggelegde steen"
    en = score(*BIG)
    assert re.search(r"^Total +48 x 2\^5 = 1536$", en.stdout, re.M) and re.search(r"^Final score +1536$", en.stdout, re.M)
    assert json.loads(score(*BIG, "--json", "--lang", "nl").stdout)["final"] == 1536       # JSON stays a number


def test_limit_hand_line_in_dutch():
    twins = score("11m 22m 33m 44m 55m 66m 7m +7m", "--seat", "E", "--wind", "S", "--discard", "--lang", "nl")
    assert twins.exit_code == 0, twins.output
    assert "Limietspel: Zuivere tweelingen = 1.000" in twins.stdout
    assert re.search(r"^Eindscore +1\.000$", twins.stdout, re.M)


def test_scan_breakdown_numbers_in_dutch():
    """The scan's own breakdown (handscan/render.py) from the engine's answer for the bundled
    hand photo_3.jpg self-drawn (58 base points x 2^6 = 3712, limited to 2000)."""
    answer = {"valid": True, "decomposition": ["(111s)", "(567s)*"], "base_points": [["mahjong", 20]],
              "base_total": 58, "doublings": [["clean_hand", 1]], "doublings_total": 6,
              "total_before_limit": 3712, "final": 2000}
    nl = score_text(answer, "nl")
    assert nl[1] == "  * = de set die de winnende steen afmaakte"
    assert nl[-2].split() == ["totaal", "3.712"] and nl[-1].split() == ["eindscore", "2.000"]
    en = score_text(answer, "en")
    assert en[-2].split() == ["total", "3712"] and en[-1].split() == ["final", "score", "2000"]


def test_scan_of_the_bundled_hand_in_dutch():
    from pathlib import Path
    photo = Path(__file__).resolve().parents[1] / "samples" / "chinese-v4" / "images" / "photo_3.jpg"
    result = runner.invoke(app, ["scan", str(photo), "--self-drawn", "--lang", "nl"])
    assert result.exit_code == 0, result.output
    assert re.search(r"^  totaal +3\.712$", result.stdout, re.M) and re.search(r"^  eindscore +2\.000$", result.stdout, re.M)
    assert "eigen wind O, ronde O, winnende steen 7s, zelf gepakt, regels nts-app" in result.stdout


def test_dutch_winds_are_accepted_and_shown():
    hand = ["[EEE] RRR 234m 88s 45s +6s", "--self-drawn"]
    nl = score(*hand, "--seat", "O", "--wind", "Z", "--lang", "nl")
    assert nl.exit_code == 0 and nl.stdout.splitlines()[1] == "  nts, eigen wind O, ronde Z, zelf gepakt"
    en = score(*hand, "--seat", "O", "--wind", "Z")
    assert en.stdout.splitlines()[1] == "  nts, seat E, wind S, self-drawn"
    assert json.loads(score(*hand, "--seat", "Oost", "--wind", "zuid", "--json").stdout)["final"] == \
        json.loads(score(*hand, "--seat", "E", "--wind", "S", "--json").stdout)["final"]


# English words that have no place in a Dutch refusal or error (option names, tiles and the
# typed notation are left out before the check, and so are the values true/false one types;
# "hand", "is" and "of" are Dutch too).
ENGLISH = {"the", "tile", "tiles", "doubling", "missing", "give", "with", "only", "must", "group", "winning",
           "winner", "error", "appears", "are", "not", "use", "write", "needs", "one", "empty", "invalid",
           "unknown", "known", "switch", "whole", "number", "loose", "here", "token",
           "position", "flowers", "seasons", "bonus", "dead", "scores", "belong", "valid", "syntax", "none"}
WON = ["--seat", "E", "--wind", "S", "--discard"]
HAND = "RRR 234m 88s 456s EE +E"


@pytest.mark.parametrize("args, status", [
    ([HAND, *WON, "--ruleset", "nts-app", "--bonus", "5m"], 2),          # a played tile as a bonus tile
    ([HAND, *WON, "--bonus", "[f1]"], 2),                                 # a group in --bonus
    ([HAND, *WON, "--bonus", "f9"], 2),
    ([HAND, *WON, "--config", "nope=1"], 2),                              # the engine's config checks
    ([HAND, *WON, "--config", "limit=-5"], 2),
    ([HAND, *WON, "--config", "wind_pair_points=7"], 2),
    ([HAND, *WON, "--config", "settlement=7"], 2),
    ([HAND, *WON, "--config", "limit"], 2),
    (["RRR 234m 88s 456s EE", "--seat", "Q", "--wind", "S"], 2),
    ([HAND, "--seat", "E", "--wind", "S"], 2),                            # how was it won?
    (["RRR 234m 88s 456s", *WON], 2),                                     # short
    (["", *WON], 2), (["/ f1", *WON], 2), (["RRR +6s 234m", *WON], 2), (["1 2 3", *WON], 2),
    (["(123m)(456m)(789m)(234p) 5s +5s", *WON], 1),                      # min_doublings, with "would be" lines
    (["[1234m] 555p 666s 77s 888m +8m", *WON], 1),                        # invalid_meld
    (["{1234m} 555p 666s 77s 888m +8m", *WON], 1),
    (["[123m] [123m] [123m] [123m] [123m] +1m", *WON], 1),               # too_many_copies
    ([HAND, "--seat", "E", "--wind", "E", "--discard", "--earth"], 1),   # special_condition
    ([HAND, "--seat", "E", "--wind", "E", "--self-drawn", "--kong-on-kong"], 1),
    ([HAND, *WON, "--ruleset", "nts-app", "--bonus", "f1 f1"], 1),        # duplicate_bonus_tile
    ([HAND + " / f1", *WON], 1),                                          # bonus_tiles_not_allowed
    (["123m 456m 789m 234p 55s 5s", "--seat", "E", "--wind", "E"], 0),    # a dead hand (too many tiles)
])
def test_dutch_refusals_and_errors_hold_no_english(args, status):
    result = score(*args, "--lang", "nl")
    assert result.exit_code == status, result.output
    said = result.output.lower().replace(args[0].lower(), " ")
    said = re.sub(r"--[a-z-]+|'[^'\n]*'|\b[a-z_]+_[a-z_]+\b", " ", said)      # options, quoted values, config keys
    words = set(re.findall(r"[a-z]+", said))
    assert not words & ENGLISH, (result.output, words & ENGLISH)
    assert "Traceback" not in result.output
    if status == 2:
        assert result.stderr.startswith("fout: ")


def test_a_config_the_engine_refuses_is_an_error_not_a_refused_hand():
    en = score(HAND, *WON, "--config", "nope=1")
    assert en.exit_code == 2 and en.stdout == "" and en.stderr.startswith("error: unknown config switch 'nope'")
    nl = score(HAND, *WON, "--config", "limit=-5", "--lang", "nl")
    assert nl.stderr == "fout: config 'limit' moet een geheel getal van 0 tot 1000000000 zijn, niet -5\n"


def test_a_located_notation_error_is_translated_through_its_message():
    text = "hand.bonus[0]: only flowers (f1..f4) and seasons (j1..j4) are bonus tiles (token '5m' at position 1)"
    assert translate(text, "nl") == ("hand.bonus[0]: alleen bloemen (f1..f4) en seizoenen (j1..j4) zijn "
                                     "bonusstenen (teken '5m' op positie 1)")
    assert translate("something else (token 'x' at position 1)", "nl") is None


def test_scan_missing_context_in_dutch(tmp_path):
    from mjscore.handscan.context import make_context
    from mjscore.handscan.pipeline import evaluate
    from mjscore.handscan.render import result_text
    from mjscore.vision.layout import group_tiles
    from mjscore.vision.types import TileRead
    tiles = [TileRead(k, (60.0 * i, 0.0, 60.0 * i + 55, 80.0), 0.99)
             for i, k in enumerate("R R R 1s 1s 1s 2s 3s 4s 5s 5s 5s 6s 7s".split())]
    res = evaluate("hand.jpg", group_tiles(tiles), make_context(seat="O", lang="nl"))
    text = result_text(res)
    assert "ontbreekt: ronde, winnende steen, hoe gewonnen (geef --seat / --wind / --winning-tile / " \
           "--discard of --self-drawn)" in text


SCAN_ENGLISH = ENGLISH | {"largest", "block", "row", "concealed", "exposed", "check", "or",
                          "note", "lies", "may", "be", "extra", "doubtful", "grouping", "regroup", "laid",
                          "scored", "from", "among", "photo", "read", "kind", "form", "do"}


@pytest.mark.parametrize("name", ["photo_2", "photo_4", "photo_5"])
def test_dutch_scan_of_a_messy_photo_holds_no_english(name):
    """Real photos that are no hand (loose tiles): layout reasons, warnings, refusals and the
    missing-tile notes all come out in Dutch (``scoring.messages.say``)."""
    from pathlib import Path
    photo = Path(__file__).resolve().parents[1] / "samples" / "chinese-v4" / "images" / f"{name}.jpg"
    result = runner.invoke(app, ["scan", str(photo), "--seat", "O", "--wind", "Z", "--winning-tile", "5m",
                                 "--discard", "--lang", "nl"])
    assert "Traceback" not in result.output and result.exit_code == 1, result.output
    said = result.output.lower().replace(str(photo).lower(), " ")
    said = re.sub(r"--[a-z-]+|'[^'\n]*'|\b(?:[1-9][mps]|wh|[eswnrgx]|[fj][1-4])\b", " ", said)
    words = set(re.findall(r"[a-z]+", said))
    assert not words & SCAN_ENGLISH, (result.output, words & SCAN_ENGLISH)


def test_say_translates_a_reason_part_by_part():
    from mjscore.scoring.messages import say
    assert say("the largest block of 1 tile in the row; the largest block of 7 tiles in the row", "nl") == \
        "het grootste blok van 1 steen in de rij; het grootste blok van 7 stenen in de rij"
    assert say("holds a sideways tile (claimed discard); set apart by a gap of 0.7 tile widths", "nl") == \
        "heeft een dwarse steen (geclaimde afgooi); apart gelegd met een ruimte van 0.7 steenbreedtes"
    assert say("no template; for this", "nl") == "no template; for this"
    assert say("set by hand", "en") == "set by hand"
    # the command line's wording of a hint that names its options (the page words it its own way)
    assert say("grouping of set 2 is doubtful: check the sets, regroup with 'move' or give --hand", "nl") == \
        "indeling van set 2 is twijfelachtig: controleer de sets, deel anders in met 'move' of geef --hand"


def test_the_dutch_catalogue_has_each_english_template_once():
    import ast
    from pathlib import Path
    import mjscore.scoring.messages as messages
    tree = ast.parse(Path(messages.__file__).read_text(encoding="utf-8"))
    table = next(n.value for n in tree.body if isinstance(n, ast.AnnAssign) and getattr(n.target, "id", "") == "NL")
    keys = [ast.literal_eval(k) for k in table.keys]
    assert len(keys) == len(set(keys)), sorted(k for k in set(keys) if keys.count(k) > 1)


@pytest.mark.parametrize("args, said", [
    (["--seat", "Q"], "fout: eigen wind 'Q' is geen wind (E of O, S of Z, W, N)"),
    (["--wind", "X"], "fout: ronde 'X' is geen wind (E of O, S of Z, W, N)"),
    (["--winning-tile", "7x"], "fout: winnende steen '7x' is geen steen (bv. 5p, 9s, 1m, E, R, Wh)"),
    (["--discard", "--self-drawn"], "fout: kies maar één van --discard, --self-drawn, --robbed-kong"),
    (["--threshold", "3"], "fout: --threshold is een zekerheid tussen 0 en 1"),
    (["--ruleset", "mcr"], "fout: regels 'mcr' zijn geen van nts, nts-app"),
])
def test_dutch_scan_option_errors(tmp_path, args, said):
    result = runner.invoke(app, ["scan", str(tmp_path / "hand.jpg"), *args, "--lang", "nl"])
    assert result.exit_code == 2 and result.stderr == said + "\n", result.output


def test_dutch_scan_context_file_and_photo_errors(tmp_path):
    (tmp_path / "hand.jpg").write_bytes(b"")
    (tmp_path / "hand.json").write_text('{"seet": "E"}')
    bad = runner.invoke(app, ["scan", str(tmp_path / "hand.jpg"), "--lang", "nl"])
    assert bad.exit_code == 2
    assert bad.stderr.startswith(f"fout: contextbestand {tmp_path / 'hand.json'}: onbekende sleutel 'seet' (bekend: ")
    (tmp_path / "hand.json").unlink()
    empty = runner.invoke(app, ["scan", str(tmp_path / "hand.jpg"), "--lang", "nl"])
    assert empty.exit_code == 1
    assert empty.stderr == f"{tmp_path / 'hand.jpg'}: fout: {tmp_path / 'hand.jpg'}: het bestand is leeg (0 bytes), geen foto\n"
    english = runner.invoke(app, ["scan", str(tmp_path / "hand.jpg"), "--seat", "Q"])
    assert english.stderr == "error: seat 'Q' is not a wind (E, S, W or N)\n"


def test_dutch_scan_asks_for_the_context_in_dutch(monkeypatch, capsys):
    from mjscore.handscan.cli_scan import _ask_missing
    from mjscore.handscan.context import make_context
    answers, prompts = iter(["", "afgooi", "Q", "O", "Z"]), []
    monkeypatch.setattr("builtins.input", lambda p: prompts.append(p) or next(answers))
    ctx = _ask_missing(make_context(lang="nl"), "7s")
    assert (ctx.winning_tile, ctx.win_type, ctx.seat, ctx.wind) == ("7s", "discard", "E", "S")
    assert prompts[0] == "Winnende steen (bv. 5p, E, Wh) [7s, de steen die apart ligt]: "
    assert prompts[2] == prompts[3] == "Eigen wind van de winnaar [O/Z/W/N]: "
    assert "eigen wind 'Q' is geen wind" in capsys.readouterr().err
