"""The page's set edits, done by the review's own commands (``handscan.review``).

The phone page shows the sets of the layout and lets the player regroup them with taps; it
keeps no grouping logic of its own. It sends its tiles and groups with one structured edit,
and this module turns the edit into the review command the CLI's ``--review`` would take
(``group 2 exposed``, ``move 7 to new``, ``add 5p to concealed``, ``del 7``, ``3=5p``) and
applies it with :func:`handscan.review.apply_command`, so a regroup on the phone and in the
terminal give the same groups. Split and merge are a few ``move`` commands in a row.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..errors import InputError
from ..handscan.context import ScanContext
from ..handscan.review import ReviewError, ReviewState, apply_command
from ..vision.layout import BONUS, CONCEALED, EXPOSED, GROUP_KINDS, Layout, is_bonus, layout_from_groups
from ..vision.types import TileRead

OPS = ("kind", "move", "split", "merge", "add", "remove", "fix")
TARGETS = ("new", "concealed", "bonus")


@dataclass(frozen=True)
class Edit:
    """One tap on the page. ``tile`` and ``group`` are 1-based numbers as shown; ``to`` is
    a group number or one of ``new`` / ``concealed`` / ``bonus``."""
    op: str
    tile: int | None = None
    group: int | None = None
    to: int | str | None = None
    kind: str | None = None
    tiles: tuple[int, ...] = ()


def layout_of(tiles: Sequence[TileRead], groups: Sequence[dict] | None) -> Layout:
    """The page's groups as a layout. Tiles in no group join the concealed part (flowers
    and seasons the bonus tiles); a tile in two groups or a number out of range is refused."""
    groups = list(groups or ())
    seen: set[int] = set()
    spec: list[tuple[str, list[int]]] = []
    reasons: list[tuple[str, float]] = []
    for n, g in enumerate(groups, 1):
        kind = g.get("kind")
        if kind not in GROUP_KINDS:
            raise InputError(f"group {n}: kind must be one of {', '.join(GROUP_KINDS)}, not {kind!r}")
        idx = []
        for number in g.get("tiles") or ():
            if not isinstance(number, int) or not 1 <= number <= len(tiles):
                raise InputError(f"group {n}: there is no tile {number} (tiles are numbered 1-{len(tiles)})")
            if number - 1 in seen:
                raise InputError(f"tile {number} is in two groups")
            seen.add(number - 1)
            idx.append(number - 1)
        spec.append((kind, idx))
        reasons.append((str(g.get("reason") or "set by hand"), float(g.get("confidence", 1.0))))
    for i, t in enumerate(tiles):
        if i not in seen:
            spec.append((BONUS if is_bonus(t.kind) else CONCEALED, [i]))
            reasons.append(("set by hand", 1.0))
    return layout_from_groups(list(tiles), spec, reasons)


def _state(layout: Layout) -> ReviewState:
    return ReviewState(tuple(layout.tiles), tuple((g.kind, tuple(g.indices)) for g in layout.groups),
                       ScanContext())


def _group_of(state: ReviewState, tile_index: int) -> int:
    """1-based number of the group holding a tile (groups move after each command)."""
    return next(n for n, (_, idx) in enumerate(state.groups, 1) if tile_index in idx)


def _number(value, what: str, top: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= top:
        raise InputError(f"there is no {what} {value} ({what}s are numbered 1-{top})")
    return value


def _target(value, state: ReviewState) -> str:
    if isinstance(value, str) and value in TARGETS:
        return value
    return str(_number(value, "group", len(state.groups)))


def commands(state: ReviewState, edit: Edit) -> list[str]:
    """The review commands one page edit stands for (split/merge: one ``move`` per tile,
    group numbers looked up again after each, see :func:`apply_edit`)."""
    ntiles, ngroups = len(state.tiles), len(state.groups)
    if edit.op == "kind":
        group = _number(edit.group, "group", ngroups)
        kind = edit.kind if edit.kind in GROUP_KINDS else None
        if kind is None:
            raise InputError(f"a set is one of {', '.join(GROUP_KINDS)}, not {edit.kind!r}")
        return [f"group {group} {kind}"]
    if edit.op == "move":
        tile = _number(edit.tile, "tile", ntiles)
        return [f"move {tile} to {_target(edit.to, state)}"]
    if edit.op == "add":
        if not edit.kind:
            raise InputError("say which tile to add (kind, e.g. 5p)")
        return [f"add {edit.kind} to {_target(edit.to or 'concealed', state)}"]
    if edit.op == "remove":
        return [f"del {_number(edit.tile, 'tile', ntiles)}"]
    if edit.op == "fix":
        if not edit.kind:
            raise InputError("say which kind the tile is (e.g. 5p)")
        return [f"{_number(edit.tile, 'tile', ntiles)}={edit.kind}"]
    raise InputError(f"unknown edit {edit.op!r}; one of {', '.join(OPS)}")


def apply_edit(layout: Layout, edit: Edit) -> tuple[Layout, list[int | None]]:
    """The layout after one edit, and for each of its tiles the number it had before
    (None for an added tile), so the page can keep what it knows about each tile."""
    state = _state(layout)
    before = list(range(1, len(state.tiles) + 1))
    try:
        if edit.op == "split":
            group = _number(edit.group, "group", len(state.groups))
            members = state.groups[group - 1][1]
            chosen = [_number(t, "tile", len(state.tiles)) - 1 for t in edit.tiles]
            if not chosen or any(i not in members for i in chosen):
                raise InputError(f"choose tiles of set {group} to split off")
            if len(chosen) == len(members):
                raise InputError("choose some of the set's tiles, not all of them, to split off")
            state, _ = apply_command(state, f"move {chosen[0] + 1} to new")
            for i in chosen[1:]:
                state, _ = apply_command(state, f"move {i + 1} to {_group_of(state, chosen[0])}")
        elif edit.op == "merge":
            group = _number(edit.group, "group", len(state.groups))
            into = _number(edit.to, "group", len(state.groups))
            if into == group:
                raise InputError("choose another set to merge with")
            anchor = state.groups[into - 1][1][0]
            for i in state.groups[group - 1][1]:
                state, _ = apply_command(state, f"move {i + 1} to {_group_of(state, anchor)}")
        else:
            for command in commands(state, edit):
                state, _ = apply_command(state, command)
    except ReviewError as exc:
        raise InputError(str(exc)) from None
    if edit.op == "remove":
        before.pop(edit.tile - 1)
    after = before + [None] * (len(state.tiles) - len(before))
    reasons = [(_reason(layout, kind, idx), 1.0) for kind, idx in state.groups]
    return layout_from_groups(list(state.tiles), [(k, list(i)) for k, i in state.groups], reasons), after


def _reason(old: Layout, kind: str, idx: Sequence[int]) -> str:
    """A group that is exactly one of the photo's keeps its reason; others were set by hand."""
    for g in old.groups:
        if g.kind == kind and tuple(g.indices) == tuple(idx):
            return g.reason
    return "set by hand"


__all__ = ["BONUS", "CONCEALED", "EXPOSED", "Edit", "OPS", "apply_edit", "commands", "layout_of"]
