"""Input checks before scoring (spec §3). Each problem is an :class:`InvalidHand` with the
§3 code and a message that names the culprit."""

from __future__ import annotations

from collections import Counter

from ..errors import MjscoreError
from .model import CONCEALED_KONG, EXPOSED, FIXED, Context, Hand
from .tiles import BACK, BONUS, INDEX, TILES


class InvalidHand(MjscoreError, ValueError):
    """A hand the engine refuses; ``code`` is the §3 reason (an ``mjscore.errors`` code)."""

    def __init__(self, code: str, message: str):
        self.code = code
        self.message = message
        super().__init__(f"{code}: {message}")


_ALLOWED = {EXPOSED: ("pung", "kong", "chow"), CONCEALED_KONG: ("kong",), FIXED: ("pung", "chow", "pair")}
_WHAT = {EXPOSED: "an exposed group [..] is a pung, chow or kong",
         CONCEALED_KONG: "a concealed kong {..} holds four identical tiles (X for a face-down one)",
         FIXED: "a fixed concealed group (..) is a pung, chow or pair"}


def tile_indices(hand: Hand) -> list[int]:
    """Every playing tile of the hand (kongs with backs counted as their kind)."""
    out: list[int] = []
    for g in hand.groups:
        t = g.tile
        if g.kind == CONCEALED_KONG and t is not None:
            out += [t] * len(g.tokens)
        else:
            out += [INDEX[x] for x in g.tokens if x in INDEX]
    out += [INDEX[x] for x in hand.concealed if x in INDEX]
    if hand.winning_tile in INDEX:
        out.append(INDEX[hand.winning_tile])
    return out


def kongs(hand: Hand) -> int:
    return sum(1 for g in hand.groups if g.shape == "kong")


def tile_total(hand: Hand) -> int:
    return (sum(len(g.tokens) for g in hand.groups) + len(hand.concealed)
            + (1 if hand.winning_tile else 0))


def check_tiles(hand: Hand, ruleset: str) -> None:
    """Groups, face-down tiles, bonus tiles and copies: the checks every hand must pass."""
    from .notation import format_group
    for g in hand.groups:
        text = format_group(g)
        if any(t in BONUS for t in g.tokens):
            raise InvalidHand("invalid_meld", f"{text}: flowers and seasons are never part of a group")
        if BACK in g.tokens and g.kind != CONCEALED_KONG:
            raise InvalidHand("invalid_meld", f"{text}: a face-down tile X only appears in a concealed kong {{..}}")
        if g.shape not in _ALLOWED[g.kind]:
            raise InvalidHand("invalid_meld", f"{text}: {_WHAT[g.kind]}")
    if BACK in hand.concealed:
        raise InvalidHand("face_down_tile", "a face-down tile X only appears inside a concealed kong {..}")
    if hand.winning_tile == BACK:
        raise InvalidHand("face_down_tile", "the winning tile cannot be face down")
    if hand.winning_tile in BONUS:      # the notation parser says so with a position; the JSON form lands here
        raise InvalidHand("syntax", f"a flower or season cannot be the winning tile (got {hand.winning_tile})")
    not_bonus = [t for t in hand.bonus if t not in BONUS]
    if not_bonus:       # the notation parser says so with a position; a Hand built in code lands here
        raise InvalidHand("syntax", f"only flowers (f1..f4) and seasons (j1..j4) are bonus tiles "
                                    f"(got {not_bonus[0]} among them)")
    if hand.bonus and ruleset == "nts":
        raise InvalidHand("bonus_tiles_not_allowed",
                          f"flowers and seasons ({' '.join(hand.bonus)}) do not play in NTS; use nts-app")
    twice = [b for b, n in Counter(hand.bonus).items() if n > 1]
    if twice:
        raise InvalidHand("duplicate_bonus_tile", f"bonus tile {twice[0]} appears {hand.bonus.count(twice[0])} times")
    over = [(TILES[i], n) for i, n in sorted(Counter(tile_indices(hand)).items()) if n > 4]
    if over:
        raise InvalidHand("too_many_copies", f"{over[0][0]} appears {over[0][1]} times (there are only 4)")


def check_winner(hand: Hand, ctx: Context, ruleset: str) -> None:
    """All §3 input checks for the winner (everything except no_valid_hand / min_doublings)."""
    check_tiles(hand, ruleset)
    if hand.winning_tile is None:
        raise InvalidHand("syntax", "the winning tile is missing: write it last as +tile")
    want = 14 + kongs(hand)
    have = tile_total(hand)
    if have != want:
        raise InvalidHand("tile_count", f"the winner has {have} tiles; with {kongs(hand)} kong(s) that "
                                        f"should be {want} (bonus tiles not counted)")
    check_special(hand, ctx)


def check_special(hand: Hand, ctx: Context) -> None:
    sp = ctx.special
    if "heavenly" in sp and (ctx.seat_wind != "E" or ctx.win_type != "self_drawn"):
        raise InvalidHand("special_condition", "a heavenly hand is East's own 14 dealt tiles "
                                               "(East, self-drawn)")
    if "earth" in sp and (ctx.seat_wind == "E" or ctx.win_type != "discard"):
        raise InvalidHand("special_condition", "an earthly hand is won by a non-East player on "
                                               "East's first discard")
    if sp & {"kong_replacement", "kong_on_kong"}:
        if ctx.win_type != "self_drawn":
            raise InvalidHand("special_condition", "a kong replacement tile is self-drawn")
        need = 2 if "kong_on_kong" in sp else 1
        if kongs(hand) < need:
            raise InvalidHand("special_condition", f"winning on a kong replacement tile needs "
                                                   f"{need} declared kong(s) in the hand")
    if "heavenly" in sp and "earth" in sp:
        raise InvalidHand("special_condition", "heavenly and earthly hand exclude each other")
