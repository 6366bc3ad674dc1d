"""Words for the table context in English and Dutch, in one place: the names of the winds and
of how a hand was won. Scoring lines have their labels in the rows of ``rules.py``; these are
the words around them, read by the score breakdown, the session tables and riichi sentences."""

from __future__ import annotations

from .config import WIND_NAMES as WIND_CODES

WIND_NAMES: dict[str, dict[str, str]] = {
    "en": dict(zip(WIND_CODES, ("East", "South", "West", "North"))),
    "nl": dict(zip(WIND_CODES, ("Oost", "Zuid", "West", "Noord"))),
}

WIN_TYPE_WORDS: dict[str, dict[str, str]] = {
    "en": {"self_drawn": "self-drawn", "discard": "on a discard", "robbed_kong": "robbing a kong"},
    "nl": {"self_drawn": "zelf gepakt", "discard": "van een weggelegde steen", "robbed_kong": "kongroof"},
}
