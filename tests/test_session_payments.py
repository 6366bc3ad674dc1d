"""Who pays whom (``match.payments.payment_lines``) and its lines in `session show --game N`.

The expected payments are worked out by hand from spec §11 (East pays and receives double,
also between losers; nts-app settles the difference with the winner too, DECISION 28)."""

from __future__ import annotations

from typer.testing import CliRunner

from mjscore.cli import app
from mjscore.match.payments import Payment, payment_lines

PLAYERS = ["Anna", "Bram", "Cor", "Dirk"]
SEATS = {"Anna": "E", "Bram": "S", "Cor": "W", "Dirk": "N"}


def record(scores: dict, deltas: dict, winner: str = "Bram") -> dict:
    return {"seats": SEATS, "winners": [winner], "hand_scores": scores, "deltas": deltas}


def test_nts_payments_follow_section_11_and_add_up_to_the_deltas():
    # SET-02: Bram (S) wins 136; Anna (E) 16, Cor 0, Dirk 2
    game = record({"Anna": 16, "Bram": 136, "Cor": 0, "Dirk": 2},
                  {"Anna": -212, "Bram": 544, "Cor": -170, "Dirk": -162})
    assert payment_lines(game, "nts", PLAYERS) == [
        Payment("Anna", "Bram", 272), Payment("Cor", "Anna", 32), Payment("Cor", "Bram", 136),
        Payment("Cor", "Dirk", 2), Payment("Dirk", "Anna", 28), Payment("Dirk", "Bram", 136)]


def test_nts_app_winner_settles_the_difference_and_may_pay_a_loser():
    # Bram (S) wins 100; Cor (W) holds 300: Bram pays Cor 200 (differences), Anna (E) 0
    # pays Bram 200 (x2) and Cor 600 (x2), Dirk (N) 100 pays Cor 200, Dirk gets 200 x2 from Anna.
    scores = {"Anna": 0, "Bram": 100, "Cor": 300, "Dirk": 100}
    deltas = {"Anna": -1000, "Bram": 0, "Cor": 1000, "Dirk": 0}
    lines = payment_lines(record(scores, deltas), "nts-app", PLAYERS)
    assert Payment("Bram", "Cor", 200) in lines
    assert Payment("Anna", "Bram", 200) in lines and Payment("Anna", "Cor", 600) in lines
    assert Payment("Anna", "Dirk", 200) in lines and Payment("Dirk", "Cor", 200) in lines
    net = {p: 0 for p in PLAYERS}
    for line in lines:
        net[line.payer] -= line.amount
        net[line.payee] += line.amount
    assert net == deltas


def test_a_draw_moves_nothing_and_odd_records_fall_back_to_the_deltas():
    assert payment_lines(record({p: 0 for p in PLAYERS}, {p: 0 for p in PLAYERS}, winner=None), "nts") == []
    # deltas the §11 rule cannot give (a riichi hand): the fewest payments that do
    deltas = {"Anna": -8000, "Bram": 8000, "Cor": 0, "Dirk": 0}
    assert payment_lines({"seats": SEATS, "winners": ["Bram"], "deltas": deltas}, "riichi", PLAYERS) == [
        Payment("Anna", "Bram", 8000)]


def test_session_show_game_prints_the_payments(tmp_path):
    db = str(tmp_path / "s.sqlite3")
    run = CliRunner()
    assert run.invoke(app, ["session", "new", "--db", db, "--players", ",".join(PLAYERS)]).exit_code == 0
    result = run.invoke(app, ["session", "hand", "--db", db, "--winner", "Bram", "--score-of", "Bram=1000",
                              "--score-of", "Anna=16", "--score-of", "Cor=0", "--score-of", "Dirk=2"])
    assert result.exit_code == 0, result.output
    shown = run.invoke(app, ["session", "show", "--db", db, "--game", "1"])
    assert shown.exit_code == 0, shown.output
    text = shown.output
    assert "Payments" in text
    assert "Anna pays Bram 2,000" in text and "Cor pays Bram 1,000" in text and "Dirk pays Anna 28" in text
    dutch = run.invoke(app, ["session", "show", "--db", db, "--game", "1", "--lang", "nl"]).output
    assert "Betalingen" in dutch and "Anna betaalt Bram 2.000" in dutch and "Cor betaalt Dirk 2" in dutch
    assert "pays" not in dutch
    draw = run.invoke(app, ["session", "hand", "--db", db, "--draw"])
    assert draw.exit_code == 0, draw.output
    assert "nobody pays" in run.invoke(app, ["session", "show", "--db", db, "--game", "2"]).output
