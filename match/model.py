"""Data that flows through a session: what the table reports about one game, and the
derived state of the match between games. Player names are used everywhere here; seat
winds are worked out per game (``rotation``)."""

from __future__ import annotations

from dataclasses import dataclass, field


class SessionError(Exception):
    """A problem with what the user asked for; the message is shown as is (no traceback)."""


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
