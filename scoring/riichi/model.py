"""Data that flows through a riichi settlement (spec §16): the request, the money moves
and the state for the next hand. Seats are the winds ``E S W N``; East is the dealer."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Union

SEATS: tuple[str, ...] = ("E", "S", "W", "N")     # also the turn order
DEALER = "E"
STICK = 1000                                      # one riichi deposit
NOTEN_TOTAL = 3000                                # §16.5
RON_COUNTER = 300                                 # per counter, paid to each ron winner
TSUMO_COUNTER = 100                               # per counter, paid by each tsumo payer

Seat = str
Limit = Literal["", "mangan", "haneman", "baiman", "sanbaiman", "yakuman"]


@dataclass(frozen=True)
class HandValue:
    """Han and fu as counted at the table; ``yakuman`` overrides both.

    ``fu`` may be None from 5 han up (limit hands do not need fu). 13+ han without
    ``yakuman`` is a counted (kazoe) hand, which EMA caps at sanbaiman."""

    han: int
    fu: int | None = None
    yakuman: bool = False


@dataclass(frozen=True)
class RonWin:
    seat: Seat
    value: HandValue


@dataclass(frozen=True)
class Ron:
    discarder: Seat
    winners: tuple[RonWin, ...]          # one to three winners on the same discard
    type: str = "ron"


@dataclass(frozen=True)
class Tsumo:
    winner: Seat
    value: HandValue
    type: str = "tsumo"


@dataclass(frozen=True)
class Draw:
    """Exhaustive draw (ryuukyoku); ``tenpai`` are the players who showed a ready hand."""

    tenpai: tuple[Seat, ...]
    type: str = "draw"


@dataclass(frozen=True)
class Chombo:
    offender: Seat
    type: str = "chombo"


RiichiResult = Union[Ron, Tsumo, Draw, Chombo]


@dataclass(frozen=True)
class HandRequest:
    """One hand to settle: counters and sticks before it, who declared riichi in it."""

    honba: int
    pot_before: int                       # sticks on the table before this hand
    riichi_declared: tuple[Seat, ...]
    result: RiichiResult


@dataclass(frozen=True)
class GameEndRequest:
    scores: dict[Seat, int | float]
    pot: int


@dataclass(frozen=True)
class Payment:
    """Money from one player to another. ``kind``: ``hand`` (han/fu value), ``honba``
    (counters) or ``noten`` (exhaustive draw)."""

    payer: Seat
    payee: Seat
    amount: int
    kind: Literal["hand", "honba", "noten"]


@dataclass(frozen=True)
class WinScore:
    """How one winner's value turned into basic points and a limit name."""

    seat: Seat
    value: HandValue
    basic_points: int
    limit: Limit
    kazoe: bool                           # 13+ han without yakuman, capped (§16.1)


@dataclass(frozen=True)
class Deposits:
    """Riichi sticks in this hand: paid in, taken (by seat), given back (chombo)."""

    declared: tuple[Seat, ...]
    taken: dict[Seat, int] = field(default_factory=dict)     # sticks taken, by seat
    returned: tuple[Seat, ...] = ()                           # chombo: own stick back


@dataclass(frozen=True)
class NextState:
    dealer_stays: bool
    honba: int
    pot: int

    def to_dict(self) -> dict:
        return {"dealer_stays": self.dealer_stays, "honba": self.honba, "pot": self.pot}


@dataclass(frozen=True)
class Settlement:
    """Everything a settled hand produced; ``deltas`` include this hand's deposits."""

    request: HandRequest
    wins: tuple[WinScore, ...]
    payments: tuple[Payment, ...]
    deposits: Deposits
    deltas: dict[Seat, int]
    next: NextState


@dataclass(frozen=True)
class GameEnd:
    """Final scores after leftover sticks went to first place (ties split equally)."""

    request: GameEndRequest
    first: tuple[Seat, ...]
    share: int | float                    # points each first-placed player received
    final_scores: dict[Seat, int | float]
