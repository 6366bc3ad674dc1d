"""The `mjscore session` commands: bad input gets one clear line and exit status 1 (no
traceback) and changes nothing; list, export, undo, languages, dice seating."""

from __future__ import annotations

import csv
import io
import json

import pytest
from typer.testing import CliRunner

from mjscore.cli import app

PLAYERS = "Anna,Bram,Cor,Dirk"


@pytest.fixture
def db(tmp_path):
    return tmp_path / "sessions.sqlite3"


@pytest.fixture
def cli(db):
    runner = CliRunner()

    def invoke(*args: str, ok: bool = True, status: int = 1):
        result = runner.invoke(app, ["session", *args, "--db", str(db)])
        assert result.exception is None or isinstance(result.exception, SystemExit), \
            repr(result.exception)
        assert "Traceback" not in result.output
        if ok:
            assert result.exit_code == 0, result.output
        else:
            assert result.exit_code == status, result.output
            assert result.stderr.startswith("error: ")
        return result

    return invoke


def games(cli, *session: str) -> list:
    return json.loads(cli("export", "--json", *session).stdout)["games"]


def test_unknown_player_is_named_and_nothing_is_stored(cli):
    cli("new", "--players", PLAYERS)
    result = cli("hand", "--winner", "Bob", "--score-of", "Bob=20", ok=False)
    assert "unknown player 'Bob'" in result.stderr and "Anna, Bram, Cor, Dirk" in result.stderr
    result = cli("hand", "--winner", "Anna", "--score-of", "Anna=20", "--score-of", "Eve=0",
                 ok=False)
    assert "unknown player 'Eve'" in result.stderr
    assert games(cli) == []


def test_hand_for_a_finished_match_is_refused(cli):
    cli("new", "--players", PLAYERS, "--name", "short")
    cli("end")
    result = cli("hand", "--winner", "Anna", "--score-of", "Anna=20", ok=False)
    assert "is finished" in result.stderr
    result = cli("hand", "--draw", "--session", "short", ok=False)
    assert "is finished" in result.stderr
    assert "re-opened" in cli("undo").stdout
    assert "open" in cli("list").stdout


def test_corrupt_database_is_reported_and_kept(cli, db):
    garbage = b"SQLite format 3\x00" + b"\xff" * 5000
    db.write_bytes(garbage)
    for args in (["list"], ["show"], ["new", "--players", PLAYERS],
                 ["hand", "--draw"], ["export", "--csv"]):
        result = cli(*args, ok=False, status=3)
        assert "damaged or not a database" in result.stderr
        assert str(db) in result.stderr
    assert db.read_bytes() == garbage


def test_no_session_yet(cli):
    assert "no open session" in cli("hand", "--draw", ok=False).stderr
    assert "no sessions yet" in cli("list").stdout
    assert "no session 7" in cli("show", "--session", "7", ok=False).stderr


@pytest.mark.parametrize("args, message", [
    (["--winner", "Anna", "--han", "3", "--fu", "30", "--tsumo"], "cannot be used in a nts"),
    (["--draw", "--winner", "Anna"], "no winner"),
    (["--draw", "--score-of", "Anna=4"], "takes no hands"),
    (["--winner", "Anna", "--score-of", "Anna=lots"], "whole number"),
    (["--winner", "Anna", "--hand-of", "Bram"], "NAME=VALUE"),
    (["--winner", "Anna", "--self-drawn", "--discard", "--score-of", "Anna=8"], "choose one"),
    (["--winner", "Anna", "--wind", "S", "--score-of", "Anna=8"], "nts-app"),
    (["--winner", "Anna,Bram"], "one winner"),
    (["--winner", "Anna", "--photo", "missing.jpg"], "not found"),
    (["--winner", "Anna", "--hand", "[EEE 234m", "--score-of", "Bram=0",
      "--score-of", "Cor=0", "--score-of", "Dirk=0"],
     "group opened with '[' is never closed (token '[' at position 1)"),   # the engine's parser
    (["--draw", "--lang", "fr"], "en or nl"),
])
def test_bad_nts_options(cli, args, message):
    cli("new", "--players", PLAYERS)
    assert message in cli("hand", *args, ok=False).stderr
    assert games(cli) == []


@pytest.mark.parametrize("args, message", [
    (["--winner", "A", "--score-of", "A=8"], "cannot be used in a riichi"),
    (["--winner", "A", "--hand", "123m", "--han", "2", "--tsumo"], "not a mix"),
    (["--winner", "A", "--hand", "[123m] 456p789s11m23s +4s", "--ron-from", "B"],
     "no yaku"),
    (["--winner", "A", "--han", "2", "--fu", "30", "--tsumo", "--dora", "3m"], "need the"),
    (["--winner", "A", "--han", "2", "--fu", "30"], "exactly one of"),
    (["--winner", "A", "--han", "2", "--fu", "30", "--tsumo", "--draw"], "exactly one of"),
    (["--winner", "A", "--winner", "B", "--han", "2", "--fu", "30", "--ron-from", "C"],
     "one --han per winner"),
    (["--winner", "A", "--han", "lots", "--tsumo"], "number or 'yakuman'"),
    (["--winner", "A", "--han", "2", "--fu", "30", "--fu", "40", "--tsumo"], "more --fu"),
    (["--draw", "--winner", "A"], "no winners"),
    (["--winner", "A", "--han", "2", "--fu", "30", "--ron-from", "A"], "own discard"),
])
def test_bad_riichi_options(cli, args, message):
    cli("new", "--players", "A,B,C,D", "--ruleset", "riichi")
    assert message in cli("hand", *args, ok=False).stderr
    assert games(cli) == []


@pytest.mark.parametrize("args, message", [
    (["--players", "Anna,Bram,Cor"], "exactly four"),
    (["--players", PLAYERS, "--ruleset", "mcr"], "unknown ruleset"),
    (["--players", "Anna,Bram,Cor,anna"], "must differ"),
])
def test_bad_new_session(cli, args, message):
    assert message in cli("new", *args, ok=False).stderr
    assert "no sessions yet" in cli("list").stdout


def test_seats_by_dice_are_shown_and_reproducible(cli):
    first = cli("new", "--players", PLAYERS, "--seats-by-dice", "--seed", "11").stdout
    second = cli("new", "--players", PLAYERS, "--seats-by-dice", "--seed", "11").stdout
    assert "Seats by dice:" in first
    pick = [line for line in first.splitlines() if line.startswith(("Seats", "Seats by dice"))]
    assert pick == [line for line in second.splitlines()
                    if line.startswith(("Seats", "Seats by dice"))]
    assert "Winden gegooid" in cli("show", "--lang", "nl").stdout


def test_two_open_sessions_list_export_and_undo(cli, tmp_path):
    cli("new", "--players", PLAYERS, "--name", "club")
    cli("new", "--players", "W,X,Y,Z", "--name", "home")
    # without --session the latest open session gets the game
    cli("hand", "--winner", "X", "--score-of", "X=32", "--score-of", "W=0",
        "--score-of", "Y=0", "--score-of", "Z=0")
    # X (S) 32: W (E) pays 64, Y and Z 32 each
    cli("hand", "--session", "club", "--winner", "Anna", "--score-of", "Anna=24",
        "--score-of", "Bram=0", "--score-of", "Cor=0", "--score-of", "Dirk=0")
    assert len(games(cli, "--session", "home")) == 1
    assert len(games(cli, "--session", "club")) == 1
    listed = cli("list").stdout
    assert "club" in listed and "home" in listed
    out = tmp_path / "home.csv"
    assert "wrote" in cli("export", "--csv", "--session", "home", "--out", str(out)).stdout
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    assert [(r["player"], r["seat"], r["delta"], r["total"]) for r in rows] == [
        ("W", "E", "-64", "-64"), ("X", "S", "128", "128"),
        ("Y", "W", "-32", "-32"), ("Z", "N", "-32", "-32")]
    assert "game 1 removed" in cli("undo", "--session", "home").stdout
    assert games(cli, "--session", "home") == []
    assert "choose one of --csv or --json" in cli("export", ok=False).stderr


def test_show_labels_in_both_languages(cli):
    cli("new", "--players", PLAYERS, "--name", "labels")
    cli("hand", "--winner", "Bram", "--score-of", "Bram=136", "--score-of", "Anna=16",
        "--score-of", "Cor=0", "--score-of", "Dirk=2")
    english = cli("show").stdout
    dutch = cli("show", "--lang", "nl").stdout
    assert "Standings" in english and "Prevailing wind" in english and "South" in english
    assert "Stand" in dutch and "Heersende wind" in dutch and "Zuid" in dutch
    # game row: seat, own score and settlement of every player (SET-02's numbers)
    row = next(line for line in english.splitlines() if line.startswith("1  E "))
    for cell in ("E   16    -212", "S  136    +544", "W    0    -170", "N    2    -162"):
        assert cell in row


def test_winner_hand_from_a_photo(cli, tmp_path, monkeypatch):
    """--photo goes through handscan; the recognizer is replaced by a stand-in that
    "sees" thirteen orphans in one row, one tile of them doubtful."""
    from mjscore.handscan import pipeline
    from mjscore.vision.types import PhotoRead, TileRead

    kinds = "1m 1m 9m 1p 9p 1s 9s E S W N R G Wh".split()
    tiles = [TileRead(k, (10 + i * 42, 100, 50 + i * 42, 156), 0.4 if k == "G" else 0.95)
             for i, k in enumerate(kinds)]
    monkeypatch.setattr(pipeline, "load_recognizer",
                        lambda spec=None: lambda path: PhotoRead(path, 640, 480, tiles))
    photo = tmp_path / "hand.jpg"
    photo.write_bytes(b"stand-in: the recognizer is replaced")
    cli("new", "--players", PLAYERS)
    result = cli("hand", "--winner", "Anna", "--photo", str(photo), "--winning-tile", "1m",
                 "--score-of", "Bram=0", "--score-of", "Cor=0", "--score-of", "Dirk=0")
    read = next(line for line in result.stderr.splitlines() if line.startswith("read from"))
    assert read.startswith("read from hand.jpg: ") and read.endswith("+1m")
    assert "doubtful tiles" in result.stderr
    # thirteen orphans: limit 2000; Anna is East, so each pays 4000
    game = games(cli)[0]
    assert game["deltas"] == {"Anna": 12000, "Bram": -4000, "Cor": -4000, "Dirk": -4000}
    assert game["photo"] == str(photo)
    assert game["hands"]["Anna"] == read[len("read from hand.jpg: "):]


def test_one_game_in_full(cli):
    cli("new", "--players", PLAYERS)
    cli("hand", "--winner", "Bram", "--hand", "[GGG] [SSS] 234m567pWh +Wh",
        "--hand-of", "Anna=RRR147m258p369sWh", "--score-of", "Cor=0", "--score-of", "Dirk=2")
    detail = cli("show", "--game", "1").stdout.splitlines()
    assert "Anna (East): RRR147m258p369sWh = 16 · -212" in detail
    assert "Bram (South): [GGG] [SSS] 234m567pWh +Wh = 136 · +544" in detail
    assert "Cor (West): (score counted at the table) = 0 · -170" in detail
    # the engine's lines for the winner, in the chosen language
    assert any("Mahjong" in line and "20" in line for line in detail)
    assert any("Paar draken" in line for line in cli("show", "--game", "1", "--lang", "nl")
               .stdout.splitlines())
    assert "no game 2" in cli("show", "--game", "2", ok=False).stderr


def test_database_path_that_is_a_folder(cli, tmp_path):
    runner = CliRunner()
    result = runner.invoke(app, ["session", "list", "--db", str(tmp_path)])
    assert result.exit_code == 3 and "is a folder" in result.stderr


def test_hand_prints_the_game_the_totals_and_the_next_seats(cli):
    cli("new", "--players", PLAYERS)
    out = cli("hand", "--winner", "Bram", "--score-of", "Bram=136", "--score-of", "Anna=16",
              "--score-of", "Cor=0", "--score-of", "Dirk=2").stdout.splitlines()
    assert out == ["game 1: Bram mahjong 136 on a discard",
                   "Anna -212  Bram +544  Cor -170  Dirk -162",
                   "Total: Anna -212  Bram 544  Cor -170  Dirk -162",
                   "next game: game 2 · Prevailing wind East · East: Bram"]
    out = cli("hand", "--draw", "--lang", "nl").stdout.splitlines()
    assert out[0] == "spel 2: remise"
    assert out[-1] == "volgend spel: spel 3 · Heersende wind Oost · Oost: Cor"
