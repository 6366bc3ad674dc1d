"""Blocks into sets: a block split into pungs/chows/kongs at its widest inner gaps, a
claimed set (holding a sideways tile) cut off a block it lies too close to, and declared
concealed kongs cut out of a block they touch."""

from __future__ import annotations

from .geometry import Block
from .notation import BACK, set_type


def cut_claimed_set(block: Block) -> list[Block]:
    """A sideways tile marks a claimed set even when the set lies closer to the concealed
    tiles than a full gap: cut the set (3 or 4 tiles at either end of the block, holding the
    sideways tile, forming a set) off at the widest possible cut, if that shows some space."""
    n = len(block.tiles)
    if not block.has_sideways or n <= 4 or partition_sets(block) is not None:
        return [block]
    best = None
    for size in (3, 4):
        for start, end in ((0, size), (n - size, n)):
            chunk = block.tiles[start:end]
            if any(t.sideways for t in chunk) and set_type([t.read.kind for t in chunk]) in ("pung", "kong", "chow"):
                cut = end if start == 0 else start               # tiles before ``cut`` | from ``cut``
                gap = block.inner[cut - 1]
                if gap < 0.2:            # no visible space at all: a turned face angle alone is too weak
                    continue
                if best is None or gap > best[0]:
                    best = (gap, cut)
    if best is None:
        return [block]
    gap, cut = best
    left = Block(block.tiles[:cut], block.row, block.gap_before, gap, block.inner[:cut - 1])
    right = Block(block.tiles[cut:], block.row, gap, block.gap_after, block.inner[cut:])
    return [left, right]


def partition_sets(block: Block) -> tuple[list[tuple[int, int]], float] | None:
    """Split a block into consecutive chunks of 3/4 tiles that are sets; prefer splits at the
    widest inner gaps. Returns ([(start, end)], score) or None when no split works."""
    toks = block.tokens
    n = len(toks)
    best: dict[int, tuple[float, list[tuple[int, int]]]] = {0: (0.0, [])}
    for i in range(n):
        if i not in best:
            continue
        for size in (3, 4):
            j = i + size
            if j > n or set_type(toks[i:j]) is None:
                continue
            bonus = block.inner[j - 1] if j < n else 0.0
            cand = (best[i][0] + 1.0 + bonus, best[i][1] + [(i, j)])
            if j not in best or cand[0] > best[j][0]:
                best[j] = cand
    if n not in best:
        return None
    return best[n][1], best[n][0]


def _declared_kong(tokens) -> bool:
    """The two ways a declared concealed kong lies: outer two face down (``X a a X``) or the
    middle two (``a X X a``), ``a`` one kind."""
    a, b, c, d = tokens
    return (a == d == BACK and b == c != BACK) or (b == c == BACK and a == d != BACK)


def cut_concealed_kongs(block: Block) -> list[Block]:
    """Declared concealed kongs laid touching other tiles leave no gap to split at, but a
    face-down tile is never one of the concealed tiles: in a block with face-down tiles that
    forms no sets as it is, every ``X a a X`` / ``a X X a`` run (from the reading start, not
    overlapping) is cut out as a block of its own; what lies between stays as blocks. A
    face-down tile left over (a kong with a back missed) stays where it was, for the role
    search and the proposals (a kong read as three tiles gets its fourth proposed)."""
    n = len(block.tiles)
    if not block.has_back or n <= 4 or partition_sets(block) is not None:
        return [block]
    toks = block.tokens
    cuts: list[int] = []
    i = 0
    while i + 4 <= n:
        if _declared_kong(toks[i:i + 4]):
            cuts += [i, i + 4]
            i += 4
        else:
            i += 1
    if not cuts:
        return [block]
    edges = sorted({0, n, *cuts})
    pieces = []
    for a, b in zip(edges, edges[1:]):
        before = block.gap_before if a == 0 else block.inner[a - 1]
        after = block.gap_after if b == n else block.inner[b - 1]
        pieces.append(Block(block.tiles[a:b], block.row, before, after, block.inner[a:b - 1]))
    return pieces
