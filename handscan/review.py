"""Review and correction as pure functions: ``apply_command(state, text) -> (state, message)``.

The terminal loop in ``cli_scan`` only prints and reads; everything a command does is here,
so it is tested without a terminal. Commands (tile and group numbers as shown):

  3=5p [7=G ...]         tile 3 is a 5p (several at once, comma or space separated)
  move 7 to 2            tile 7 joins group 2 (``to new`` = a new exposed set,
                         ``to concealed``, ``to bonus``)
  group 2 exposed        group 2 becomes exposed / concealed / kong / bonus
  del 7 / add 5p [to 2]  drop a false detection / add a tile the recognizer missed
  win 5p                 the winning tile; ``self`` / ``discard`` / ``robbed``: how it was won
  seat S / wind E        seat wind / prevailing wind;  ruleset nts-app;  special last_wall_tile
  hand <notation>        use this hand instead of the photo's grouping (``hand`` alone: back)
  undo, help, done
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..errors import InputError
from .context import (ContextError, ScanContext, parse_ruleset, parse_specials, parse_tile,
                              parse_wind)
from ..scoring.notation import NotationError, parse_hand
from ..vision.kinds import KIND_INDEX
from ..vision.layout import BONUS, CONCEALED, CONCEALED_KONG, EXPOSED, Layout, layout_from_groups
from ..vision.types import TileRead

HELP = __doc__.split("Commands (tile and group numbers as shown):", 1)[1].rstrip()
_KIND_WORDS = {"exposed": EXPOSED, "open": EXPOSED, "concealed": CONCEALED, "closed": CONCEALED,
               "kong": CONCEALED_KONG, "concealed_kong": CONCEALED_KONG, "bonus": BONUS}
_TILE_ALIASES = {"C": "R", "F": "G", "P": "Wh"}


class ReviewError(InputError):
    """A review command that cannot be applied; the message says why and what to type."""


@dataclass(frozen=True)
class ReviewState:
    tiles: tuple[TileRead, ...]                          # reading order (numbers = index + 1)
    groups: tuple[tuple[str, tuple[int, ...]], ...]      # (kind, tile indices), display order
    context: ScanContext
    hand: str | None = None                              # notation override
    corrected: frozenset[int] = frozenset()              # tiles the user fixed or added
    done: bool = False
    previous: "ReviewState | None" = None

    @property
    def layout(self) -> Layout:
        return layout_from_groups(list(self.tiles), [(k, list(i)) for k, i in self.groups],
                                  reasons=[("set by hand" if any(j in self.corrected for j in i) else "from the photo",
                                            1.0) for _, i in self.groups])


def state_from_layout(layout: Layout, ctx: ScanContext) -> ReviewState:
    return ReviewState(tuple(layout.tiles), tuple((g.kind, tuple(g.indices)) for g in layout.groups), ctx)


def _normalise(state: ReviewState) -> ReviewState:
    """Regroup into display order (sets, kongs, concealed, bonus), dropping empty groups."""
    lay = layout_from_groups(list(state.tiles), [(k, list(i)) for k, i in state.groups])
    return replace(state, groups=tuple((g.kind, tuple(g.indices)) for g in lay.groups))


def parse_kind(text: str) -> str:
    tok = _TILE_ALIASES.get(text.strip(), text.strip())
    if tok not in KIND_INDEX:
        raise ReviewError(f"{text!r} is not a tile kind (1m..9m 1p..9p 1s..9s E S W N R G Wh f1..f4 j1..j4 X)")
    return tok


def _tile_number(state: ReviewState, text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= len(state.tiles):
        raise ReviewError(f"there is no tile {text} (tiles are numbered 1-{len(state.tiles)})")
    return int(text) - 1


def _group_number(state: ReviewState, text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= len(state.groups):
        raise ReviewError(f"there is no group {text} (groups are numbered 1-{len(state.groups)})")
    return int(text) - 1


def _set_kind(state: ReviewState, index: int, kind: str) -> ReviewState:
    tiles = list(state.tiles)
    old = tiles[index]
    tiles[index] = replace(old, kind=kind, confidence=1.0, alternatives=())
    return replace(state, tiles=tuple(tiles), corrected=state.corrected | {index})


def _without(groups, index: int):
    return tuple((k, tuple(i for i in idx if i != index)) for k, idx in groups)


_FIX = re.compile(r"^\s*(\d+)\s*=\s*(\S+)\s*$")


def apply_command(state: ReviewState, text: str) -> tuple[ReviewState, str]:
    """Apply one review command; raises ReviewError with a message for a bad command."""
    line = text.strip()
    if not line or line.lower() in ("done", "q", "quit", "exit", "ok"):
        return replace(state, done=True), "done"
    words = line.split()
    head = words[0].lower()
    if head in ("help", "?", "h"):
        return state, HELP
    if head == "undo":
        if state.previous is None:
            raise ReviewError("nothing to undo")
        return state.previous, "undone"
    new, message = _apply(state, line, words, head)
    return replace(_normalise(new), previous=state), message


def _apply(state: ReviewState, line: str, words: list[str], head: str) -> tuple[ReviewState, str]:
    if "=" in line and head not in ("hand",):
        new = state
        changed = []
        for item in re.split(r"[,\s]+(?=\d+\s*=)", line):
            m = _FIX.match(item.strip().rstrip(","))
            if not m:
                raise ReviewError(f"cannot read {item.strip()!r}: write a fix as 3=5p")
            i = _tile_number(state, m.group(1))
            kind = parse_kind(m.group(2))
            new = _set_kind(new, i, kind)
            changed.append(f"tile {i + 1} = {kind}")
        return new, ", ".join(changed)
    if head == "move":
        m = re.match(r"^move\s+(\d+)\s+(?:to\s+)?(\S+)$", line, re.I)
        if not m:
            raise ReviewError("write: move 7 to 2 (or: move 7 to new / concealed / bonus)")
        i = _tile_number(state, m.group(1))
        target = m.group(2).lower()
        groups = list(_without(state.groups, i))
        if target.isdigit():
            gi = _group_number(state, target)
            groups[gi] = (groups[gi][0], tuple(sorted(groups[gi][1] + (i,))))
            label = f"group {gi + 1}"
        elif target in ("new", "exposed", "open"):
            groups.append((EXPOSED, (i,)))
            label = "a new exposed set"
        elif target in ("concealed", "bonus"):
            groups.append((CONCEALED if target == "concealed" else BONUS, (i,)))
            label = f"the {target} tiles"
        else:
            raise ReviewError(f"move to {target!r}? use a group number, new, concealed or bonus")
        return replace(state, groups=tuple(groups)), f"tile {i + 1} moved to {label}"
    if head == "group":
        if len(words) != 3 or words[2].lower() not in _KIND_WORDS:
            raise ReviewError("write: group 2 exposed (or concealed / kong / bonus)")
        gi = _group_number(state, words[1])
        kind = _KIND_WORDS[words[2].lower()]
        groups = list(state.groups)
        groups[gi] = (kind, groups[gi][1])
        return replace(state, groups=tuple(groups)), f"group {gi + 1} is now {kind.replace('_', ' ')}"
    if head in ("del", "delete", "rm"):
        if len(words) != 2:
            raise ReviewError("write: del 7")
        i = _tile_number(state, words[1])
        tiles = state.tiles[:i] + state.tiles[i + 1:]
        shift = lambda j: j - 1 if j > i else j          # noqa: E731
        groups = tuple((k, tuple(shift(j) for j in idx if j != i)) for k, idx in state.groups)
        corrected = frozenset(shift(j) for j in state.corrected if j != i)
        return replace(state, tiles=tiles, groups=groups, corrected=corrected), f"tile {i + 1} removed"
    if head == "add":
        m = re.match(r"^add\s+(\S+)(?:\s+to\s+(\S+))?$", line, re.I)
        if not m:
            raise ReviewError("write: add 5p (or: add 5p to 2)")
        kind = parse_kind(m.group(1))
        tile = TileRead(kind, (0.0, 0.0, 0.0, 0.0), 1.0)
        i = len(state.tiles)
        groups = list(state.groups)
        target = (m.group(2) or "concealed").lower()
        if target.isdigit():
            gi = _group_number(state, target)
            groups[gi] = (groups[gi][0], groups[gi][1] + (i,))
        elif target in ("new", "exposed"):
            groups.append((EXPOSED, (i,)))
        elif target in ("concealed", "bonus"):
            groups.append((CONCEALED if target == "concealed" else BONUS, (i,)))
        else:
            raise ReviewError(f"add to {target!r}? use a group number, new, concealed or bonus")
        if kind.startswith(("f", "j")) and target == "concealed":
            groups[-1] = (BONUS, (i,))
        return (replace(state, tiles=state.tiles + (tile,), groups=tuple(groups),
                        corrected=state.corrected | {i}), f"tile {i + 1} ({kind}) added")
    ctx = state.context
    try:
        if head in ("win", "winning", "w") and len(words) == 2:
            return replace(state, context=ctx.with_(winning_tile=parse_tile(words[1], "winning tile"))), \
                f"winning tile {words[1]}"
        if head in ("self", "self-drawn", "self_drawn", "tsumo"):
            return replace(state, context=ctx.with_(win_type="self_drawn")), "won self-drawn"
        if head in ("discard", "ron"):
            return replace(state, context=ctx.with_(win_type="discard")), "won on a discard"
        if head in ("robbed", "robbed_kong", "robbed-kong"):
            return replace(state, context=ctx.with_(win_type="robbed_kong")), "won by robbing a kong"
        if head == "seat" and len(words) == 2:
            return replace(state, context=ctx.with_(seat=parse_wind(words[1], "seat"))), f"seat {words[1].upper()}"
        if head in ("wind", "prevailing") and len(words) == 2:
            return replace(state, context=ctx.with_(wind=parse_wind(words[1], "prevailing wind"))), \
                f"prevailing wind {words[1].upper()}"
        if head == "ruleset" and len(words) == 2:
            return replace(state, context=ctx.with_(ruleset=parse_ruleset(words[1]))), f"ruleset {words[1]}"
        if head == "special" and len(words) >= 2:
            flags = set(ctx.special)
            for f in parse_specials(words[1:]):
                flags ^= {f}                                  # toggle
            return replace(state, context=ctx.with_(special=tuple(sorted(flags)))), \
                "special: " + (", ".join(sorted(flags)) or "none")
        if head == "hand":
            notation = line[4:].strip()
            if not notation:
                return replace(state, hand=None), "hand from the photo's grouping again"
            parse_hand(notation)                              # checked now, by the engine's parser
            return replace(state, hand=notation), f"hand set to {notation}"
    except (ContextError, NotationError) as exc:
        raise ReviewError(str(exc)) from None
    raise ReviewError(f"unknown command {line!r} (type help)")


def apply_fixes(layout: Layout, fixes: str) -> Layout:
    """``--fix "3=5p,7=G"``: the same grouping (and its reasons) with the named tiles corrected."""
    from ..vision.layout import with_kind
    for item in re.split(r"[,;\s]+(?=\d+\s*=)", fixes.strip()):
        if not item.strip():
            continue
        m = _FIX.match(item.strip().rstrip(",;"))
        if not m:
            raise ContextError(f"--fix: cannot read {item.strip()!r}: write fixes as 3=5p,7=G")
        n = int(m.group(1))
        if not 1 <= n <= len(layout.tiles):
            raise ContextError(f"--fix: there is no tile {n} (tiles are numbered 1-{len(layout.tiles)})")
        try:
            kind = parse_kind(m.group(2))
        except ReviewError as exc:
            raise ContextError(f"--fix: {exc}") from None
        layout = with_kind(layout, n - 1, kind)
    return layout


def review_hand(state: ReviewState) -> str | None:
    """The notation override to score, if any."""
    return state.hand
