"""Numbers as the reader writes them, in one place: ``7394`` in English (as the JSON answers
have it), ``7.394`` in Dutch (a dot between thousands, a comma before decimals: ``0,5``).
Every text a player reads (the score breakdown of ``mjscore score`` and ``mjscore scan``,
their final scores) formats its points through :func:`number`; JSON stays plain numbers."""

from __future__ import annotations

_THOUSANDS = {"en": "", "nl": "."}
_DECIMAL = {"en": ".", "nl": ","}


def number(value, lang: str = "en", *, signed: bool = False) -> str:
    """``value`` as text for ``lang``: a whole number with the language's thousands mark
    (``-12.500`` in Dutch, ``-12500`` in English), a fraction with two decimals (``2,50``
    in Dutch); ``signed`` writes ``+`` before a positive number (a payment, ``+1.536``).
    Anything that is not a number (``None``, a text, a bool) comes back as ``str`` gives it."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = f"{value:{'+' if signed and value else ''},{'' if isinstance(value, int) else '.2f'}}"
    marks = {",": _THOUSANDS.get(lang, ""), ".": _DECIMAL.get(lang, ".")}
    return "".join(marks.get(c, c) for c in text)
