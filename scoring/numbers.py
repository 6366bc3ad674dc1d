"""Numbers as the reader writes them, in one place: ``7394`` in English (as the JSON answers
have it), ``7.394`` in Dutch (a dot between thousands). Every text a player reads (the score
breakdown of ``mjscore score`` and ``mjscore scan``, their final scores) formats its points
through :func:`number`; JSON stays plain numbers."""

from __future__ import annotations

_THOUSANDS = {"nl": "."}


def number(value, lang: str = "en") -> str:
    """``value`` as text for ``lang``: a whole number with the language's thousands mark
    (``-12.500`` in Dutch, ``-12500`` in English); anything that is not a whole number
    (``None``, a text) as ``str`` gives it."""
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        else:
            return str(value)
    mark = _THOUSANDS.get(lang)
    if not mark:
        return str(value)
    return f"{value:,}".replace(",", mark)
