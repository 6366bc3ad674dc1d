"""Han and fu of a riichi winning hand from its tiles, for `session hand --hand` in riichi.

A thin adapter over the engine's ``scoring.riichi.han_fu_from_hand`` (the ``mahjong``
reference library with the EMA options of spec §16.1/§16.8: open tanyao, no red fives,
single yakuman, 13+ han = sanbaiman, no kiriage). The session only keeps han, fu, whether
it is a yakuman and the yaku names; payments, counters and sticks stay with the
settlement request. Engine refusals become a ``SessionError`` naming the winner.
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import SessionError


@dataclass(frozen=True)
class RiichiValue:
    han: int
    fu: int
    yakuman: bool
    yaku: tuple[str, ...]


def hand_value(notation: str, *, seat_wind: str, round_wind: str, tsumo: bool, riichi: bool,
               dora: list[str] = (), ura_dora: list[str] = (), special: tuple[str, ...] = (),
               owner: str = "winner") -> RiichiValue:
    """Han/fu/yakuman of one winning hand; a hand without yaku is refused with the reason."""
    try:
        from ..scoring.riichi import RiichiInputError, han_fu_from_hand
    except ImportError as exc:
        raise SessionError("valuing riichi hands from tiles needs the scoring engine "
                           f"(scoring.riichi): {exc}; give --han and --fu instead") from exc
    try:
        value = han_fu_from_hand(notation, is_tsumo=tsumo, riichi=riichi, seat_wind=seat_wind,
                                 round_wind=round_wind, dora=list(dora),
                                 ura_dora=list(ura_dora), special=tuple(special))
    except RiichiInputError as exc:
        raise SessionError(f"hand of {owner} does not win or cannot be read: "
                           f"{exc.problem}") from exc
    return RiichiValue(han=value.han, fu=value.fu, yakuman=value.yakuman,
                       yaku=tuple(name for name, _ in value.yaku))
