"""Session logic that does not depend on the scoring engine: rotation, dice, notation
splitting, storage, undo/end, bad input. The engine is replaced by ``fake_engine``, a
stand-in that settles given scores by the §11 formula and answers riichi requests with
the §16.6 dealer/counter rule (no payments), so these tests check *this* package's
bookkeeping, not scoring."""

from __future__ import annotations

import json
import random
import sqlite3

import pytest

from mjscore.match import dice, rotation
from mjscore.match.model import NtsGame, RiichiGame, RiichiWin, SessionError
from mjscore.match.notation import NotationError, split_hand
from mjscore.match.session import MatchBook
from mjscore.match.store import SCHEMA_VERSION, Store, StoreError

WINDS = "ESWN"
PLAYERS = ["Anna", "Bram", "Cor", "Dirk"]


def fake_engine(request: dict) -> dict:
    """Stand-in for ``scoring.score_request`` (see module docstring)."""
    if request["ruleset"] == "riichi-settlement":
        if "game_end" in request:
            scores = dict(request["game_end"]["scores"])
            top = [s for s, v in scores.items() if v == max(scores.values())]
            for seat in top:
                scores[seat] += 1000 * request["game_end"]["pot"] / len(top)
            return {"final_scores": scores}
        result = request["result"]
        pot = request["pot_before"] + len(request.get("riichi_declared", []))
        zero = {w: 0 for w in WINDS}
        if result["type"] == "chombo":
            return {"deltas": zero, "next": {"dealer_stays": True, "honba": request["honba"],
                                             "pot": request["pot_before"]}}
        if result["type"] == "draw":
            return {"deltas": zero, "next": {"dealer_stays": "E" in result["tenpai"],
                                             "honba": request["honba"] + 1, "pot": pot}}
        winners = ([w["seat"] for w in result["winners"]] if result["type"] == "ron"
                   else [result["winner"]])
        stays = "E" in winners
        return {"deltas": zero, "next": {"dealer_stays": stays,
                                         "honba": request["honba"] + 1 if stays else 0,
                                         "pot": 0}}
    if request.get("outcome") == "draw":
        return {"settlement": {w: 0 for w in WINDS}}
    if "given_scores" in request:
        scores, winner = request["given_scores"], request["winner"]
        out = {w: 0 for w in WINDS}

        def east(a, b):
            return 2 if "E" in (a, b) else 1

        losers = [w for w in WINDS if w != winner]
        for loser in losers:
            out[loser] -= scores[winner] * east(loser, winner)
            out[winner] += scores[winner] * east(loser, winner)
        for i, a in enumerate(losers):
            for b in losers[i + 1:]:
                amount = (scores[a] - scores[b]) * east(a, b)
                out[a] += amount
                out[b] -= amount
        return {"settlement": out}
    raise ValueError("fake engine: hands are not scored here")


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "s.sqlite3")
    yield s
    s.close()


@pytest.fixture
def book(store):
    return MatchBook(store, engine=fake_engine)


def given(winner: str, **scores: int) -> NtsGame:
    return NtsGame(winner=winner, scores=scores)


# -- rotation -------------------------------------------------------------------------

def test_seats_move_east_to_north_south_to_east():
    assert rotation.seat_winds(4, 0, 0) == ["E", "S", "W", "N"]
    # after one game: the old South (Bram) is East, the old East (Anna) is North
    assert rotation.seat_winds(4, 0, 1) == ["N", "E", "S", "W"]
    assert rotation.seat_winds(4, 2, 0) == ["W", "N", "E", "S"]
    assert rotation.seat_winds(4, 0, 4) == rotation.seat_winds(4, 0, 0)


def test_nts_prevailing_wind_four_games_each():
    assert [rotation.nts_prevailing_wind(g) for g in range(16)] == list("EEEESSSSWWWWNNNN")


def test_riichi_round_labels():
    assert rotation.riichi_round(0) == ("E", 1)
    assert rotation.riichi_round(3) == ("E", 4)
    assert rotation.riichi_round(4) == ("S", 1)
    assert rotation.match_length_reached("riichi", 2, 30, 7) is False
    assert rotation.match_length_reached("riichi", 2, 9, 8) is True
    assert rotation.match_length_reached("nts", 4, 16, 16) is True
    assert rotation.match_length_reached("nts-app", 0, 100, 100) is False


# -- dice -----------------------------------------------------------------------------

class ScriptedDice(random.Random):
    """Dice that show the given faces in order."""

    def __init__(self, faces):
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a, b):
        return self.faces.pop(0)


def test_highest_throw_is_east_and_ties_are_rethrown_among_the_tied():
    # Anna 6+6=12, Bram 3+3=6, Cor 6+6=12, Dirk 1+1=2 -> Anna and Cor throw again: 2 vs 9
    rng = ScriptedDice([6, 6, 3, 3, 6, 6, 1, 1, 1, 1, 4, 5])
    throws = dice.throw_for_east(PLAYERS, rng)
    assert throws.rounds == [{"Anna": 12, "Bram": 6, "Cor": 12, "Dirk": 2},
                             {"Anna": 2, "Cor": 9}]
    assert throws.east_position == 2


def test_prevailing_wind_counted_counterclockwise_from_east():
    # seed 1: 5 or 9 -> East, 2/6/10 -> South, 3/7/11 -> West, 4/8/12 -> North
    expected = {2: "S", 3: "W", 4: "N", 5: "E", 6: "S", 7: "W", 8: "N", 9: "E", 10: "S",
                11: "W", 12: "N"}
    assert {p: dice.wind_for_pips(p) for p in range(2, 13)} == expected
    with pytest.raises(ValueError):
        dice.wind_for_pips(13)


def test_seeded_sessions_throw_the_same_dice(tmp_path):
    views = []
    for i in range(2):
        book = MatchBook(Store(tmp_path / f"{i}.db"), engine=fake_engine)
        views.append(book.new_session(PLAYERS, "nts-app", seats_by_dice=True, seed=42))
    assert views[0].setup["seat_throws"] == views[1].setup["seat_throws"]
    assert views[0].seats == views[1].seats
    assert views[0].state.next_wind == views[1].state.next_wind


# -- notation -------------------------------------------------------------------------

def test_split_hand_into_the_json_form():
    assert split_hand("[WWW] [RRR] 234m88s56p +7p / f1 j3") == {
        "melds": ["[WWW]", "[RRR]"], "concealed": "234m88s56p", "winning_tile": "7p",
        "bonus": ["f1", "j3"]}
    assert split_hand("{X55pX} [4444m] 666pRRRGG") == {
        "melds": ["{X55pX}", "[4444m]"], "concealed": "666pRRRGG"}
    assert split_hand("RRR147m258p369sWh") == {"melds": [], "concealed": "RRR147m258p369sWh"}


def test_split_hand_reads_fixed_groups_aliases_and_loose_flowers_as_the_engine_does():
    assert split_hand("(555p) CCC f2 11s +2s") == {
        "melds": ["(555p)"], "concealed": "RRR11s", "winning_tile": "2s", "bonus": ["f2"]}


@pytest.mark.parametrize("text, words, position", [
    ("", "the hand is empty", 1),
    ("[EEE 123m", "group opened with '[' is never closed", 1),
    ("123m +4m 55p", "the winning tile is written last", 10),
    ("123m / x", "honours are uppercase", 8),
    ("1m/f1/j2", "only one / before the bonus tiles", 6),
    ("123M", "suit letters are lowercase", 1),
])
def test_split_hand_refusals_name_the_problem_and_where(text, words, position):
    """The engine's parser speaks: what is wrong, the token and its 1-based position."""
    with pytest.raises(NotationError) as error:
        split_hand(text)
    assert words in str(error.value)
    assert f"at position {position})" in str(error.value)
    assert error.value.position == position - 1


# -- riichi hands from tiles (reference library, EMA options) --------------------------

@pytest.mark.parametrize("hand, kwargs, expected", [
    # closed, ron, riichi: riichi 1 han; fu 20 + 10 closed ron + 2 seat-wind pair = 32 -> 40
    ("234m456p678s78sSS +9s", dict(tsumo=False, riichi=True), (1, 40, False)),
    # the same by tsumo without riichi: menzen tsumo 1 han; 20 + 2 tsumo + 2 pair -> 30
    ("234m456p678s78sSS +9s", dict(tsumo=True, riichi=False), (1, 30, False)),
    # open red-dragon pon, one dora (indicator 8s -> 9s): 2 han;
    # 20 + 4 open honour pon + 2 pair -> 30
    ("[RRR] 234m456p78sSS +9s", dict(tsumo=False, riichi=False, dora=["8s"]), (2, 30, False)),
    # closed kan of 5p: 20 + 10 + 16 + 2 = 48 -> 50 fu
    ("{5555p} 234m678s78sSS +9s", dict(tsumo=False, riichi=True), (1, 50, False)),
    # thirteen orphans on a thirteen-sided wait: a single yakuman (no double yakuman, EMA)
    ("19m19p19sESWNGWhR +1m", dict(tsumo=False, riichi=False), (13, 0, True)),
    # open tanyao counts (EMA): 1 han; an open hand without fu gets 20 + 2 -> 30
    ("[234m] 456p678s55m34p +2p", dict(tsumo=False, riichi=False), (1, 30, False)),
])
def test_riichi_han_and_fu_from_tiles(hand, kwargs, expected):
    from mjscore.match.riichi_hand import hand_value

    value = hand_value(hand, seat_wind="S", round_wind="E", **kwargs)
    assert (value.han, value.fu, value.yakuman) == expected


def test_riichi_hand_without_yaku_is_refused():
    from mjscore.match.riichi_hand import hand_value

    with pytest.raises(SessionError, match="no yaku"):
        hand_value("[123m] 456p789s11m23s +4s", seat_wind="S", round_wind="E", tsumo=False,
                   riichi=False)
    with pytest.raises(SessionError, match="no flowers"):
        hand_value("123m456p789s11m23s +4s / f1", seat_wind="S", round_wind="E", tsumo=False,
                   riichi=False)
    with pytest.raises(SessionError, match=r"digits must be followed by a suit letter m, p or s "
                                           r"\(token '23' at position 16\)"):
        hand_value("123m456p789s11m23x +4s", seat_wind="S", round_wind="E", tsumo=False,
                   riichi=False)


# -- storage --------------------------------------------------------------------------

def test_new_database_has_the_schema_version(tmp_path):
    store = Store(tmp_path / "deep" / "dir" / "s.db")
    assert store.schema_version() == SCHEMA_VERSION
    store.close()


def test_corrupt_file_is_reported_and_left_untouched(tmp_path):
    path = tmp_path / "s.db"
    garbage = b"this is not a database, but somebody's notes\n" * 200
    path.write_bytes(garbage)
    with pytest.raises(StoreError, match="damaged or not a database"):
        Store(path)
    assert path.read_bytes() == garbage


def test_newer_schema_and_foreign_files_are_refused(tmp_path):
    newer = tmp_path / "newer.db"
    Store(newer).close()
    conn = sqlite3.connect(newer)
    conn.execute("UPDATE schema_version SET version = 99")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="newer mjscore"):
        Store(newer)
    foreign = tmp_path / "foreign.db"
    conn = sqlite3.connect(foreign)
    conn.execute("CREATE TABLE recipes (name TEXT)")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="another program"):
        Store(foreign)


def test_a_failed_write_leaves_nothing_behind(book, store):
    view = book.new_session(PLAYERS, "nts")
    with pytest.raises(TypeError):
        store.append_game(view.id, 1, {"unserialisable": object()})
    assert store.game_count(view.id) == 0
    store.append_game(view.id, 1, {"number": 1})
    with pytest.raises(StoreError, match="changed meanwhile"):
        store.append_game(view.id, 1, {"number": 1})
    assert store.game_count(view.id) == 1


def test_games_survive_reopening_the_file(tmp_path):
    path = tmp_path / "s.db"
    book = MatchBook(Store(path), engine=fake_engine)
    sid = book.new_session(PLAYERS, "nts").id
    book.add_game(sid, given("Bram", Bram=136, Anna=16, Cor=0, Dirk=2))
    book.store.close()
    reopened = MatchBook(Store(path), engine=fake_engine).view(sid)
    assert len(reopened.games) == 1
    assert reopened.totals == {"Anna": -212, "Bram": 544, "Cor": -170, "Dirk": -162}


# -- match bookkeeping ----------------------------------------------------------------

def test_sixteen_games_rotate_seats_and_winds_then_the_match_is_closed(book):
    sid = book.new_session(PLAYERS, "nts").id
    easts, winds = [], []
    for _ in range(16):
        view = book.view(sid)
        easts.append(next(p for p, s in view.seats.items() if s == "E"))
        winds.append(view.prevailing_wind)
        book.add_game(sid, NtsGame())          # draws: winds still move on (§12)
    assert easts == PLAYERS * 4
    assert "".join(winds) == "EEEESSSSWWWWNNNN"
    view = book.view(sid)
    assert view.finished and view.end == {"reason": "complete"}
    with pytest.raises(SessionError, match="finished after 16 games"):
        book.add_game(sid, NtsGame())
    assert book.undo(sid) == "game 16"
    assert not book.view(sid).finished and len(book.view(sid).games) == 15


def test_fewer_rounds_end_the_match_earlier(book):
    sid = book.new_session(PLAYERS, "nts", rounds=1).id
    for _ in range(4):
        book.add_game(sid, NtsGame())
    assert book.view(sid).finished


def test_undo_restores_the_standings_and_the_seats(book):
    sid = book.new_session(PLAYERS, "nts").id
    book.add_game(sid, given("Bram", Bram=136, Anna=16, Cor=0, Dirk=2))
    before = book.view(sid)
    book.add_game(sid, given("Cor", Cor=64, Anna=0, Bram=0, Dirk=0))
    book.undo(sid)
    after = book.view(sid)
    assert after.totals == before.totals and after.seats == before.seats
    book.undo(sid)
    with pytest.raises(SessionError, match="no games to undo"):
        book.undo(sid)


def test_manual_end_is_undone_before_any_game(book):
    sid = book.new_session(PLAYERS, "nts").id
    book.add_game(sid, NtsGame())
    book.end(sid)
    with pytest.raises(SessionError, match="already finished"):
        book.end(sid)
    assert book.undo(sid) == "reopened"
    assert len(book.view(sid).games) == 1


def test_two_open_sessions_are_kept_apart(book):
    first = book.new_session(PLAYERS, "nts", name="club").id
    second = book.new_session(["W", "X", "Y", "Z"], "nts", name="home").id
    assert book.resolve(None) == second
    assert book.resolve("club") == first and book.resolve(str(first)) == first
    book.add_game(first, given("anna", Anna=32, Bram=0, Cor=0, Dirk=0))   # any letter case
    assert len(book.view(first).games) == 1 and not book.view(second).games
    book.end(second)
    assert book.resolve(None) == first
    with pytest.raises(SessionError, match="no session named 'nope'"):
        book.resolve("nope")
    with pytest.raises(SessionError, match="no session 99"):
        book.resolve("99")


@pytest.mark.parametrize("game, message", [
    (given("Bob", Bob=10), "unknown player 'Bob'"),
    (NtsGame(winner="Anna", scores={"Anna": 20, "Bram": 0, "Cor": 0, "Zed": 0}),
     "unknown player 'Zed'"),
    (NtsGame(winner="Anna", scores={"Anna": 20, "Bram": 0}), "no hand or score for Cor, Dirk"),
    (NtsGame(winner="Anna", scores={"Bram": 0, "Cor": 0, "Dirk": 0}), "winner's hand"),
    (NtsGame(winner="Anna", scores={"Anna": 2400, "Bram": 0, "Cor": 0, "Dirk": 0}),
     "0 to 2000"),
    (NtsGame(winner="Anna", scores={"Anna": 50}, dead=("Anna",)), "both win and have a dead"),
    (NtsGame(winner="Anna", scores={"Anna": 50, "Bram": 0, "Cor": 0, "Dirk": 0},
             discarder="Anna"), "own discard"),
    (NtsGame(dead=("Cor",)), "a draw"),
])
def test_bad_nts_input_is_refused_and_nothing_is_stored(book, game, message):
    sid = book.new_session(PLAYERS, "nts").id
    with pytest.raises(SessionError, match=message):
        book.add_game(sid, game)
    assert book.view(sid).games == []


def test_dead_player_without_a_hand_scores_zero_and_still_pays(book):
    sid = book.new_session(PLAYERS, "nts").id
    # Anna E, Bram S, Cor W, Dirk N; Bram wins 100, Cor dead, Anna 10, Dirk 20.
    # Bram receives 200 (Anna, East) + 100 + 100 = 400.
    # Anna-Cor: Cor pays Anna 10 x 2 = 20; Anna-Dirk: Anna pays (20 - 10) x 2 = 20;
    # Cor-Dirk: Cor pays 20.  Anna -200 + 20 - 20 = -200, Cor -100 - 20 - 20 = -140,
    # Dirk -100 + 20 + 20 = -60.
    book.add_game(sid, NtsGame(winner="Bram", scores={"Bram": 100, "Anna": 10, "Dirk": 20},
                               dead=("Cor",)))
    game = book.view(sid).games[0]
    assert game["deltas"] == {"Anna": -200, "Bram": 400, "Cor": -140, "Dirk": -60}
    assert game["hand_scores"]["Cor"] == 0 and game["dead"] == ["Cor"]


def test_engine_refusal_is_a_clear_error_and_nothing_is_stored(store):
    def refusing(request):
        raise ValueError("no_valid_hand: the tiles form no complete hand")

    book = MatchBook(store, engine=refusing)
    sid = book.new_session(PLAYERS, "nts").id
    with pytest.raises(SessionError, match="no_valid_hand"):
        book.add_game(sid, NtsGame(winner="Anna", winner_hand="123m456p789s11m22p +2p",
                                   scores={"Bram": 0, "Cor": 0, "Dirk": 0}))
    assert store.game_count(sid) == 0


def test_winning_tile_must_be_given_once(book):
    sid = book.new_session(PLAYERS, "nts").id
    base = dict(winner="Anna", scores={"Bram": 0, "Cor": 0, "Dirk": 0})
    with pytest.raises(SessionError, match="winning tile of Anna is missing"):
        book.add_game(sid, NtsGame(winner_hand="[EEE] RRR 234m 88s 45s", **base))
    with pytest.raises(SessionError, match="differs"):
        book.add_game(sid, NtsGame(winner_hand="[EEE] RRR 234m 88s 45s +6s",
                                   winning_tile="3s", **base))


def test_nts_app_wind_is_thrown_per_game_or_taken_from_the_table(store):
    book = MatchBook(store, engine=fake_engine)
    view = book.new_session(PLAYERS, "nts-app", seed=7)
    thrown, pips = view.state.next_wind, view.state.next_wind_pips
    assert dice.wind_for_pips(pips) == thrown
    book.add_game(view.id, NtsGame())
    game = book.view(view.id).games[0]
    assert game["prevailing_wind"] == thrown and game["wind_pips"] == pips
    book.add_game(view.id, NtsGame(prevailing_wind="N"))
    assert book.view(view.id).games[1]["prevailing_wind"] == "N"
    assert book.view(view.id).games[1]["wind_pips"] is None
    assert not book.view(view.id).finished        # nts-app: open-ended by default


def test_nts_refuses_a_wind_that_contradicts_the_game_number(book):
    sid = book.new_session(PLAYERS, "nts").id
    with pytest.raises(SessionError, match="four games per wind"):
        book.add_game(sid, NtsGame(prevailing_wind="S"))


def test_riichi_dealer_repeat_and_match_end(book):
    # tonpuusen (one round): the match ends when the fourth dealer passes the deal on
    sid = book.new_session(PLAYERS, "riichi", rounds=1).id
    assert book.view(sid).start_points == 30000
    book.add_game(sid, RiichiGame("tsumo", wins=(RiichiWin("Anna", 2, 30),)))   # dealer wins
    view = book.view(sid)
    assert view.seats["Anna"] == "E" and view.state.honba == 1
    book.add_game(sid, RiichiGame("draw", tenpai=("Bram",), riichi=("Bram",)))  # dealer noten
    view = book.view(sid)
    assert view.seats["Bram"] == "E" and view.state.honba == 2 and view.state.pot == 1
    book.add_game(sid, RiichiGame("chombo", chombo="Cor"))                     # replayed
    assert book.view(sid).seats["Bram"] == "E" and book.view(sid).riichi_label() == ("E", 2)
    book.add_game(sid, RiichiGame("ron", wins=(RiichiWin("Cor", 1, 30),
                                               RiichiWin("Dirk", 2, 30)), discarder="Bram"))
    book.add_game(sid, RiichiGame("draw", tenpai=()))
    assert book.view(sid).riichi_label() == ("E", 4)
    book.add_game(sid, RiichiGame("draw", tenpai=("Bram",), riichi=("Bram",)))
    view = book.view(sid)
    assert view.finished
    # the leftover stick goes to first place; the stand-in left all scores equal, so
    # the four tied players share it
    assert view.end["pot_awarded"] == 1
    assert view.totals == {p: 30250 for p in PLAYERS}


@pytest.mark.parametrize("game, message", [
    (RiichiGame("ron", wins=(RiichiWin("Anna", 2, 30),)), "--ron-from"),
    (RiichiGame("ron", wins=(RiichiWin("Anna", 2, 30),), discarder="Anna"), "own discard"),
    (RiichiGame("tsumo", wins=(RiichiWin("Anna", 2, 30), RiichiWin("Bram", 2, 30))),
     "exactly one winner"),
    (RiichiGame("tsumo", wins=(RiichiWin("Anna", 3),)), "give the fu"),
    (RiichiGame("tsumo", wins=(RiichiWin("Anna", 3, 35),)), "fu of Anna"),
    (RiichiGame("tsumo", wins=(RiichiWin("Anna", 0, 30),)), "1 or more"),
    (RiichiGame("draw", tenpai=("Eve",)), "unknown player 'Eve'"),
    (RiichiGame("chombo"), "--chombo"),
    (RiichiGame("tsumo", wins=(RiichiWin("Anna", 2, 30),), tenpai=("Bram",)), "only for a draw"),
])
def test_bad_riichi_input_is_refused(book, game, message):
    sid = book.new_session(PLAYERS, "riichi").id
    with pytest.raises(SessionError, match=message):
        book.add_game(sid, game)
    assert book.view(sid).games == []


def test_rules_of_one_ruleset_are_refused_in_another(book):
    nts = book.new_session(PLAYERS, "nts").id
    with pytest.raises(SessionError, match="riichi sessions"):
        book.add_game(nts, RiichiGame("draw"))
    riichi = book.new_session(PLAYERS, "riichi").id
    with pytest.raises(SessionError, match="this is a riichi session"):
        book.add_game(riichi, NtsGame())


@pytest.mark.parametrize("players, ruleset, rounds, message", [
    (["A", "B", "C"], "nts", None, "exactly four"),
    (["A", "B", "C", "a"], "nts", None, "must differ"),
    (PLAYERS, "mcr", None, "unknown ruleset"),
    (PLAYERS, "nts", 5, "1 to 4 rounds"),
])
def test_bad_new_session_is_refused(book, players, ruleset, rounds, message):
    with pytest.raises(SessionError, match=message):
        book.new_session(players, ruleset, rounds=rounds)
    assert book.store.session_ids() == []


def test_record_keeps_the_engine_exchanges_for_audit(book):
    sid = book.new_session(PLAYERS, "nts").id
    book.add_game(sid, given("Bram", Bram=136, Anna=16, Cor=0, Dirk=2))
    game = book.view(sid).games[0]
    request = game["exchanges"][-1]["request"]
    assert request["given_scores"] == {"E": 16, "S": 136, "W": 0, "N": 2}
    assert request["winner"] == "S" and request["prevailing_wind"] == "E"
    json.dumps(game)          # the whole record is plain JSON


def test_other_hands_need_the_winners_hand(book):
    sid = book.new_session(PLAYERS, "nts").id
    with pytest.raises(SessionError, match="together with the winner's hand"):
        book.add_game(sid, NtsGame(winner="Anna", scores={"Anna": 64, "Cor": 0, "Dirk": 0},
                                   hands={"Bram": "RRR147m258p369sWh"}))
    assert book.view(sid).games == []


CRASHING_WRITER = """
import os, sys
sys.path.insert(0, {root!r})
from mjscore.match.store import Store
store = Store({path!r})
sid = store.session_ids()[0]
store.append_game(sid, 1, {{"number": 1, "deltas": {{}}}})       # confirmed
store.conn.execute("BEGIN IMMEDIATE")                              # game 2 half written
store.conn.execute("INSERT INTO games VALUES (?, 2, 'now', '{{}}')", (sid,))
os._exit(9)                                                         # the process dies here
"""


def test_a_crash_keeps_confirmed_games_and_drops_the_half_written_one(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    path = tmp_path / "s.db"
    store = Store(path)
    store.create_session("crash", "nts", PLAYERS, {"start_points": 0})
    store.close()
    root = str(Path(__file__).resolve().parents[1])
    code = CRASHING_WRITER.format(root=root, path=str(path))
    assert subprocess.run([sys.executable, "-c", code]).returncode == 9
    reopened = Store(path)                   # quick_check passes: the file is sound
    sid = reopened.session_ids()[0]
    assert reopened.game_count(sid) == 1
    assert reopened.games(sid) == [{"number": 1, "deltas": {}}]
    reopened.close()
