"""Which limit hands of the rules table a hand makes (spec §8): the engine's only way to ask
the limit rows. Every answer is a row of :mod:`scoring.rules` (its code, value and labels);
of several limit hands the highest value counts, the earlier row on a tie.

The tables are read from the module at every call, so a changed row is a changed rule."""

from __future__ import annotations

from . import rules
from .decompose import completing_kinds
from .model import Context
from .rules import Rule, View, applies, in_ruleset


def regular_limits(v: View) -> list[Rule]:
    """The limit rows one arrangement in four sets and a pair makes."""
    return [r for r in rules.REGULAR_LIMITS if applies(r, v) and r.test(v)]


def special_limits(ctx: Context, ruleset: str) -> list[Rule]:
    """The limit rows the moment of winning makes of any complete hand (heavenly, earthly)."""
    return [r for r in rules.SPECIAL_LIMITS if in_ruleset(r, ruleset) and r.test(ctx)]


def irregular_limit(c14: list[int], ruleset: str, config: dict) -> Rule | None:
    """The highest irregular limit row whose pattern the 14 concealed tiles form, or None."""
    if sum(c14) != 14:
        return None
    found = [r for r in rules.IRREGULAR_LIMITS if in_ruleset(r, ruleset) and r.test(c14, config)]
    return max(found, key=lambda r: r.value, default=None)


def irregular_wait(c13: list[int], ruleset: str, config: dict) -> Rule | None:
    """The highest irregular limit row the 13 tiles are one tile away from (§8.3), or None."""
    best = None
    for t in completing_kinds(c13):
        if c13[t] >= 4:
            continue
        c13[t] += 1
        row = irregular_limit(c13, ruleset, config)
        c13[t] -= 1
        if row and (best is None or row.value > best.value):
            best = row
    return best
