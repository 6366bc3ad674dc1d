"""A whole NTS match of 16 games and an nts-app session with flowers, replayed through
the command line (``mjscore session``) with the real scoring engine.

The expected values are computed by hand from the spec, not by the engine:
- every hand score and settlement in the comments follows §5-§11 (East pays and receives
  double, also between non-winners; the winner pays nothing; the sum is zero);
- table games copied from the spec's worked cases keep the case's seat winds; the players
  are chosen so that the rotation puts them in those seats;
- the standings after each game are the running sums of those settlements.

Players sit Anna, Bram, Cor, Dirk (counter-clockwise), Anna is East in game 1. Seat
winds per game number g (after every game the old South becomes East, §12):
    g = 1, 5, 9, 13:  Anna E  Bram S  Cor W  Dirk N
    g = 2, 6, 10, 14: Anna N  Bram E  Cor S  Dirk W
    g = 3, 7, 11, 15: Anna W  Bram N  Cor E  Dirk S
    g = 4, 8, 12, 16: Anna S  Bram W  Cor N  Dirk E
Prevailing wind: E games 1-4, S 5-8, W 9-12, N 13-16.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from mjscore.cli import app

PLAYERS = ["Anna", "Bram", "Cor", "Dirk"]

# (command line after `session hand`, {player: hand score}, deltas, standings after the game)
MATCH = [
    # 1 (E) SET-02: Bram (S) wins 136 on a discard; Anna (E) 16, Cor 0, Dirk 2.
    #   Bram gets 136x2 + 136 + 136 = 544. Anna-Cor: Cor pays 16x2 = 32; Anna-Dirk: Dirk pays
    #   (16-2)x2 = 28; Dirk-Cor: Cor pays 2. Anna -272+60 = -212, Cor -136-34 = -170,
    #   Dirk -136-28+2 = -162.
    (["--winner", "Bram", "--hand", "[GGG] [SSS] 234m567pWh +Wh", "--discard",
      "--hand-of", "Anna=RRR147m258p369sWh", "--hand-of", "Cor=369m147p258sEWNR",
      "--hand-of", "Dirk=NN258m369p147s99m"],
     {"Anna": 16, "Bram": 136, "Cor": 0, "Dirk": 2},
     (-212, 544, -170, -162), (-212, 544, -170, -162)),
    # 2 (E) SET-07: Dirk (W) self-drawn 144; Bram (E) 16, Cor 0, Anna (N) dead hand = 0.
    #   Dirk gets 288 + 144 + 144 = 576. Bram-Cor: 16x2 = 32 to Bram; Bram-Anna: 32 to Bram;
    #   Cor-Anna: 0. Bram -288+64 = -224, Cor -144-32 = -176, Anna -144-32 = -176.
    (["--winner", "Dirk", "--hand", "[RRR] [GGG] 345p678sW +W", "--self-drawn",
      "--hand-of", "Bram=WhWhWh147m258m369s1p", "--hand-of", "Cor=147s258p369mESNN",
      "--hand-of", "Anna=EEE147s258p369m", "--dead", "Anna"],
     {"Anna": 0, "Bram": 16, "Cor": 0, "Dirk": 144},
     (-176, -224, -176, 576), (-388, 320, -346, 414)),
    # 3 (E) draw (remise): nobody scores, nobody pays, the winds still move on.
    (["--draw"], {p: 0 for p in PLAYERS}, (0, 0, 0, 0), (-388, 320, -346, 414)),
    # 4 (E) scores counted at the table (SET-28's numbers): Bram (W) wins 200; Dirk (E) 200,
    #   Anna (S) 100, Cor (N) 500. Bram gets 400 + 200 + 200 = 800. Dirk-Anna: Anna pays
    #   100x2 = 200; Dirk-Cor: Dirk pays 300x2 = 600; Cor-Anna: Anna pays 400.
    #   Dirk -400+200-600 = -800, Anna -200-200-400 = -800, Cor -200+600+400 = +800.
    (["--winner", "Bram", "--score-of", "Bram=200", "--score-of", "Dirk=200",
      "--score-of", "Anna=100", "--score-of", "Cor=500"],
     {"Anna": 100, "Bram": 200, "Cor": 500, "Dirk": 200},
     (-800, 800, 800, -800), (-1188, 1120, 454, -386)),
    # 5 (S) SET-05: Bram (S) self-drawn 104 (seat = prevailing wind pung); Dirk (N) holds
    #   three concealed dragon kongs: 2000 (limit). Anna (E) 0, Cor 2.
    #   Bram gets 208 + 104 + 104 = 416. Dirk gets (2000)x2 from Anna, 1998 from Cor:
    #   Anna -208-4-4000 = -4212, Cor -104+4-1998 = -2098, Dirk -104+4000+1998 = +5894.
    (["--winner", "Bram", "--hand", "[SSS] 234m567p99m34s +5s", "--self-drawn",
      "--hand-of", "Anna=147m258p369sEWNN", "--hand-of", "Cor=147m258p369sEEWW",
      "--hand-of", "Dirk={RRRR} {GGGG} {WhWhWhWh} 147m8p"],
     {"Anna": 0, "Bram": 104, "Cor": 2, "Dirk": 2000},
     (-4212, 416, -2098, 5894), (-5400, 1536, -1644, 5508)),
    # 6 (S) SET-17: Anna (N) wins 136 on a discard; Bram (E) has a dead hand; Cor 16, Dirk 2.
    #   Anna gets 272 + 136 + 136 = 544. Bram pays Cor 32 and Dirk 4; Cor gets 14 from Dirk.
    #   Bram -272-36 = -308, Cor -136+32+14 = -90, Dirk -136+4-14 = -146.
    (["--winner", "Anna", "--hand", "[RRR] [GGG] 123m789pN +N",
      "--hand-of", "Bram=147s258s369s1m4m7mE", "--dead", "Bram",
      "--hand-of", "Cor=WhWhWh456m456p369s9m", "--hand-of", "Dirk=SS258m147p258p8s5s"],
     {"Anna": 136, "Bram": 0, "Cor": 16, "Dirk": 2},
     (544, -308, -90, -146), (-4856, 1228, -1734, 5362)),
    # 7 (S) winner's hand + the others' counted scores. Cor (E) self-drawn
    #   [EEE] RRR 234m 88s 45s +6s: open E pung 4, concealed R pung 8, mahjong 20,
    #   self-drawn 2 = 34; seat-wind pung 1 + dragon pung 1 doubling: 34 x 4 = 136.
    #   East winner: 272 from each = +816. Anna 8, Bram 0, Dirk 4 (no East among them):
    #   Anna +8+4, Bram -8-4, Dirk -4+4. Anna -260, Bram -284, Dirk -272.
    (["--winner", "Cor", "--hand", "[EEE] RRR 234m 88s 45s", "--winning-tile", "6s",
      "--self-drawn", "--score-of", "Anna=8", "--score-of", "Bram=0", "--score-of", "Dirk=4"],
     {"Anna": 8, "Bram": 0, "Cor": 136, "Dirk": 4},
     (-260, -284, 816, -272), (-5116, 944, -918, 5090)),
    # 8 (S) only scores: Anna (S) 48; Bram 12, Cor 0, Dirk (E) 24.
    #   Anna gets 48 + 48 + 96 = 192. Bram-Cor: Cor pays 12; Bram-Dirk: Bram pays 12x2 = 24;
    #   Cor-Dirk: Cor pays 24x2 = 48. Bram -48+12-24 = -60, Cor -48-12-48 = -108,
    #   Dirk -96+24+48 = -24.
    (["--winner", "Anna", "--score-of", "Anna=48", "--score-of", "Bram=12",
      "--score-of", "Cor=0", "--score-of", "Dirk=24"],
     {"Anna": 48, "Bram": 12, "Cor": 0, "Dirk": 24},
     (192, -60, -108, -24), (-4924, 884, -1026, 5066)),
    # 9 (W) SET-14: Anna (E) self-drawn 136; Bram 24 (three concealed pungs), Cor 32 (West
    #   pung: seat and prevailing wind), Dirk 2. Anna (E) gets 272 x 3 = 816. No East among
    #   the others: Bram pays Cor 8, Dirk pays Bram 22 and Cor 30.
    #   Bram -272-8+22 = -258, Cor -272+8+30 = -234, Dirk -272-22-30 = -324.
    (["--winner", "Anna", "--hand", "[RRR] 234mGGG99s45s +3s", "--self-drawn",
      "--hand-of", "Bram=222m555p888s369p1m", "--hand-of", "Cor=WWW147m369p258s4s",
      "--hand-of", "Dirk=147s369m568pNEWhWh"],
     {"Anna": 136, "Bram": 24, "Cor": 32, "Dirk": 2},
     (816, -258, -234, -324), (-4108, 626, -1260, 4742)),
    # 10 (W) SET-23: Anna (N) wins 272 (little three dragons, 34 x 2^3); Bram (E) 8,
    #   Cor 32, Dirk 32.
    #   Anna gets 544 + 272 + 272 = 1088. Bram pays Cor and Dirk (32-8)x2 = 48 each;
    #   Bram -544-96 = -640, Cor -272+48 = -224, Dirk -224.
    (["--winner", "Anna", "--hand", "[RRR] [GGG] 234m567pWh +Wh",
      "--hand-of", "Bram=[EEE] 147m258p368s1p", "--hand-of", "Cor={9999s} 147m258p36s58m",
      "--hand-of", "Dirk=WWW147m369p258s4s"],
     {"Anna": 272, "Bram": 8, "Cor": 32, "Dirk": 32},
     (1088, -640, -224, -224), (-3020, -14, -1484, 4518)),
    # 11 (W) draw.
    (["--draw"], {p: 0 for p in PLAYERS}, (0, 0, 0, 0), (-3020, -14, -1484, 4518)),
    # 12 (W) Bram (W) 96; Cor (N) dead hand without tiles given = 0; Anna (S) 16, Dirk (E) 8.
    #   Bram gets 96 + 96 + 192 = 384. Anna-Cor: Cor pays 16; Anna-Dirk: Dirk pays 8x2 = 16;
    #   Cor-Dirk: Cor pays 8x2 = 16. Anna -96+32 = -64, Cor -96-32 = -128,
    #   Dirk -192-16+16 = -192.
    (["--winner", "Bram", "--score-of", "Bram=96", "--dead", "Cor",
      "--score-of", "Anna=16", "--score-of", "Dirk=8"],
     {"Anna": 16, "Bram": 96, "Cor": 0, "Dirk": 8},
     (-64, 384, -128, -192), (-3084, 370, -1612, 4326)),
    # 13 (N) Dirk (N) thirteen orphans on a discard: limit 2000; Anna (E) 16, Bram 0, Cor 4.
    #   Dirk gets 4000 + 2000 + 2000 = 8000. Anna gets 32 from Bram and 24 from Cor;
    #   Cor gets 4 from Bram. Anna -3944, Bram -2036, Cor -2020.
    (["--winner", "Dirk", "--hand", "1m9m1p9p1s9sESWNRGWh +1m", "--from", "Anna",
      "--score-of", "Anna=16", "--score-of", "Bram=0", "--score-of", "Cor=4"],
     {"Anna": 16, "Bram": 0, "Cor": 4, "Dirk": 2000},
     (-3944, -2036, -2020, 8000), (-7028, -1666, -3632, 12326)),
    # 14 (N) draw.
    (["--draw"], {p: 0 for p in PLAYERS}, (0, 0, 0, 0), (-7028, -1666, -3632, 12326)),
    # 15 (N) Cor (E) 272; Anna 0, Bram 2, Dirk 0. Cor gets 544 x 3 = 1632;
    #   Bram gets 2 from Anna and 2 from Dirk. Anna -546, Bram -540, Dirk -546.
    (["--winner", "Cor", "--score-of", "Cor=272", "--score-of", "Anna=0",
      "--score-of", "Bram=2", "--score-of", "Dirk=0"],
     {"Anna": 0, "Bram": 2, "Cor": 272, "Dirk": 0},
     (-546, -540, 1632, -546), (-7574, -2206, -2000, 11780)),
    # 16 (N) Bram (W) 64; Anna (S) 2, Cor (N) 8, Dirk (E) 0. Bram gets 64 + 64 + 128 = 256.
    #   Anna pays Cor 6, Dirk pays Anna 2x2 = 4, Dirk pays Cor 8x2 = 16.
    #   Anna -64-6+4 = -66, Cor -64+6+16 = -42, Dirk -128-4-16 = -148.
    (["--winner", "Bram", "--score-of", "Bram=64", "--score-of", "Anna=2",
      "--score-of", "Cor=8", "--score-of", "Dirk=0"],
     {"Anna": 2, "Bram": 64, "Cor": 8, "Dirk": 0},
     (-66, 256, -42, -148), (-7640, -1950, -2042, 11632)),
]


@pytest.fixture
def cli(tmp_path):
    runner = CliRunner()
    db = str(tmp_path / "sessions.sqlite3")

    def invoke(*args: str, ok: bool = True):
        result = runner.invoke(app, ["session", *args, "--db", db])
        if ok:
            assert result.exit_code == 0, result.output
        assert result.exception is None or isinstance(result.exception, SystemExit), \
            repr(result.exception)
        return result

    return invoke


def exported(cli) -> dict:
    return json.loads(cli("export", "--json").stdout)


def test_sixteen_game_nts_match_standings_after_every_game(cli):
    cli("new", "--players", ",".join(PLAYERS), "--ruleset", "nts", "--name", "club night")
    winds = []
    for number, (args, scores, deltas, standings) in enumerate(MATCH, start=1):
        cli("hand", *args)
        data = exported(cli)
        game = data["games"][-1]
        assert game["number"] == number
        winds.append(game["prevailing_wind"])
        assert game["deltas"] == dict(zip(PLAYERS, deltas)), f"game {number}"
        assert game["hand_scores"] == scores, f"game {number}"
        totals = {row["player"]: row["total"] for row in data["standings"]}
        assert totals == dict(zip(PLAYERS, standings)), f"standings after game {number}"
    assert "".join(winds) == "EEEESSSSWWWWNNNN"
    assert data["end"] == {"reason": "complete"}
    assert [row["player"] for row in data["standings"]] == ["Dirk", "Bram", "Cor", "Anna"]

    shown = cli("show").stdout
    assert "game 16 of 16" in shown and "finished" in shown
    assert "11,632" in shown and "-7,640" in shown
    # a 17th game is refused and nothing changes
    refused = cli("hand", "--draw", "--session", "1", ok=False)
    assert refused.exit_code == 1
    assert "finished after 16 games" in refused.stderr
    assert "Traceback" not in refused.output
    assert len(exported(cli)["games"]) == 16


def test_nts_app_session_with_flowers_and_thrown_winds(cli):
    out = cli("new", "--players", ",".join(PLAYERS), "--ruleset", "nts-app", "--seed", "5").stdout
    assert "Prevailing wind (next game)" in out
    # game 1: the table threw West. Bram (S) wins 144 on a discard with a flower and a
    # season that are not his own (4 points each, APP-002): [WWW] 4 + [RRR] 4 + mahjong 20
    # + f1 4 + j3 4 = 36, prevailing-wind pung and dragon pung: 36 x 4 = 144.
    # Anna (E) 8, Cor 0, Dirk 4. nts-app settles every pair's difference (§11, DECISION 28):
    # Bram gets (144-8) x 2 + 144 + 140 = 556; Anna gets 16 from Cor and 8 from Dirk; Dirk gets
    # 4 from Cor. Anna -272+24 = -248, Cor -164, Dirk -140-8+4 = -144.
    cli("hand", "--winner", "Bram", "--hand", "[WWW] [RRR] 234m88s56p +7p / f1 j3", "--wind", "W",
        "--score-of", "Anna=8", "--score-of", "Cor=0", "--score-of", "Dirk=4")
    data = exported(cli)
    assert data["games"][0]["prevailing_wind"] == "W"
    assert data["games"][0]["deltas"] == {"Anna": -248, "Bram": 556, "Cor": -164, "Dirk": -144}
    thrown = data["state"]["next_wind"]
    # game 2: nobody passes --wind, so the program's throw counts. Cor (S) wins with his own
    # flower f2 (APP-004): R pung 4 + mahjong 20 + pair 2 + flower 4 = 30, dragon pung and
    # own flower: 30 x 4 = 120. Anna 4, Bram (E) 0, Dirk 0. Cor gets 116 + 240 + 120 = 476;
    # Anna gets 8 from Bram and 4 from Dirk. Anna -116+12 = -104, Bram -248, Dirk -124.
    cli("hand", "--winner", "Cor", "--hand", "[RRR] 234m567p345s8p +8p / f2",
        "--score-of", "Anna=4", "--score-of", "Bram=0", "--score-of", "Dirk=0")
    data = exported(cli)
    assert data["games"][1]["prevailing_wind"] == thrown
    assert data["games"][1]["deltas"] == {"Anna": -104, "Bram": -248, "Cor": 476, "Dirk": -124}
    # game 3: the whole table (SET-25) with a season for Anna (W): own season j3.
    # Dirk (S) wins 136. Cor (E): EE pair scores nothing in nts-app -> 0. Anna (W): concealed
    # R pung 8 + season 4 = 12, dragon pung + own season: 12 x 4 = 48. Bram (N): 0.
    # Dirk gets 272 + (136-48) + 136 = 496. Anna gets 48 x 2 = 96 from Cor and 48 from Bram.
    # Cor -272-96 = -368, Anna -88+144 = +56, Bram -136-48 = -184.
    cli("hand", "--winner", "Dirk", "--hand", "[GGG] [SSS] 234m567pWh +Wh", "--wind", "E",
        "--hand-of", "Cor=EE147m258p369sNW", "--hand-of", "Anna=RRR258m369p147sWh / j3",
        "--hand-of", "Bram=369m147p258sNNWR")
    data = exported(cli)
    game = data["games"][2]
    assert game["hand_scores"] == {"Anna": 48, "Bram": 0, "Cor": 0, "Dirk": 136}
    assert game["deltas"] == {"Anna": 56, "Bram": -184, "Cor": -368, "Dirk": 496}
    # the app stops whenever the table wants
    ended = cli("end").stdout
    assert "stopped early" in ended
    totals = {row["player"]: row["total"] for row in exported(cli)["standings"]}
    assert totals == {"Anna": -296, "Bram": 124, "Cor": -56, "Dirk": 228}
    shown = cli("show", "--lang", "nl").stdout
    assert "Stand" in shown and "eerder gestopt" in shown


def test_some_hands_and_some_counted_scores_settle_like_the_whole_table(cli):
    # SET-02 again, but only Anna's hand is laid out; Cor and Dirk say their scores.
    # Same numbers as game 1 of the match: Anna 16 (concealed red pung 8, dragon doubling),
    # Cor 0, Dirk 2 -> -212 / +544 / -170 / -162.
    cli("new", "--players", ",".join(PLAYERS))
    cli("hand", "--winner", "Bram", "--hand", "[GGG] [SSS] 234m567pWh +Wh",
        "--hand-of", "Anna=RRR147m258p369sWh", "--score-of", "Cor=0", "--score-of", "Dirk=2")
    game = exported(cli)["games"][0]
    assert game["hand_scores"] == {"Anna": 16, "Bram": 136, "Cor": 0, "Dirk": 2}
    assert game["deltas"] == {"Anna": -212, "Bram": 544, "Cor": -170, "Dirk": -162}


def test_a_hand_the_engine_rejects_is_reported_and_not_stored(cli):
    cli("new", "--players", ",".join(PLAYERS))
    # one doubling only (dragon pung): below the NTS minimum of two (§7)
    result = cli("hand", "--winner", "Bram", "--hand", "[GGG] 234m567p99s45s +6s",
                 "--score-of", "Anna=0", "--score-of", "Cor=0", "--score-of", "Dirk=0",
                 ok=False)
    assert result.exit_code == 1 and "min_doublings" in result.stderr
    assert "Traceback" not in result.output
    assert exported(cli)["games"] == []
