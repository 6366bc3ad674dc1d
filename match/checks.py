"""Checks of what the table reported, before the engine sees it: player names (any
letter case), combinations that cannot happen, values out of range. Every problem is a
``SessionError`` that names it; nothing is stored when a check fails."""

from __future__ import annotations

from .model import NtsGame, RiichiGame, RiichiWin, SessionError, SessionView, find_player
from ..scoring.config import SPECIALS, WIN_TYPES

MAX_HAND_SCORE = 2000          # §9: no single hand scores more
RIICHI_FU = (20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130)


def check_nts(view: SessionView, game: NtsGame) -> NtsGame:
    """Names resolved and the combination checked before anything is settled."""
    name = _Names(view)
    winner = name(game.winner) if game.winner else None
    hands = {name(k): v for k, v in game.hands.items()}
    scores = {name(k): v for k, v in game.scores.items()}
    dead = tuple(dict.fromkeys(name(d) for d in game.dead))
    discarder = name(game.discarder) if game.discarder else None
    if len(hands) != len(game.hands) or len(scores) != len(game.scores):
        raise SessionError("a player is named twice in --hand-of or --score-of")
    for player, points in scores.items():
        if not 0 <= points <= MAX_HAND_SCORE:
            raise SessionError(f"score of {player} must be 0 to {MAX_HAND_SCORE} "
                               f"(the limit), not {points}")
        if player in hands:
            raise SessionError(f"{player} has both a hand and a score; give one of them")
    if winner is None:
        if hands or scores or game.winner_hand or dead or discarder:
            raise SessionError("a draw (remise) takes no winner, hands, scores or dead hands: "
                               "nobody scores and nobody pays")
        return NtsGame(prevailing_wind=game.prevailing_wind)
    if winner in dead:
        raise SessionError(f"{winner} cannot both win and have a dead hand")
    if winner in hands:
        raise SessionError(f"give {winner}'s (the winner's) hand with --hand, not --hand-of")
    if game.winner_hand is None and winner not in scores:
        raise SessionError(f"give the winner's hand (--hand or --photo) or score "
                           f"(--score-of {winner}=POINTS)")
    if game.winner_hand is not None and winner in scores:
        raise SessionError(f"{winner} has both a hand and a score; give one of them")
    for player in dead:
        if player in scores and scores[player] != 0:
            raise SessionError(f"{player} has a dead hand and scores 0, not {scores[player]}")
    if discarder == winner:
        raise SessionError(f"{winner} cannot win on his own discard; use --self-drawn")
    if game.win_type not in WIN_TYPES:
        raise SessionError(f"unknown way of winning {game.win_type!r}")
    if discarder and game.win_type == "self_drawn":
        raise SessionError("a self-drawn win has no discarder")
    for flag in game.special:
        if flag not in SPECIALS:
            raise SessionError(f"unknown special {flag!r}; choose from " + ", ".join(SPECIALS))
    return NtsGame(winner=winner, winner_hand=game.winner_hand,
                   winning_tile=game.winning_tile, win_type=game.win_type,
                   discarder=discarder, special=game.special, hands=hands, scores=scores,
                   dead=dead, prevailing_wind=game.prevailing_wind, photo=game.photo)

def check_riichi(view: SessionView, game: RiichiGame) -> RiichiGame:
    """Names resolved, outcome and values checked; winners given as tiles are valued."""
    name = _Names(view)
    wins = tuple(_check_win(w, name) for w in game.wins)
    winners = [w.player for w in wins]
    if len(set(winners)) != len(winners):
        raise SessionError("a winner is named twice")
    riichi = tuple(name(p) for p in game.riichi)
    if len(set(riichi)) != len(riichi):
        raise SessionError("a player is named twice in --riichi")
    tenpai = tuple(name(p) for p in game.tenpai)
    discarder = name(game.discarder) if game.discarder else None
    chombo = name(game.chombo) if game.chombo else None
    outcome = game.outcome
    if outcome == "ron":
        if not wins:
            raise SessionError("a ron needs a winner (--winner NAME --han N --fu N)")
        if discarder is None:
            raise SessionError("a ron needs the player who discarded: --ron-from NAME")
        if discarder in winners:
            raise SessionError(f"{discarder} cannot win on his own discard; use --tsumo")
        if len(wins) > 3:
            raise SessionError("at most three players can win on one discard")
    elif outcome == "tsumo":
        if len(wins) != 1:
            raise SessionError("a tsumo has exactly one winner")
        if discarder:
            raise SessionError("a tsumo has no discarder (--ron-from)")
    elif outcome in ("draw", "chombo"):
        if wins:
            raise SessionError(f"a {outcome} has no winners")
        if outcome == "chombo" and chombo is None:
            raise SessionError("name the player who made the chombo: --chombo NAME")
    else:
        raise SessionError("say how the hand ended: --ron-from NAME, --tsumo, --draw "
                           "or --chombo NAME")
    if tenpai and outcome != "draw":
        raise SessionError("--tenpai is only for a draw (exhaustive draw)")
    if (game.dora or game.ura_dora or game.special) and not any(w.hand for w in wins):
        raise SessionError("--dora, --ura-dora and --special need the winner's tiles "
                           "(--hand); with --han/--fu count them into the han")
    wins = tuple(_value_from_tiles(view, w, outcome, riichi, game) for w in wins)
    return RiichiGame(outcome=outcome, wins=wins, discarder=discarder, riichi=riichi,
                      tenpai=tuple(dict.fromkeys(tenpai)), chombo=chombo,
                      dora=game.dora, ura_dora=game.ura_dora, special=game.special)


def _value_from_tiles(view: SessionView, win: RiichiWin, outcome: str,
                      riichi: tuple[str, ...], game: RiichiGame) -> RiichiWin:
    """Han and fu from the winner's tiles (riichi_hand), for this seat and round."""
    if win.hand is None:
        return win
    from .riichi_hand import hand_value

    value = hand_value(win.hand, seat_wind=view.seats[win.player],
                       round_wind=view.riichi_label()[0], tsumo=outcome == "tsumo",
                       riichi=win.player in riichi, dora=list(game.dora),
                       ura_dora=list(game.ura_dora), special=game.special,
                       owner=win.player)
    return RiichiWin(player=win.player, han=value.han, fu=value.fu or None,
                     yakuman=value.yakuman, hand=win.hand, yaku=value.yaku)


class _Names:
    """Resolve a typed player name (any letter case) to the session's spelling."""

    def __init__(self, view: SessionView):
        self.view = view

    def __call__(self, typed: str) -> str:
        found = find_player(self.view.players, typed)
        if found is None:
            raise SessionError(f"unknown player {typed.strip()!r} in session {self.view.id}; "
                               "the players are " + ", ".join(self.view.players))
        return found


def _check_win(win: RiichiWin, name: _Names) -> RiichiWin:
    """A riichi winner's value, checked before the engine sees it."""
    player = name(win.player)
    if win.hand is not None:
        return RiichiWin(player=player, hand=win.hand)
    if win.yakuman:
        return RiichiWin(player=player, han=win.han or 13, fu=win.fu, yakuman=True)
    if win.han is None or win.han < 1:
        raise SessionError(f"han of {player} must be 1 or more (or 'yakuman')")
    if win.han <= 4:
        if win.fu is None:
            raise SessionError(f"{player} has {win.han} han: give the fu too (--fu)")
        if win.fu not in RIICHI_FU:
            raise SessionError(f"fu of {player} must be one of "
                               + ", ".join(map(str, RIICHI_FU)) + f", not {win.fu}")
    return RiichiWin(player=player, han=win.han, fu=win.fu, yakuman=False)
