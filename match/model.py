"""Data that flows through a session: what the table reports about one game, and the
derived state of the match between games. Player names are used everywhere here; seat
winds are worked out per game (``rotation``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import NOT_FOUND, REFUSED, UNAVAILABLE, MjscoreError
from .rotation import riichi_round


class SessionError(MjscoreError):
    """A problem with what the user asked for; the message is shown as is (no traceback)."""

    code = REFUSED


class NoSuchSession(SessionError):
    """The session asked for does not exist."""

    code = NOT_FOUND


class EngineMissing(SessionError):
    """The scoring engine is not installed."""

    code = UNAVAILABLE


@dataclass(frozen=True)
class NtsGame:
    """One NTS / nts-app game as reported at the table.

    ``winner`` None means a draw (remise). The winner's own score comes from
    ``winner_hand`` (notation) or from ``scores``; every other player needs a hand in
    ``hands``, a score in ``scores``, or a place in ``dead``."""

    winner: str | None = None
    winner_hand: str | None = None
    winning_tile: str | None = None
    win_type: str = "discard"               # self_drawn | discard | robbed_kong
    discarder: str | None = None
    special: tuple[str, ...] = ()
    hands: dict[str, str] = field(default_factory=dict)
    scores: dict[str, int] = field(default_factory=dict)
    dead: tuple[str, ...] = ()
    prevailing_wind: str | None = None      # nts-app: the wind thrown at the table
    photo: str | None = None                # where the winner's hand came from, if a photo


@dataclass(frozen=True)
class RiichiWin:
    """One winner of a riichi hand: han and fu as counted at the table (or yakuman)."""

    player: str
    han: int | None = None
    fu: int | None = None
    yakuman: bool = False
    hand: str | None = None                 # tiles instead of han/fu (valued by riichi_hand)
    yaku: tuple[str, ...] = ()              # filled in when valued from tiles


@dataclass(frozen=True)
class RiichiGame:
    """One riichi hand: ``outcome`` ron | tsumo | draw | chombo."""

    outcome: str
    wins: tuple[RiichiWin, ...] = ()
    discarder: str | None = None
    riichi: tuple[str, ...] = ()            # declared riichi in this hand
    tenpai: tuple[str, ...] = ()            # draws only
    chombo: str | None = None
    dora: tuple[str, ...] = ()              # dora indicators (only used with tiles)
    ura_dora: tuple[str, ...] = ()
    special: tuple[str, ...] = ()           # ippatsu, rinshan, chankan, haitei, houtei, ...


@dataclass(frozen=True)
class MatchState:
    """Where the match stands before the next game (derived, never edited by hand)."""

    games_played: int = 0
    moves: int = 0                          # how often the East seat moved on
    honba: int = 0                          # riichi counters
    pot: int = 0                            # riichi deposit sticks on the table
    next_wind: str | None = None            # nts-app: prevailing wind thrown for next game
    next_wind_pips: int | None = None

    def to_dict(self) -> dict:
        return {"games_played": self.games_played, "moves": self.moves, "honba": self.honba,
                "pot": self.pot, "next_wind": self.next_wind,
                "next_wind_pips": self.next_wind_pips}

    @classmethod
    def from_dict(cls, data: dict) -> "MatchState":
        return cls(**{k: data.get(k, getattr(cls(), k)) for k in cls().to_dict()})


@dataclass
class SessionView:
    """Everything a screen or an export shows about one session."""

    id: int
    name: str
    ruleset: str
    players: list[str]                   # table order
    created_at: str
    rounds: int
    start_points: int
    setup: dict
    state: MatchState
    seats: dict[str, str]                # seat winds for the next game (or the last one)
    prevailing_wind: str | None          # of the next game
    games: list[dict]
    totals: dict[str, int | float]
    ended_at: str | None = None
    end: dict | None = None
    running: list[dict[str, int]] = field(default_factory=list)   # totals after each game

    @property
    def finished(self) -> bool:
        return self.ended_at is not None

    def standings(self) -> list[tuple[int, str, int | float]]:
        """(rank, player, total), best first; equal totals share a rank."""
        ordered = sorted(self.players, key=lambda p: (-self.totals[p], self.players.index(p)))
        result, rank = [], 0
        for i, player in enumerate(ordered):
            if i == 0 or self.totals[player] != self.totals[ordered[i - 1]]:
                rank = i + 1
            result.append((rank, player, self.totals[player]))
        return result

    def riichi_label(self) -> tuple[str, int]:
        return riichi_round(self.state.moves)


def fold_name(name: str) -> str:
    """The key a typed player name is matched by: case-insensitive, outer spaces ignored."""
    return name.strip().casefold()


def find_player(players, typed: str) -> str | None:
    """The session's spelling of a typed player name, or None when nobody is called that."""
    by_fold = {fold_name(p): p for p in players}
    return by_fold.get(fold_name(typed))
