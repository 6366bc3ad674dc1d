"""Where handscan meets the scoring engine: the hand a layout shows as the engine's own
:class:`scoring.model.Hand`, and its :class:`scoring.model.HandScore`.

The groups on the table become engine :class:`Group` objects directly (no notation text in
between); notation is written only for people (:attr:`LaidHand.notation`). A hand typed
by the user (``--hand``, the web form, a manifest cell) is read by the engine's parser,
:func:`hand_from_text`."""

from __future__ import annotations

from dataclasses import dataclass

from .context import ContextError, ScanContext, WinningTileNotInHand, engine_context
from ..scoring.model import CONCEALED_KONG as ENGINE_CONCEALED_KONG
from ..scoring.model import EXPOSED as ENGINE_EXPOSED
from ..scoring.model import Group, Hand, HandScore
from ..scoring.notation import canonical_group, parse_hand
from ..scoring.nts import score_hand
from ..scoring.tiles import BONUS as BONUS_TILES
from ..vision.layout import (CONCEALED, CONCEALED_KONG, EXPOSED, Layout, compact, hand_notation,
                                   layout_from_groups, sort_key)

_ENGINE_KIND = {EXPOSED: ENGINE_EXPOSED, CONCEALED_KONG: ENGINE_CONCEALED_KONG}


@dataclass(frozen=True)
class LaidHand:
    """A layout read as a hand: the engine's hand, the layout it was read from (regrouped when
    the winning tile lay in an exposed set), the notation shown, and notes on what was assumed."""
    hand: Hand
    layout: Layout
    notation: str
    notes: tuple[str, ...] = ()


def engine_group(kind: str, tokens) -> Group:
    """A layout set (exposed or concealed kong) as the engine's group, tiles in canonical order."""
    engine_kind = _ENGINE_KIND[kind]
    return Group(engine_kind, canonical_group(engine_kind, list(tokens)))


def hand_from_layout(layout: Layout, winning_tile: str | None) -> LaidHand:
    """The engine hand of a layout. The photo shows the winning tile among the others: one
    copy leaves the concealed part. If the concealed part lacks it but an exposed set holds
    it, that set was laid open after the win (DECISION): it joins the concealed part, where
    the engine treats a set completed by a discard as open anyway. Raises
    :class:`WinningTileNotInHand` when no tile of the hand is the winning tile."""
    notes: list[str] = []
    concealed = [t for g in layout.groups if g.kind == CONCEALED for t in g.tokens]
    if winning_tile and winning_tile not in concealed:
        holders = [g for g in layout.groups if g.kind == EXPOSED and winning_tile in g.tokens and len(g.tiles) == 3]
        if not holders:
            raise WinningTileNotInHand(f"the winning tile {winning_tile} is not among the concealed tiles "
                                       f"read from the photo ({compact(concealed) or 'none'})")
        opened = holders[-1]
        notes.append(f"the winning tile {winning_tile} lies only in the exposed set {opened.notation}: "
                     f"read as the set it completed, laid open after the win")
        spec = [(g.kind if g is not opened else CONCEALED, list(g.indices)) for g in layout.groups]
        layout = layout_from_groups(layout.tiles, spec)
        concealed = list(layout.concealed)
    rest = sorted(concealed, key=sort_key)
    if winning_tile:
        rest.remove(winning_tile)
    groups = tuple(engine_group(g.kind, g.tokens) for g in layout.groups if g.kind in _ENGINE_KIND)
    loose_bonus = tuple(t for t in rest if t in BONUS_TILES)       # as the notation reads them
    hand = Hand(groups, tuple(t for t in rest if t not in BONUS_TILES), winning_tile or None,
                loose_bonus + tuple(layout.bonus))
    return LaidHand(hand, layout, hand_notation(layout.groups, winning_tile or None), tuple(notes))


def hand_from_text(text: str, ctx: ScanContext) -> tuple[Hand, ScanContext]:
    """A typed hand (spec §1.2 notation) in a context: the ``+tile`` of the text and the
    context's winning tile must agree, and each fills in the other. Raises
    :class:`scoring.notation.NotationError` or :class:`ContextError`."""
    hand = parse_hand(text)
    if hand.winning_tile and ctx.winning_tile and hand.winning_tile != ctx.winning_tile:
        raise ContextError(f"the hand says +{hand.winning_tile} but the winning tile given is {ctx.winning_tile}")
    if hand.winning_tile:
        return hand, ctx.with_(winning_tile=hand.winning_tile)
    if ctx.winning_tile:
        return Hand(hand.groups, hand.concealed, ctx.winning_tile, hand.bonus), ctx
    return hand, ctx


def score(hand: Hand, ctx: ScanContext) -> HandScore:
    """The engine's score of a winner's hand in a complete context. An engine failure comes
    back as an invalid score (reason ``error``) with the message, so a scan never ends in a
    traceback."""
    try:
        return score_hand(hand, engine_context(ctx), ctx.ruleset)
    except Exception as exc:                         # noqa: BLE001 - a bug in the engine, reported
        return HandScore(valid=False, reason="error", message=f"{type(exc).__name__}: {exc}")
