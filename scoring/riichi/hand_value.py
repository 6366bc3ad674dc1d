"""Han and fu of a winning riichi hand from its tiles, through the reference library
(``mahjong`` 2.1.0, spec §16.8); no yaku are re-implemented here.

EMA choices (§16.1, §16.8, §17.22): open tanyao allowed, no red fives, no kiriage,
13+ han from ordinary yaku = sanbaiman (kazoe), one yakuman at most (double yakuman
variants count single, and two yakuman in one hand still pay one), no renhou, no nagashi
mangan. Pinfu tsumo is 20 fu, an open hand without fu is 30 fu, seven pairs 25 fu.

Tiles: see ``scoring.riichi.tiles`` (project notation or ``123m…11122z``). The winning
tile is either written last as ``+tile`` or passed as ``win_tile``; with ``win_tile`` the
text may hold 13 tiles (win tile added) or all 14 (win tile among them), kongs count 3.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from .errors import RiichiInputError
from .model import DEALER, SEATS, HandValue
from .payments import round_up, win_score
from .tiles import Meld, name, read_hand, single_tile

SPECIAL_FLAGS = {
    "ippatsu": "is_ippatsu", "rinshan": "is_rinshan", "chankan": "is_chankan",
    "haitei": "is_haitei", "houtei": "is_houtei", "double_riichi": "is_daburu_riichi",
    "tenhou": "is_tenhou", "chiihou": "is_chiihou",
}
LIBRARY_ERRORS = {
    "hand_not_winning": "the tiles do not form a winning hand (four sets and a pair, "
                        "seven pairs or thirteen orphans)",
    "no_yaku": "the hand has no yaku (dora alone do not make a winning hand)",
    "open_hand_riichi_not_allowed": "riichi needs a closed hand (only closed kans allowed)",
    "open_hand_daburi_not_allowed": "double riichi needs a closed hand",
    "ippatsu_without_riichi_not_allowed": "ippatsu needs riichi",
    "chankan_with_tsumo_not_allowed": "chankan (robbing a kan) is a ron, not a tsumo",
    "rinshan_without_tsumo_not_allowed": "rinshan (kan replacement tile) is a tsumo",
    "haitei_without_tsumo_not_allowed": "haitei (last tile of the wall) is a tsumo",
    "houtei_with_tsumo_not_allowed": "houtei (last discard) is a ron",
    "haitei_with_rinshan_not_allowed": "haitei and rinshan cannot both apply",
    "houtei_with_chankan_not_allowed": "houtei and chankan cannot both apply",
    "tenhou_not_as_dealer_not_allowed": "tenhou is for the dealer (seat East) only",
    "tenhou_without_tsumo_not_allowed": "tenhou is a tsumo",
    "tenhou_with_meld_not_allowed": "tenhou has no calls",
    "chiihou_as_dealer_not_allowed": "chiihou is for a non-dealer only",
    "chiihou_without_tsumo_not_allowed": "chiihou is a tsumo",
    "chiihou_with_meld_not_allowed": "chiihou has no calls",
    "winning_tile_not_in_hand": "the winning tile is not in the hand",
}


@dataclass(frozen=True)
class Cost:
    """Payment of the hand without counters or sticks (§16.2).

    Ron: ``main`` is what the discarder pays. Tsumo: ``main`` is the dealer's share
    (every payer's share when the dealer won), ``additional`` each non-dealer's share."""

    main: int
    additional: int
    total: int


@dataclass(frozen=True)
class HanFu:
    han: int                              # 13 for any yakuman (single yakuman maximum)
    fu: int
    yaku: tuple[tuple[str, int], ...]     # (library name, han) incl. dora / ura dora
    yakuman: bool
    limit: str                            # "", mangan, haneman, baiman, sanbaiman, yakuman
    kazoe: bool                           # 13+ han from ordinary yaku, capped at sanbaiman
    basic_points: int
    cost: Cost
    fu_details: tuple[tuple[str, int], ...]
    is_open: bool

    @property
    def value(self) -> HandValue:
        """What the settlement needs (``settle_riichi_request`` winner fields)."""
        return HandValue(han=self.han, fu=self.fu or None, yakuman=self.yakuman)

    def to_request(self) -> dict:
        out: dict = {"han": self.han}
        if self.fu and not self.yakuman:
            out["fu"] = self.fu
        if self.yakuman:
            out["yakuman"] = True
        return out


def han_fu_from_hand(notation_or_tiles: str | Sequence[str], win_tile: str | None = None,
                     is_tsumo: bool = False, riichi: bool = False, seat_wind: str = "E",
                     round_wind: str = "E", dora: Iterable[str] = (),
                     ura_dora: Iterable[str] = (), melds: Iterable[str] = (),
                     special: Iterable[str] = ()) -> HanFu:
    """Value of one winning hand under EMA rules.

    ``dora`` / ``ura_dora`` are the indicator tiles (the dora is the next tile), kan
    indicators included. ``melds`` are extra groups in notation (``"[555p]"``), the same as
    writing them in the hand text. ``special``: ippatsu, rinshan, chankan, haitei, houtei,
    double_riichi, tenhou, chiihou. Raises ``RiichiInputError`` naming the problem."""
    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules

    text = notation_or_tiles if isinstance(notation_or_tiles, str) else " ".join(notation_or_tiles)
    written = read_hand(" ".join([*melds, text]) if melds else text)
    win = _winning_kind(written, win_tile)
    tiles, win_id, library_melds = _tiles_136(written, win)
    for what, wind in (("seat_wind", seat_wind), ("round_wind", round_wind)):
        if wind not in SEATS:
            raise RiichiInputError(what, f"{wind!r} is not a wind (E, S, W or N)")
    special = tuple(special)
    unknown = [flag for flag in special if flag not in SPECIAL_FLAGS]
    if unknown:
        raise RiichiInputError("special", f"unknown {', '.join(unknown)}; choose from "
                               + ", ".join(SPECIAL_FLAGS))
    options = OptionalRules(has_open_tanyao=True, has_aka_dora=False, has_double_yakuman=False,
                            kazoe_limit=HandConstants.KAZOE_SANBAIMAN, kiriage=False,
                            fu_for_open_pinfu=True, fu_for_pinfu_tsumo=False,
                            renhou_as_yakuman=False)
    config = HandConfig(is_tsumo=is_tsumo, is_riichi=riichi,
                        player_wind=27 + SEATS.index(seat_wind),
                        round_wind=27 + SEATS.index(round_wind), options=options,
                        **{SPECIAL_FLAGS[flag]: True for flag in special})
    result = HandCalculator.estimate_hand_value(
        tiles, win_id, melds=library_melds,
        dora_indicators=[single_tile(t, "dora") * 4 for t in dora] or None,
        ura_dora_indicators=[single_tile(t, "ura_dora") * 4 for t in ura_dora] or None,
        config=config)
    if result.error:
        raise RiichiInputError("hand", LIBRARY_ERRORS.get(result.error,
                                                          result.error.replace("_", " ")))
    is_open = result.is_open_hand
    yaku = tuple((y.name, y.han_open if is_open and y.han_open else y.han_closed)
                 for y in result.yaku)
    yakuman = any(y.is_yakuman for y in result.yaku)
    han = 13 if yakuman else int(result.han)
    fu = int(result.fu)
    score = win_score(seat_wind, HandValue(han=han, fu=fu or None, yakuman=yakuman))
    return HanFu(han=han, fu=fu, yaku=yaku, yakuman=yakuman, limit=score.limit,
                 kazoe=score.kazoe, basic_points=score.basic_points,
                 cost=_cost(score.basic_points, seat_wind == DEALER, is_tsumo),
                 fu_details=tuple((d["reason"], d["fu"]) for d in result.fu_details or ()),
                 is_open=is_open)


def _cost(basic: int, dealer: bool, tsumo: bool) -> Cost:
    if not tsumo:
        main = round_up((6 if dealer else 4) * basic)
        return Cost(main=main, additional=0, total=main)
    main = round_up(2 * basic)
    additional = main if dealer else round_up(basic)
    return Cost(main=main, additional=additional, total=main + 2 * additional)


def _winning_kind(written, win_tile: str | None) -> int:
    """The winning tile from ``+tile`` or ``win_tile`` (both given: they must agree)."""
    given = single_tile(win_tile, "win_tile") if win_tile is not None else None
    if written.win is not None and given is not None and written.win != given:
        raise RiichiInputError("win_tile", f"+{name(written.win)} in the hand but "
                               f"win_tile {win_tile!r}")
    win = written.win if written.win is not None else given
    if win is None:
        raise RiichiInputError("win_tile", "missing: write the winning tile last as +tile "
                               "or pass win_tile")
    return win


def _tiles_136(written, win: int):
    """136-ids for the library: every copy of a kind gets its own id; the winning tile
    is one of the concealed tiles (added when the text has 13, found when it has 14)."""
    from mahjong.meld import Meld as LibraryMeld

    kongs = sum(1 for m in written.melds if m.kind == "kan")
    meld_tiles = sum(len(m.tiles) for m in written.melds)
    concealed = list(written.concealed)
    written_count = len(concealed) + meld_tiles - kongs
    if written.win is not None or written_count == 13:
        concealed.append(win)
    elif win not in concealed:
        raise RiichiInputError("win_tile", f"{name(win)} is not among the concealed tiles")
    total = len(concealed) + meld_tiles - kongs
    if total != 14:
        raise RiichiInputError("hand", f"{total} tiles; a winning hand has 14 "
                               "(a kan counts as 3)")
    used = [0] * 34

    def take(kind: int) -> int:
        if used[kind] >= 4:
            raise RiichiInputError("hand", f"more than four {name(kind)}")
        used[kind] += 1
        return kind * 4 + used[kind] - 1

    library_melds, tiles = [], []
    for meld in written.melds:
        ids = [take(k) for k in meld.tiles]
        tiles += ids
        library_melds.append(LibraryMeld(_meld_type(meld), ids, opened=meld.opened))
    ids = [take(k) for k in concealed]
    tiles += ids
    win_id = max(i for i, k in zip(ids, concealed) if k == win)
    return tiles, win_id, library_melds


def _meld_type(meld: Meld) -> str:
    from mahjong.meld import Meld as LibraryMeld
    return {"chi": LibraryMeld.CHI, "pon": LibraryMeld.PON, "kan": LibraryMeld.KAN}[meld.kind]
