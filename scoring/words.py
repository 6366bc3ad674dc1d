"""Words for the table context in English and Dutch, in one place: the names of the winds and
of how a hand was won. Scoring lines have their labels in the rows of ``rules.py``; these are
the words around them, read by the score breakdown, the session tables and riichi sentences."""

from __future__ import annotations

from .config import WIND_NAMES as WIND_CODES

WIND_NAMES: dict[str, dict[str, str]] = {
    "en": dict(zip(WIND_CODES, ("East", "South", "West", "North"))),
    "nl": dict(zip(WIND_CODES, ("Oost", "Zuid", "West", "Noord"))),
}

# The one-letter winds a player reads: E S W N, and in Dutch O Z W N (Oost, Zuid, West, Noord).
WIND_LETTERS: dict[str, dict[str, str]] = {lang: {code: name[0] for code, name in names.items()}
                                          for lang, names in WIND_NAMES.items()}

WIN_TYPE_WORDS: dict[str, dict[str, str]] = {
    "en": {"self_drawn": "self-drawn", "discard": "on a discard", "robbed_kong": "robbing a kong"},
    "nl": {"self_drawn": "zelf gepakt", "discard": "van een weggelegde steen", "robbed_kong": "kongroof"},
}

# Every way a player may type a wind at the command line or in the review: the letter, the
# English or Dutch name, and the Dutch letters O (Oost) and Z (Zuid). The JSON contract stays
# strict (E/S/W/N only, ``api.py``).
_WIND_ALIASES: dict[str, str] = {
    **{code: code for code in WIND_CODES}, "O": "E", "Z": "S",
    **{name.upper(): code for names in WIND_NAMES.values() for code, name in names.items()},
}


def wind_code(text: str) -> str | None:
    """``E``/``S``/``W``/``N`` for a wind as typed (``e``, ``East``, ``Oost``, ``O``...), else None."""
    return _WIND_ALIASES.get(text.strip().upper())


def wind_letter(code: str, lang: str = "en") -> str:
    """The wind ``code`` (E/S/W/N) as one letter in ``lang``: ``O`` for East in Dutch."""
    return WIND_LETTERS.get(lang, WIND_LETTERS["en"]).get(code, code)
