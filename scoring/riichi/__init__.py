"""Riichi hand settlement (spec §16, EMA rules as adopted by the NMB) and han/fu of a
riichi hand from its tiles (delegated to the ``mahjong`` library, §16.8).

- ``settle_riichi_request(input)``: a ``riichi-settlement`` request dict → answer dict.
- ``settle(parse_request(input))``: the same as typed data (``Settlement``/``GameEnd``).
- ``settlement_lines(outcome, lang)``: readable explanation in English or Dutch.
- ``han_fu_from_hand(...)``: han, fu, yaku and cost of a winning hand from tiles (the
  ``mahjong`` library is imported on first use only).
"""

from .errors import RiichiInputError
from .explain import settlement_lines
from .hand_value import Cost, HanFu, han_fu_from_hand
from .model import (Chombo, Draw, GameEnd, GameEndRequest, HandRequest, HandValue,
                                  NextState, Payment, RiichiResult, Ron, RonWin, Settlement,
                                  Tsumo, WinScore)
from .parse import parse_request
from .settle import settle, settle_hand, settle_riichi_request


__all__ = ["RiichiInputError", "settle_riichi_request", "settle", "settle_hand",
           "parse_request", "settlement_lines", "han_fu_from_hand", "HanFu", "Cost",
           "RiichiResult", "Ron", "RonWin", "Tsumo", "Draw", "Chombo", "HandRequest",
           "GameEndRequest", "HandValue", "Settlement", "GameEnd", "NextState", "Payment",
           "WinScore"]
