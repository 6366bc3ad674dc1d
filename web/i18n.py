"""Messages of the API in the language the page asked for (``Accept-Language`` or ``lang``).

The English texts are written where the problem is found (scoring, handscan, vision,
match, web) and stay the API's English answers; their Dutch renderings are the one
catalogue ``scoring.messages`` (templates with ``<name>`` for the variable parts). A
layout reason or a warning made of several parts joined by ``; `` is translated part by
part. Validation errors (422) are worded from their ``type`` (``web.words.VALIDATION_NL``)."""

from __future__ import annotations

import re
from typing import Iterable

from ..scoring.messages import say
from .words import VALIDATION_NL


def request_lang(query_lang: str | None, accept_language: str | None) -> str:
    """``nl`` when the page asked for Dutch (query ``lang=nl`` or ``Accept-Language: nl``)."""
    if query_lang in ("en", "nl"):
        return query_lang
    first = (accept_language or "").split(",")[0].strip().lower()
    return "nl" if first.startswith("nl") else "en"


# The pipeline's two hints that name command-line options, worded for the page (a tap, not
# an option), in both languages: (pattern of the English hint, English, Dutch).
_PAGE_HINTS = [
    (re.compile(r"grouping of set (?P<s>.+?) is doubtful: check the sets, regroup with 'move' or give --hand\Z"),
     "grouping of set {s} is doubtful: check the sets (tap a set to change it)",
     "de indeling van set {s} is twijfelachtig: controleer de sets (tik op een set om hem te veranderen)"),
    (re.compile(r"tile (?P<n>\d+) \((?P<k>\S+)\) lies apart at the end of the concealed row: the winning tile\? "
                r"\(give --winning-tile \S+\)\Z"),
     "tile {n} ({k}) lies apart at the end of the concealed row: the winning tile? (tap it to mark it)",
     "steen {n} ({k}) ligt apart aan het eind van de dichte rij: de winnende steen? (tik hem aan om hem te kiezen)"),
]


def page_say(message: str, lang: str) -> str:
    """A warning as the page words it: the CLI hints as taps, everything else :func:`say`."""
    for pattern, en, nl in _PAGE_HINTS:
        found = pattern.match(message)
        if found:
            return (nl if lang == "nl" else en).format(**found.groupdict())
    return say(message, lang)


def say_all(messages: Iterable[str], lang: str) -> list[str]:
    return [page_say(m, lang) for m in messages]


def validation_details(details: list[dict], lang: str) -> list[dict]:
    """FastAPI's list of what is wrong, with ``msg`` in Dutch for ``nl``."""
    if lang != "nl":
        return details
    return [dict(d, msg=VALIDATION_NL.get(d.get("type", ""), "is geen geldige waarde")) for d in details]


def layout_answer(layout: dict | None, lang: str) -> dict | None:
    """A layout's group reasons and warnings in ``lang``."""
    if lang != "nl" or not layout:
        return layout
    for g in layout.get("groups", []):
        g["reason"] = say(g.get("reason") or "", lang)
    layout["warnings"] = say_all(layout.get("warnings") or [], lang)
    return layout


def score_answer(out: dict, lang: str) -> dict:
    """The /api/score answer with its warnings, layout reasons and refusal message in ``lang``."""
    out["warnings"] = say_all(out.get("warnings") or [], lang)
    if lang != "nl":
        return out
    layout_answer(out.get("layout"), lang)
    bd = out.get("breakdown") or {}
    if bd.get("message"):
        bd["message"] = say(bd["message"], lang)
    for alt in out.get("alternatives") or []:
        if alt.get("change"):
            alt["change"] = say(alt["change"], lang)
    return out
