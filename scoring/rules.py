"""The NTS rules as data (spec §5, §6, §8): one small record per base-point row, doubling
and limit hand, each with its stable code (as in cases.json), its value, who may score it,
an English and a Dutch label (the only wording of a scoring line, for the CLI and the web
page alike), and the test that decides whether it applies. Adding or changing a rule is
one row here: the engine asks every row, and knows no code by name.

The order of the tables is the order of the lines in a score breakdown. What a ``test``
is asked depends on its table:

* group rules, ``test(set, view) -> bool``, once per set (in the order of the sets);
* hand rules, ``test(view) -> list[str]``, once per hand: the code suffixes that apply
  (``[""]`` for a rule without suffix, ``[]`` when it does not apply);
* regular limits, ``test(view) -> bool``, on every arrangement in four sets and a pair;
* irregular limits, ``test(counts, config) -> bool``, on the 14 tiles of a concealed hand
  (a 34-slot count vector, see :mod:`scoring.patterns`);
* special limits, ``test(context) -> bool``, once for any complete hand (the moment it was won).

Doublings in one ``family`` do not add up: the highest one counts. Of several limit hands
the highest counts (see :mod:`scoring.limits`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from . import patterns as pt
from .decompose import CHOW, KONG, PAIR, PUNG, Set
from .model import Context
from .words import WIND_NAMES
from .patterns import suit_profile
from .tiles import (FLOWERS, GREEN, SEASONS, SEAT_NUMBER, TILES, is_dragon, is_simple,
                                   is_terminal, is_wind, suit_of)

ALL, WINNER = "all", "winner"


@dataclass
class View:
    """What the rules look at: one arrangement of one player's hand in its context."""

    sets: list[Set]                 # every set and the pair, in breakdown order
    ctx: Context
    ruleset: str
    config: dict
    counts: list[int]               # every tile of the hand (a pe-ling cake counted as 1s)
    bonus: tuple[str, ...] = ()
    winning_tile: str | None = None     # as physically won (1p for pe-ling)
    only_possible: bool = False
    pe_ling: bool = False
    any_exposed: bool = False

    @property
    def winner(self) -> bool:
        return self.ctx.is_winner

    @property
    def self_drawn(self) -> bool:
        return self.ctx.win_type == "self_drawn"

    def pungs(self) -> list[Set]:
        return [s for s in self.sets if s.is_pung_or_kong]

    def pair(self) -> Set | None:
        pairs = [s for s in self.sets if s.shape == PAIR]
        return pairs[0] if len(pairs) == 1 else None

    def concealed_pungs(self) -> int:
        open_kong = self.config.get("open_kong_counts_as_concealed_pung", False)
        return sum(1 for s in self.pungs() if not s.open or (open_kong and s.shape == KONG))


@dataclass(frozen=True)
class Rule:
    code: str
    kind: str                   # "base" | "doubling" | "limit"
    value: int                  # points, doublings, or the limit value
    who: str                    # ALL or WINNER
    en: str
    nl: str
    test: Callable = field(compare=False, repr=False)   # what it is asked: see the module doc
    family: str | None = None   # non-cumulative group (highest counts)
    per_group: bool = False     # asked once per set: test(set, view) -> bool
    ruleset: str | None = None  # only in this ruleset (nts-app rows)


def _yes(flag: bool) -> list[str]:
    return [""] if flag else []


def _set_rule(code: str, value: int, en: str, nl: str, test) -> Rule:
    return Rule(code, "base", value, ALL, en, nl, test, per_group=True)


def _pung_kind(shape: str, simple: bool, is_open: bool):
    return lambda s, v: (s.shape == shape and is_simple(s.tile) == simple and s.open == is_open)


def _wind_pairs(v: View) -> bool:
    return v.config.get("wind_pair_points", True)


# -- base points (§5) ------------------------------------------------------------------

GROUP_BASE: tuple[Rule, ...] = (
    _set_rule("pung_simple_open", 2, "Open pung of simples (2-8)", "Open pung van eenvoudige stenen",
              _pung_kind(PUNG, True, True)),
    _set_rule("pung_simple_concealed", 4, "Concealed pung of simples (2-8)", "Dichte pung van eenvoudige stenen",
              _pung_kind(PUNG, True, False)),
    _set_rule("pung_th_open", 4, "Open pung of terminals or honours", "Open pung van hoekstenen, winden of draken",
              _pung_kind(PUNG, False, True)),
    _set_rule("pung_th_concealed", 8, "Concealed pung of terminals or honours",
              "Dichte pung van hoekstenen, winden of draken", _pung_kind(PUNG, False, False)),
    _set_rule("kong_simple_open", 8, "Open kong of simples (2-8)", "Open kong van eenvoudige stenen",
              _pung_kind(KONG, True, True)),
    _set_rule("kong_simple_concealed", 16, "Concealed kong of simples (2-8)", "Dichte kong van eenvoudige stenen",
              _pung_kind(KONG, True, False)),
    _set_rule("kong_th_open", 16, "Open kong of terminals or honours", "Open kong van hoekstenen, winden of draken",
              _pung_kind(KONG, False, True)),
    _set_rule("kong_th_concealed", 32, "Concealed kong of terminals or honours",
              "Dichte kong van hoekstenen, winden of draken", _pung_kind(KONG, False, False)),
    _set_rule("pair_dragon", 2, "Pair of dragons", "Paar draken",
              lambda s, v: s.shape == PAIR and is_dragon(s.tile)),
    _set_rule("pair_seat_wind", 2, "Pair of own wind", "Paar eigen wind",
              lambda s, v: s.shape == PAIR and TILES[s.tile] == v.ctx.seat_wind and _wind_pairs(v)),
    _set_rule("pair_prevailing_wind", 2, "Pair of prevailing wind", "Paar wind van de ronde",
              lambda s, v: s.shape == PAIR and TILES[s.tile] == v.ctx.prevailing_wind and _wind_pairs(v)),
)

HAND_BASE: tuple[Rule, ...] = (
    Rule("mahjong", "base", 20, WINNER, "Mahjong", "Mahjong", lambda v: _yes(True)),
    Rule("self_drawn", "base", 2, WINNER, "Winning tile self-drawn", "Winnende steen zelf gepakt",
         lambda v: _yes(v.self_drawn)),
    Rule("only_possible_tile", "base", 2, WINNER, "Winning with the only possible tile",
         "Mahjong met de enig mogelijke steen", lambda v: _yes(v.only_possible)),
    Rule("pair_completed", "base", 2, WINNER, "Winning tile completes the pair",
         "Winnende steen maakt het paar compleet",
         lambda v: _yes(any(s.winning and s.shape == PAIR for s in v.sets))),
    Rule("pe_ling", "base", 10, WINNER, "Pe-ling eats cake (1-circle for the 1-bamboo)",
         "Pe-ling eet cake (kring 1 voor bamboe 1)", lambda v: _yes(v.pe_ling)),
    Rule("flower", "base", 4, ALL, "Flower", "Bloem",
         lambda v: [b for b in v.bonus if b in FLOWERS], ruleset="nts-app"),
    Rule("season", "base", 4, ALL, "Season", "Seizoen",
         lambda v: [b for b in v.bonus if b in SEASONS], ruleset="nts-app"),
)

# -- doublings (§6) --------------------------------------------------------------------


def _dbl(code, n, who, en, nl, test, family=None, ruleset=None) -> Rule:
    return Rule(code, "doubling", n, who, en, nl, test, family=family, ruleset=ruleset)


GROUP_DOUBLINGS: tuple[Rule, ...] = (
    Rule("dragon_set", "doubling", 1, ALL, "Pung/kong of dragons", "Pung/kong draken",
         lambda s, v: s.is_pung_or_kong and is_dragon(s.tile), per_group=True),
    Rule("seat_wind_set", "doubling", 1, ALL, "Pung/kong of own wind", "Pung/kong eigen wind",
         lambda s, v: s.is_pung_or_kong and TILES[s.tile] == v.ctx.seat_wind, per_group=True),
    Rule("prevailing_wind_set", "doubling", 1, ALL, "Pung/kong of prevailing wind", "Pung/kong wind van de ronde",
         lambda s, v: s.is_pung_or_kong and TILES[s.tile] == v.ctx.prevailing_wind, per_group=True),
)


# Purity on the suit profile (suits present, honours present, all suited tiles terminals):
# shared by the doublings (§6) and the twins limits (§8.1).


def _honours_only(suits: set[int], honours: bool, terminals: bool) -> bool:
    return not suits and honours


def _one_suit_only(suits: set[int], honours: bool, terminals: bool) -> bool:
    return len(suits) == 1 and not honours


def _one_suit_and_honours(suits: set[int], honours: bool, terminals: bool) -> bool:
    return len(suits) == 1 and honours


def _clean(suits: set[int], honours: bool, terminals: bool) -> bool:
    return _one_suit_and_honours(suits, honours, terminals) or (bool(suits) and terminals)


def _very_clean(suits: set[int], honours: bool, terminals: bool) -> bool:
    return _one_suit_and_honours(suits, honours, terminals) and terminals


def _pure(suits: set[int], honours: bool, terminals: bool) -> bool:
    return _one_suit_only(suits, honours, terminals) or _honours_only(suits, honours, terminals)


def _any(suits: set[int], honours: bool, terminals: bool) -> bool:
    return True


def _purity(kind):
    return lambda v: _yes(kind(*suit_profile(v.counts)))


def _count_shape(v: View, shape: str) -> int:
    return sum(1 for s in v.sets if s.shape == shape)


def _little(v: View, kind) -> bool:
    pair = v.pair()
    return pair is not None and kind(pair.tile)


def _won_on(v: View, tile: str) -> bool:
    return v.winning_tile == tile


HAND_DOUBLINGS: tuple[Rule, ...] = (
    _dbl("three_concealed_pungs", 1, ALL, "Three concealed pungs", "Drie dichte pungs",
         lambda v: _yes(v.concealed_pungs() == 3), family="concealed_pungs"),
    _dbl("four_concealed_pungs", 2, ALL, "Four concealed pungs", "Vier dichte pungs",
         lambda v: _yes(v.concealed_pungs() >= 4), family="concealed_pungs"),
    _dbl("three_concealed_kongs", 2, ALL, "Three concealed kongs", "Drie dichte kongs",
         lambda v: _yes(sum(1 for s in v.sets if s.shape == KONG and not s.open) >= 3)),
    _dbl("four_kongs", 3, ALL, "Four kongs", "Vier kongs", lambda v: _yes(_count_shape(v, KONG) == 4)),
    _dbl("little_four_winds", 1, WINNER, "Little four winds", "Kleine vier winden",
         lambda v: _yes(sum(1 for s in v.pungs() if is_wind(s.tile)) == 3 and _little(v, is_wind))),
    _dbl("little_three_dragons", 1, WINNER, "Little three dragons", "Kleine drie draken",
         lambda v: _yes(sum(1 for s in v.pungs() if is_dragon(s.tile)) == 2 and _little(v, is_dragon))),
    _dbl("clean", 1, ALL, "Clean hand", "Schoon spel", _purity(_clean), family="purity"),
    _dbl("very_clean", 2, ALL, "Very clean hand", "Zeer schoon spel", _purity(_very_clean), family="purity"),
    _dbl("pure", 3, ALL, "Pure hand", "Zuiver spel", _purity(_pure), family="purity"),
    _dbl("four_chows", 1, WINNER, "Four chows and a pair", "Vier chows en een paar",
         lambda v: _yes(_count_shape(v, CHOW) == 4)),
    _dbl("four_pungs", 1, WINNER, "Four pungs/kongs and a pair", "Vier pungs en een paar",
         lambda v: _yes(len(v.pungs()) == 4)),
    _dbl("pure_simplicity", 1, WINNER, "Pure simplicity (only 2-8)", "Pure eenvoud (alleen 2 t/m 8)",
         lambda v: _yes(all(is_simple(i) for i in range(34) if v.counts[i]))),
    _dbl("hidden_treasure", 2, WINNER, "Hidden treasure", "Verborgen schat",
         lambda v: _yes(not v.any_exposed and v.self_drawn)),
    _dbl("last_wall_tile", 1, WINNER, "Last tile of the wall",
         "Winnen van de bodem van de zee (laatste steen van de muur)",
         lambda v: _yes("last_wall_tile" in v.ctx.special and v.self_drawn), family="sea"),
    _dbl("moon_from_the_sea", 3, WINNER, "Moon from the bottom of the sea (last tile is 1-circle)",
         "De maan van de bodem van de zee (laatste steen is kring 1)",
         lambda v: _yes("last_wall_tile" in v.ctx.special and v.self_drawn and _won_on(v, "1p")), family="sea"),
    _dbl("robbing_the_kong", 1, WINNER, "Robbing the kong", "Kongroof",
         lambda v: _yes(v.ctx.win_type == "robbed_kong")),
    _dbl("kong_replacement", 1, WINNER, "Winning on the kong replacement tile", "Kong met bloeiende bloemen",
         lambda v: _yes("kong_replacement" in v.ctx.special), family="kong"),
    _dbl("kong_on_kong", 2, WINNER, "Kong on kong", "Kong op kong",
         lambda v: _yes("kong_on_kong" in v.ctx.special), family="kong"),
    _dbl("plum_blossom", 3, WINNER, "Plum blossom (kong replacement is 5-circle)",
         "Pruimenbloesem (losse steen kring 5)",
         lambda v: _yes(bool({"kong_replacement", "kong_on_kong"} & v.ctx.special) and _won_on(v, "5p")),
         family="kong"),
    _dbl("own_flower", 1, ALL, "Own flower", "Eigen bloem",
         lambda v: [b for b in v.bonus if b in FLOWERS and int(b[1]) == SEAT_NUMBER[v.ctx.seat_wind]],
         ruleset="nts-app"),
    _dbl("own_season", 1, ALL, "Own season", "Eigen seizoen",
         lambda v: [b for b in v.bonus if b in SEASONS and int(b[1]) == SEAT_NUMBER[v.ctx.seat_wind]],
         ruleset="nts-app"),
)

# -- limit hands (§8) ------------------------------------------------------------------


def _lim(code, value, en, nl, test) -> Rule:
    return Rule(code, "limit", value, WINNER, en, nl, test)


def _four_winds(v: View) -> bool:
    return sum(1 for s in v.pungs() if is_wind(s.tile)) == 4


def _three_dragons(v: View) -> bool:
    return sum(1 for s in v.pungs() if is_dragon(s.tile)) == 3


def _jade(v: View) -> bool:
    return all(i in GREEN for i in range(34) if v.counts[i])


def _four_concealed_kongs(v: View) -> bool:
    return sum(1 for s in v.sets if s.shape == KONG and s.source == "concealed_kong") == 4


def _head_and_tail(v: View) -> bool:
    return all(is_terminal(s.tile) and s.shape in (PUNG, KONG, PAIR) for s in v.sets)


_SNAKE_MIDDLES = ({(CHOW, 2), (CHOW, 5), (PAIR, 1)},      # 345 678 22 (0-based offsets in the suit)
                  {(CHOW, 1), (CHOW, 5), (PAIR, 4)},      # 234 678 55
                  {(CHOW, 1), (CHOW, 4), (PAIR, 7)})      # 234 567 88


def _winding_snake(v: View) -> bool:
    suits = {suit_of(s.tile) for s in v.sets}
    if len(suits) != 1 or 3 in suits:
        return False
    b = 9 * suits.pop()
    ends = sorted(s.tile - b for s in v.sets if s.is_pung_or_kong)
    middle = {(s.shape, s.tile - b) for s in v.sets if not s.is_pung_or_kong}
    return ends == [0, 8] and middle in _SNAKE_MIDDLES


REGULAR_LIMITS: tuple[Rule, ...] = (
    _lim("four_winds", 2000, "Four winds", "Vier winden", _four_winds),
    _lim("three_dragons", 2000, "Three dragons", "Drie draken", _three_dragons),
    _lim("jade", 2000, "Jade hand (all green)", "Jade spel (alles groen)", _jade),
    _lim("four_concealed_kongs", 2000, "Four concealed kongs", "Vier dichte kongs", _four_concealed_kongs),
    _lim("head_and_tail", 2000, "Head and tail (only terminals)", "Kop en staart (alleen enen en negens)",
         _head_and_tail),
    _lim("winding_snake", 1000, "Winding snake", "Kronkelende slang", _winding_snake),
)


def _moment(name: str):
    return lambda ctx: name in ctx.special


SPECIAL_LIMITS: tuple[Rule, ...] = (
    _lim("heavenly_hand", 2000, "Heavenly hand", "Hemelse hand", _moment("heavenly")),
    _lim("earth_hand", 1000, "Earthly hand", "Aardse hand", _moment("earth")),
)


def _tiles(pattern):
    """A pattern of :mod:`scoring.patterns` as an irregular row's test (it needs no config)."""
    return lambda c, cfg: pattern(c)


def _twins(kind):
    """Seven pairs (four of a kind as two when the config allows) whose suits pass ``kind``."""
    return lambda c, cfg: (pt.seven_pairs(c, cfg["twins_allow_duplicate_pairs"])
                           and kind(*suit_profile(c)))


IRREGULAR_LIMITS: tuple[Rule, ...] = (
    _lim("nine_gates", 2000, "Nine gates", "Negen poorten", _tiles(pt.nine_gates)),
    _lim("thirteen_orphans", 2000, "Thirteen orphans", "Dertien wezen", _tiles(pt.thirteen_orphans)),
    _lim("wind_snake", 1000, "Wind snake", "Windslang", _tiles(pt.wind_snake)),
    _lim("dragon_snake", 1000, "Dragon snake", "Drakenslang", _tiles(pt.dragon_snake)),
    _lim("imperial_court", 1000, "Imperial court", "Keizerlijk hof", _tiles(pt.imperial_court)),
    _lim("honour_twins", 2000, "Honour twins", "Eretweelingen", _twins(_honours_only)),
    _lim("pure_twins", 1000, "Pure twins", "Zuivere tweelingen", _twins(_one_suit_only)),
    _lim("very_clean_twins", 1000, "Very clean twins", "Zeer schone tweelingen", _twins(_very_clean)),
    _lim("clean_twins", 500, "Clean twins", "Schone tweelingen", _twins(_one_suit_and_honours)),
    _lim("seven_twins", 250, "Seven twins", "Zeven tweelingen", _twins(_any)),
)

ALL_RULES: tuple[Rule, ...] = (GROUP_BASE + HAND_BASE + GROUP_DOUBLINGS + HAND_DOUBLINGS
                               + REGULAR_LIMITS + SPECIAL_LIMITS + IRREGULAR_LIMITS)
RULES: dict[str, Rule] = {r.code: r for r in ALL_RULES}

_SUFFIX_NAMES = {
    "en": {**WIND_NAMES["en"], "R": "red", "G": "green", "Wh": "white", "m": "characters", "p": "circles",
           "s": "bamboo"},
    "nl": {**WIND_NAMES["nl"], "R": "rood", "G": "groen", "Wh": "wit", "m": "tekens", "p": "kringen",
           "s": "bamboes"},
}


def label(code: str, lang: str = "en") -> str:
    """The readable label of a code, e.g. ``dragon_set:R`` -> ``Pung/kong of dragons (red)``."""
    base, _, arg = code.partition(":")
    rule = RULES.get(base)
    text = (rule.nl if lang == "nl" else rule.en) if rule else base.replace("_", " ")
    if arg:
        names = _SUFFIX_NAMES.get(lang, _SUFFIX_NAMES["en"])
        if arg in names:
            arg = names[arg]
        elif len(arg) == 2 and arg[0] in "123456789" and arg[1] in names:
            arg = f"{arg[0]} {names[arg[1]]}"
        text += f" ({arg})"
    return text


def in_ruleset(rule: Rule, ruleset: str) -> bool:
    """Whether ``rule`` plays under ``ruleset`` (rows without one play under every ruleset)."""
    return not rule.ruleset or rule.ruleset == ruleset


def applies(rule: Rule, v: View) -> bool:
    """Whether ``rule`` may be scored at all for this player under this ruleset."""
    return in_ruleset(rule, v.ruleset) and (rule.who == ALL or v.winner)
