"""Group kinds of a layout and the notation they are written in (spec §1).

The tokens, their order and the compact writing are the engine's (``scoring.tiles``), and a
group's shape is the engine's (``scoring.model.Group.shape``): the photo's hand is read the
way the engine reads a typed one."""

from __future__ import annotations

from typing import Sequence

from ...scoring.model import CONCEALED_KONG, EXPOSED
from ...scoring.model import Group as _EngineGroup
from ...scoring.notation import format_group
from ...scoring.tiles import BACK, compact_sorted, is_bonus, sort_key
from ...scoring.tiles import compact as _compact

__all__ = ["BONUS", "CONCEALED", "CONCEALED_KONG", "EXPOSED", "GROUP_KINDS", "compact", "group_notation",
           "is_bonus", "set_type", "sort_key"]

CONCEALED = "concealed"
BONUS = "bonus"
GROUP_KINDS = (CONCEALED, EXPOSED, CONCEALED_KONG, BONUS)


def compact(tokens: Sequence[str], *, keep_order: bool = False) -> str:
    """Write tokens in compact notation: ``['2m','3m','4m','R','R']`` -> ``'234m RR'``.

    Runs of one suit share the suit letter; different suits and honour kinds are separated
    by a space (whitespace is ignored by the parser). ``keep_order`` keeps the given order
    (for a concealed kong, where the face-down positions matter) and writes no spaces."""
    return _compact(list(tokens)) if keep_order else compact_sorted(tokens)


def set_type(tokens: Sequence[str]) -> str | None:
    """'pung', 'kong', 'chow', 'concealed_kong' (with face-down tiles) or None."""
    shape = _EngineGroup(EXPOSED, tuple(tokens)).shape
    return "concealed_kong" if shape == "kong" and BACK in tokens else shape


def group_notation(kind: str, tokens: Sequence[str]) -> str:
    """Notation of one group: ``[555p]``, ``{X55pX}``, loose concealed tiles, or bonus tokens."""
    if kind == EXPOSED:
        return format_group(_EngineGroup(EXPOSED, tuple(sorted(tokens, key=sort_key))))
    if kind == CONCEALED_KONG:
        return format_group(_EngineGroup(CONCEALED_KONG, tuple(tokens)))
    if kind == BONUS:
        return " ".join(sorted(tokens, key=sort_key))
    return compact(tokens)
