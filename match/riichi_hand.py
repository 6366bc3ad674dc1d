"""Han and fu of a riichi winning hand from its tiles, for `session hand --hand` in riichi.

Delegated to the reference library (``mahjong`` 2.1.0, spec §16.8) with the EMA choices
of §16.1: open tanyao allowed, no red fives, no double yakuman, 13+ han from ordinary yaku
= sanbaiman (``KAZOE_SANBAIMAN``), no kiriage. The session only needs han, fu and whether
it is a yakuman; payments, counters and sticks stay with the settlement engine.

Notation is the project's (§1.2): ``[123m]`` chi, ``[555p]`` pon, ``[5555p]`` open kan,
``{5555p}`` closed kan, concealed tiles, ``+tile`` the winning tile (last). Dragons:
R red (chun), G green (hatsu), Wh white (haku).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from match.model import SessionError
from match.notation import NotationError, split_hand

SPECIAL_FLAGS = {
    "ippatsu": "is_ippatsu", "rinshan": "is_rinshan", "chankan": "is_chankan",
    "haitei": "is_haitei", "houtei": "is_houtei", "double_riichi": "is_daburu_riichi",
    "tenhou": "is_tenhou", "chiihou": "is_chiihou",
}
_HONOURS = {"E": 27, "S": 28, "W": 29, "N": 30, "Wh": 31, "G": 32, "R": 33}
_SUIT_BASE = {"m": 0, "p": 9, "s": 18}
_TOKEN = re.compile(r"([1-9]+)([mps])|(Wh|E|S|W|N|G|R)")


@dataclass(frozen=True)
class RiichiValue:
    han: int
    fu: int
    yakuman: bool
    yaku: tuple[str, ...]


def tile_indices(text: str, what: str) -> list[int]:
    """34-index of every tile in ``text`` (``123m`` = three tiles, ``EE`` = two)."""
    out: list[int] = []
    pos = 0
    compact = re.sub(r"\s", "", text)
    for match in _TOKEN.finditer(compact):
        if match.start() != pos:
            break
        pos = match.end()
        if match.group(3):
            out.append(_HONOURS[match.group(3)])
        else:
            out += [_SUIT_BASE[match.group(2)] + int(d) - 1 for d in match.group(1)]
    if pos != len(compact):
        raise SessionError(f"{what}: cannot read {compact[pos:]!r} as riichi tiles "
                           "(1-9 m/p/s, E S W N, Wh G R; no flowers in riichi)")
    return out


def hand_value(notation: str, *, seat_wind: str, round_wind: str, tsumo: bool, riichi: bool,
               dora: list[str] = (), ura_dora: list[str] = (), special: tuple[str, ...] = (),
               winning_tile: str | None = None, owner: str = "winner") -> RiichiValue:
    """Han/fu/yakuman of one winning hand; a hand without yaku is refused with the reason."""
    from mahjong.constants import EAST, NORTH, SOUTH, WEST
    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
    from mahjong.meld import Meld

    try:
        parts = split_hand(notation)
    except NotationError as exc:
        raise SessionError(f"hand of {owner}: {exc}") from exc
    if parts.get("bonus"):
        raise SessionError(f"hand of {owner}: riichi has no flowers or seasons")
    win = parts.get("winning_tile") or winning_tile
    if not win:
        raise SessionError(f"hand of {owner}: write the winning tile last as +tile")
    used = [0] * 34

    def take(index: int) -> int:
        if used[index] >= 4:
            raise SessionError(f"hand of {owner}: more than four of one tile")
        used[index] += 1
        return index * 4 + used[index] - 1

    melds, tiles = [], []
    for group in parts["melds"]:
        closed = group.startswith("{")
        kinds = tile_indices(group[1:-1], f"hand of {owner}")
        if "X" in group:
            raise SessionError(f"hand of {owner}: write the closed kan with its four faces")
        ids = [take(k) for k in kinds]
        tiles += ids
        if len(kinds) == 4 and len(set(kinds)) == 1:
            melds.append(Meld(Meld.KAN, ids, opened=not closed))
        elif len(kinds) == 3 and len(set(kinds)) == 1 and not closed:
            melds.append(Meld(Meld.PON, ids))
        elif (len(kinds) == 3 and not closed and kinds[0] < 27
              and sorted(kinds) == list(range(min(kinds), min(kinds) + 3))
              and min(kinds) // 9 == max(kinds) // 9):
            melds.append(Meld(Meld.CHI, ids))
        else:
            raise SessionError(f"hand of {owner}: {group} is not a chi, pon or kan")
    tiles += [take(k) for k in tile_indices(parts["concealed"], f"hand of {owner}")]
    win_kinds = tile_indices(win, f"winning tile of {owner}")
    if len(win_kinds) != 1:
        raise SessionError(f"hand of {owner}: the winning tile must be one tile, not {win!r}")
    win_id = take(win_kinds[0])
    tiles.append(win_id)
    winds = {"E": EAST, "S": SOUTH, "W": WEST, "N": NORTH}
    unknown = [flag for flag in special if flag not in SPECIAL_FLAGS]
    if unknown:
        raise SessionError("unknown riichi special " + ", ".join(unknown) + "; choose from "
                           + ", ".join(SPECIAL_FLAGS))
    config = HandConfig(
        is_tsumo=tsumo, is_riichi=riichi, player_wind=winds[seat_wind],
        round_wind=winds[round_wind],
        options=OptionalRules(has_open_tanyao=True, has_aka_dora=False,
                              has_double_yakuman=False,
                              kazoe_limit=HandConstants.KAZOE_SANBAIMAN, kiriage=False),
        **{SPECIAL_FLAGS[flag]: True for flag in special})
    indicators = [k * 4 for text in dora for k in tile_indices(text, "dora")]
    ura = [k * 4 for text in ura_dora for k in tile_indices(text, "ura dora")]
    result = HandCalculator.estimate_hand_value(tiles, win_id, melds=melds,
                                                dora_indicators=indicators or None,
                                                ura_dora_indicators=ura or None, config=config)
    if result.error:
        raise SessionError(f"hand of {owner} does not win: {result.error.replace('_', ' ')}")
    yaku = tuple(str(y) for y in result.yaku or ())
    yakuman = any(getattr(y, "is_yakuman", False) for y in result.yaku or ())
    return RiichiValue(han=int(result.han), fu=int(result.fu), yakuman=yakuman, yaku=yaku)
