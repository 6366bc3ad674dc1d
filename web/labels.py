"""English and Dutch names for the engine's scoring codes (spec §5-§8) on the page.

The engine's own ``scoring.label(code, lang)`` is used when it offers one; this table is
the page's fallback, so the breakdown is readable in both languages either way. A code
``name:ARG`` (``dragon_set:R``) is named with its argument (``dragon pung/kong R``)."""

from __future__ import annotations

LANGS = ("en", "nl")

# code -> (English, Dutch)
CODES: dict[str, tuple[str, str]] = {
    # base points (§5)
    "pung_simple_open": ("open pung of simples", "open pung van enkelen"),
    "pung_simple_concealed": ("concealed pung of simples", "dichte pung van enkelen"),
    "pung_th_open": ("open pung of terminals/honours", "open pung van eindstenen/eerstenen"),
    "pung_th_concealed": ("concealed pung of terminals/honours", "dichte pung van eindstenen/eerstenen"),
    "kong_simple_open": ("open kong of simples", "open kong van enkelen"),
    "kong_simple_concealed": ("concealed kong of simples", "dichte kong van enkelen"),
    "kong_th_open": ("open kong of terminals/honours", "open kong van eindstenen/eerstenen"),
    "kong_th_concealed": ("concealed kong of terminals/honours", "dichte kong van eindstenen/eerstenen"),
    "pair_dragon": ("pair of dragons", "paar draken"),
    "pair_seat_wind": ("pair of own wind", "paar eigen wind"),
    "pair_prevailing_wind": ("pair of prevailing wind", "paar windronde"),
    "mahjong": ("mahjong", "mahjong"),
    "self_drawn": ("self-drawn", "zelf gepakt"),
    "only_possible_tile": ("only possible tile", "enig mogelijke steen"),
    "pair_completed": ("winning tile completes the pair", "winnende steen maakt het paar"),
    "pe_ling": ("pe-ling eats cake", "pe-ling eet koek"),
    "flower": ("flower", "bloem"),
    "season": ("season", "seizoen"),
    # doublings (§6)
    "dragon_set": ("dragon pung/kong", "pung/kong draken"),
    "seat_wind_set": ("pung/kong of own wind", "pung/kong eigen wind"),
    "prevailing_wind_set": ("pung/kong of prevailing wind", "pung/kong windronde"),
    "three_concealed_pungs": ("three concealed pungs", "drie dichte pungs"),
    "four_concealed_pungs": ("four concealed pungs", "vier dichte pungs"),
    "three_concealed_kongs": ("three concealed kongs", "drie dichte kongs"),
    "four_kongs": ("four kongs", "vier kongs"),
    "clean": ("clean hand", "schone hand"),
    "very_clean": ("very clean hand", "zeer schone hand"),
    "pure": ("pure hand", "pure hand"),
    "four_chows": ("four chows", "vier chows"),
    "four_pungs": ("four pungs", "vier pungs"),
    "pure_simplicity": ("all simples", "alleen enkelen"),
    "hidden_treasure": ("hidden treasure", "verborgen schat"),
    "little_four_winds": ("little four winds", "kleine vier winden"),
    "little_three_dragons": ("little three dragons", "kleine drie draken"),
    "last_wall_tile": ("last tile of the wall", "van de bodem van de zee"),
    "moon_from_the_sea": ("moon from the bottom of the sea", "maan van de bodem van de zee"),
    "robbing_the_kong": ("robbing the kong", "kong beroven"),
    "kong_replacement": ("win on a kong replacement tile", "kong met bloeiende bloemen"),
    "plum_blossom": ("plum blossom on the roof", "pruimenbloesem op het dak"),
    "kong_on_kong": ("kong on kong", "kong op kong"),
    "own_flower": ("own flower", "eigen bloem"),
    "own_season": ("own season", "eigen seizoen"),
    # limit hands (§8)
    "thirteen_orphans": ("thirteen orphans", "dertien wezen"),
    "honour_twins": ("honour twins", "eerbare tweelingen"),
    "clean_twins": ("clean twins", "schone tweelingen"),
    "very_clean_twins": ("very clean twins", "zeer schone tweelingen"),
    "wind_snake": ("wind snake", "windslang"),
    "winding_snake": ("winding snake", "kronkelende slang"),
    "four_winds": ("four winds", "vier winden"),
    "three_dragons": ("three dragons", "drie draken"),
    "head_and_tail": ("heads and tails", "kop en staart"),
    "imperial_court": ("imperial court", "keizerlijk hof"),
    "four_concealed_kongs": ("four concealed kongs", "vier dichte kongs"),
    # invalid hands (§3, §7)
    "tile_count": ("wrong number of tiles", "verkeerd aantal stenen"),
    "too_many_copies": ("more than four of a tile", "meer dan vier van een steen"),
    "invalid_meld": ("an exposed set is not a set", "een open set is geen set"),
    "no_valid_hand": ("not a complete hand", "geen complete hand"),
    "min_doublings": ("fewer than 2 doublings", "minder dan 2 verdubbelingen"),
    "duplicate_bonus_tile": ("a bonus tile twice", "een bloem of seizoen dubbel"),
    "special_condition": ("special moment does not fit the hand", "bijzonder moment past niet bij de hand"),
    "error": ("the engine could not score this hand", "de rekenmodule kon deze hand niet tellen"),
    "bonus_tiles_not_allowed": ("flowers and seasons count only in the NTS app rules",
                                "bloemen en seizoenen tellen alleen bij de NTS-app-regels"),
    "face_down_tile": ("a face-down tile outside a concealed kong", "een dichte steen buiten een dichte kong"),
    "syntax": ("the hand is not written correctly", "de hand is niet goed geschreven"),
    "unsupported_ruleset": ("unknown rules", "onbekende regels"),
}

TILE_WORDS = {"E": ("East", "Oost"), "S": ("South", "Zuid"), "W": ("West", "West"),
              "N": ("North", "Noord"), "R": ("red dragon", "rode draak"),
              "G": ("green dragon", "groene draak"), "Wh": ("white dragon", "witte draak")}


def label(code: str, lang: str = "en") -> str:
    """Readable name of a scoring code in ``lang`` (``en`` or ``nl``)."""
    name, _, arg = code.partition(":")
    try:
        from mjscore.scoring import label as engine_label         # the engine's own names, when it has them
        text = str(engine_label(code, lang) or "")
        # the engine spells out codes it has no name for; this table may know them
        if text and not (name in CODES and text.startswith(name.replace("_", " "))):
            return text
    except Exception:
        pass
    li = 1 if lang == "nl" else 0
    base = CODES[name][li] if name in CODES else name.replace("_", " ")
    if arg:
        arg = TILE_WORDS[arg][li] if arg in TILE_WORDS else arg
        return f"{base} ({arg})"
    return base
