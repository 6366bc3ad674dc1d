"""English and Dutch names of why a hand is refused (spec §3/§7), for the CLI and the page.

Every scoring line (base points, doublings, limit hands, spec §5-§8) is named by the rules
table alone (:func:`scoring.rules.label`); this module only adds the refusal reasons, which
are no rules, and hands every other code to the table."""

from __future__ import annotations

from .rules import label as rule_label

LANGS = ("en", "nl")

# refusal reason (§3, §7) -> (English, Dutch)
REASONS: dict[str, tuple[str, str]] = {
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


def label(code: str, lang: str = "en") -> str:
    """Readable name of a refusal reason or scoring code in ``lang`` (``en`` or ``nl``)."""
    if code in REASONS:
        return REASONS[code][1 if lang == "nl" else 0]
    return rule_label(code, lang)
