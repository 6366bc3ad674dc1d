"""A riichi match through the command line with the real settlement engine, covering the
seed-3 examples: two counters on a ron, a tsumo with one counter, draws with the dealer
tenpai and noten, deposits carried over a draw, several winners on one discard, a chombo
and the leftover stick at the end.

Expected values are worked out by hand from spec §16 (tables in §16.2, counters §16.3,
deposits §16.4, noten payments §16.5, dealer repeat §16.6). Everybody starts with 30,000.
Players sit A, B, C, D; A deals first. Seat winds: the dealer is East, then counter-
clockwise (the dealer's right-hand neighbour is South)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from mjscore.cli import app

PLAYERS = ["A", "B", "C", "D"]

# (args after `session hand`, deltas A B C D, totals after, round label, honba after,
#  pot after)
HANDS = [
    # E1, 0 counters, 0 sticks. Draw, only A (dealer) tenpai, A declared riichi:
    # A +3000 - 1000 stick, the others -1000 each. Dealer stays, 1 counter, 1 stick.
    (["--draw", "--tenpai", "A", "--riichi", "A"],
     (2000, -1000, -1000, -1000), (32000, 29000, 29000, 29000), "E1", 1, 1),
    # E1, 1 counter, 1 stick. Draw, A and C tenpai: +1500 each, B and D -1500 each.
    # The stick stays on the table; dealer tenpai stays, 2 counters.
    (["--draw", "--tenpai", "A,C"],
     (1500, -1500, 1500, -1500), (33500, 27500, 30500, 27500), "E1", 2, 1),
    # E1, 2 counters, 1 stick. Seed example 1: B (South) ron 2 han 30 fu from C (West):
    # 2000 + 2 x 300 = 2600 paid by C; B also takes the stick: +3600.
    # Dealer A did not win: the deal passes to B, counters back to 0.
    (["--winner", "B", "--han", "2", "--fu", "30", "--ron-from", "C"],
     (0, 3600, -2600, 0), (33500, 31100, 27900, 27500), "E1", 0, 0),
    # E2 (B deals; B E, C S, D W, A N). Draw with the dealer noten, only C tenpai:
    # C +3000, the others -1000. The deal passes to C and a counter is added anyway.
    (["--draw", "--tenpai", "C"],
     (-1000, -1000, 3000, -1000), (32500, 30100, 30900, 26500), "E2", 1, 0),
    # E3 (C deals; C E, D S, A W, B N), 1 counter. Seed example 2: A (West) tsumo
    # 3 han 30 fu: dealer C pays 2000 + 100, D and B 1000 + 100 each: A +4300.
    (["--winner", "A", "--han", "3", "--fu", "30", "--tsumo"],
     (4300, -1100, -2100, -1100), (36800, 29000, 28800, 25400), "E3", 0, 0),
    # E4 (D deals; D E, A S, B W, C N). Draw, D and C tenpai, C declared riichi:
    # D +1500, C +1500 - 1000, A and B -1500. Dealer stays, 1 counter, 1 stick.
    (["--draw", "--tenpai", "D,C", "--riichi", "C"],
     (-1500, -1500, 500, 1500), (35300, 27500, 29300, 26900), "E4", 1, 1),
    # E4, 1 counter, 1 stick (C's). B declares riichi; C discards and both A (South)
    # 3 han 30 fu and B (West) 1 han 40 fu win. C pays A 3900 + 300 and B 1300 + 300.
    # B gets his own stick back; the older stick goes to the first winner after the
    # discarder in turn order (C North -> D East -> A South): A.
    # A +4200 + 1000, B +1600 - 1000 + 1000, C -5800. Dealer D did not win: deal passes.
    (["--winner", "A", "--han", "3", "--fu", "30", "--winner", "B", "--han", "1",
      "--fu", "40", "--ron-from", "C", "--riichi", "B"],
     (5200, 1600, -5800, 0), (40500, 29100, 23500, 26900), "E4", 0, 0),
    # S1 (A deals). C makes a chombo after B declared riichi: B's stick goes back, no
    # payments here (penalty out of scope, §17.24), no counter, the hand is replayed.
    (["--chombo", "C", "--riichi", "B"],
     (0, 0, 0, 0), (40500, 29100, 23500, 26900), "S1", 0, 0),
    # S1 replayed. Draw, D tenpai with riichi: D +3000 - 1000, others -1000.
    # Dealer A noten: the deal passes to B, 1 counter, 1 stick on the table.
    (["--draw", "--tenpai", "D", "--riichi", "D"],
     (-1000, -1000, -1000, 2000), (39500, 28100, 22500, 28900), "S1", 1, 1),
]


@pytest.fixture
def cli(tmp_path):
    runner = CliRunner()
    db = str(tmp_path / "riichi.sqlite3")

    def invoke(*args: str, ok: bool = True):
        result = runner.invoke(app, ["session", *args, "--db", db])
        if ok:
            assert result.exit_code == 0, result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)
        return result

    return invoke


def test_riichi_match_counters_deposits_and_dealer_repeat(cli):
    cli("new", "--players", ",".join(PLAYERS), "--ruleset", "riichi")
    for number, (args, deltas, totals, label, honba, pot) in enumerate(HANDS, start=1):
        cli("hand", *args)
        data = json.loads(cli("export", "--json").stdout)
        game = data["games"][-1]
        assert "".join(map(str, game["round"])) == label, f"hand {number}"
        assert game["deltas"] == dict(zip(PLAYERS, deltas)), f"hand {number}"
        assert {r["player"]: r["total"] for r in data["standings"]} == dict(zip(PLAYERS, totals))
        assert (data["state"]["honba"], data["state"]["pot"]) == (honba, pot), f"hand {number}"
    # after the last hand B deals South 2 with one counter and one stick on the table
    assert data["seats"] == {"A": "N", "B": "E", "C": "S", "D": "W"}
    shown = cli("show").stdout
    assert "South 2" in shown and "counters 1" in shown and "riichi sticks 1" in shown
    # stopping now: the leftover stick goes to first place (A)
    cli("end")
    data = json.loads(cli("export", "--json").stdout)
    assert data["end"]["pot_awarded"] == 1
    assert {r["player"]: r["total"] for r in data["standings"]} == \
        {"A": 40500, "B": 28100, "C": 22500, "D": 28900}


def test_riichi_hanchan_ends_by_itself_after_south_four(cli):
    cli("new", "--players", ",".join(PLAYERS), "--ruleset", "riichi", "--start", "25000")
    # eight non-dealer wins: the deal passes every hand, E1..E4 then S1..S4.
    # Each is a 1 han 30 fu ron (1000) by the dealer's right-hand neighbour from the
    # player opposite the dealer, so over the match every player wins twice and pays twice.
    for number in range(8):
        dealer = number % 4
        winner, discarder = PLAYERS[(dealer + 1) % 4], PLAYERS[(dealer + 2) % 4]
        cli("hand", "--winner", winner, "--han", "1", "--fu", "30", "--ron-from", discarder)
    data = json.loads(cli("export", "--json").stdout)
    assert data["end"] == {"reason": "complete"}
    assert [g["round"] for g in data["games"]] == [[w, n] for w in "ES" for n in (1, 2, 3, 4)]
    assert {r["player"]: r["total"] for r in data["standings"]} == {p: 25000 for p in PLAYERS}
    refused = cli("hand", "--draw", "--session", "1", ok=False)
    assert "finished" in refused.stderr


def test_riichi_winner_from_tiles(cli):
    cli("new", "--players", ",".join(PLAYERS), "--ruleset", "riichi")
    # B (South) declared riichi and wins on D's discard with 234m 456p 678s 78s SS + 9s:
    # riichi 1 han; fu 20 + 10 (closed ron) + 2 (pair of his seat wind) = 32 -> 40.
    # Non-dealer ron 1 han 40 fu = 1300; B's own stick comes back.
    cli("hand", "--winner", "B", "--hand", "234m456p678s78sSS +9s", "--ron-from", "D",
        "--riichi", "B")
    game = json.loads(cli("export", "--json").stdout)["games"][0]
    assert game["wins"][0]["han"] == 1 and game["wins"][0]["fu"] == 40
    assert game["wins"][0]["yaku"] == ["Riichi"]
    assert game["deltas"] == {"A": 0, "B": 1300, "C": 0, "D": -1300}


def test_one_hand_in_full_names_the_players(cli):
    cli("new", "--players", ",".join(PLAYERS), "--ruleset", "riichi")
    for args, *_ in HANDS[:3]:
        cli("hand", *args)
    detail = cli("show", "--game", "3").stdout
    assert "ron B 2 han 30 fu from C" in detail
    # the engine's explanation, with the players' names at their seats (A East, B South,
    # C West): seed example 1, 2000 + 2 x 300
    assert "C (West) pays B (South) 2000 + 600 for 2 counters = 2600." in detail
    dutch = cli("show", "--game", "3", "--lang", "nl").stdout
    assert "C (West) betaalt B (Zuid)" in dutch
