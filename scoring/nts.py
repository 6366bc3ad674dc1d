"""NTS / nts-app scoring of one hand (spec §4-§10, §13-§15).

Winner: every interpretation (irregular limit patterns, and every regular arrangement ×
every group the winning tile can sit in, plus the pe-ling reading) is scored; the best
*legal* one wins (highest final, then limit hand, then higher uncapped total). Every line
and limit hand is a row of :mod:`scoring.rules`, asked here (lines) or in :mod:`scoring.limits`.
Non-winner: pungs and pairs as held (§10), or half of an irregular limit hand he is one
tile away from (§8.3); a dead hand scores 0 (§13)."""

from __future__ import annotations

from dataclasses import dataclass

from . import decompose as dc
from . import limits, rules
from .config import SPECIALS, WIN_TYPES, WIND_NAMES, resolve
from .decompose import PAIR, PUNG, Set
from .model import EXPOSED, Context, Hand, HandScore, Line
from .patterns import seven_pairs
from .rules import Rule, View, applies
from .tiles import INDEX, ONE_P, ONE_S, TILES, compact
from .validate import InvalidHand, check_tiles, check_winner, kongs, tile_indices, tile_total


def score_hand(hand: Hand, ctx: Context, ruleset: str = "nts", config: dict | None = None) -> HandScore:
    """Score one player's hand. Invalid input gives ``HandScore(valid=False, reason=<§3 code>)``."""
    cfg = resolve(ruleset, config)
    try:
        _check_context(ctx)
        if ctx.is_winner:
            return _score_winner(hand, ctx, ruleset, cfg)
        return _score_non_winner(hand, ctx, ruleset, cfg)
    except InvalidHand as exc:
        return HandScore(valid=False, reason=exc.code, message=exc.message)


def _check_context(ctx: Context) -> None:
    if ctx.seat_wind not in WIND_NAMES or ctx.prevailing_wind not in WIND_NAMES:
        raise InvalidHand("syntax", f"winds are E, S, W or N (seat {ctx.seat_wind!r}, "
                                    f"prevailing {ctx.prevailing_wind!r})")
    if ctx.win_type is not None and ctx.win_type not in WIN_TYPES:
        raise InvalidHand("syntax", f"win_type is one of {', '.join(WIN_TYPES)} (got {ctx.win_type!r})")
    unknown = set(ctx.special) - set(SPECIALS)
    if unknown:
        raise InvalidHand("syntax", f"unknown special moment(s): {', '.join(sorted(unknown))}")


# -- shared: lines of one arrangement ----------------------------------------------------


def _lines(v: View) -> tuple[list[Line], list[Line]]:
    """Base-point and doubling lines of one arrangement, in breakdown order, with the
    non-cumulative families reduced to their highest member. The tables are read from
    :mod:`scoring.rules` at every call (a changed row is a changed rule)."""
    group_base = [r for r in rules.GROUP_BASE if applies(r, v)]
    group_dbl = [r for r in rules.GROUP_DOUBLINGS if applies(r, v)]
    base: list[Line] = []
    dbl: list[Line] = []
    for s in v.sets:
        name = TILES[s.tile]
        base += [Line(f"{r.code}:{name}", r.value) for r in group_base if r.test(s, v)]
    for r in rules.HAND_BASE:
        if applies(r, v):
            base += [Line(f"{r.code}:{x}" if x else r.code, r.value) for x in r.test(v)]
    for s in v.sets:
        name = TILES[s.tile]
        dbl += [Line(f"{r.code}:{name}", r.value) for r in group_dbl if r.test(s, v)]
    best: dict[str, Line] = {}
    fam_lines: list[tuple[str | None, Line]] = []
    for r in rules.HAND_DOUBLINGS:
        if not applies(r, v):
            continue
        for x in r.test(v):
            ln = Line(f"{r.code}:{x}" if x else r.code, r.value)
            fam_lines.append((r.family, ln))
            if r.family and (r.family not in best or ln.value > best[r.family].value):
                best[r.family] = ln
    dbl += [ln for fam, ln in fam_lines if fam is None or best[fam] is ln]
    return base, dbl


def _counted(base: list[Line], dbl: list[Line], cfg: dict) -> tuple[int, int, int, int]:
    b = sum(ln.value for ln in base)
    d = sum(ln.value for ln in dbl)
    total = b * 2 ** d
    return b, d, total, min(total, cfg["limit"])


def _limit_score(row: Rule, decomposition: list[str], cfg: dict, wait: list[str]) -> HandScore:
    return HandScore(valid=True, decomposition=decomposition, total_before_limit=row.value,
                     final=min(row.value, cfg["limit"]), limit_hand=row.code, wait=wait)


# -- winner ----------------------------------------------------------------------------


@dataclass
class _Candidate:
    score: HandScore
    legal: bool

    @property
    def key(self) -> tuple:
        s = self.score
        return (s.final, s.limit_hand is not None, s.total_before_limit)


def _meld_set(g) -> Set:
    return Set(g.shape, g.tile, g.kind, open=g.kind == EXPOSED, tokens=g.tokens)


def _ordered(search: list[tuple[str, int]], sequence: list[int]) -> list[tuple[str, int, bool]]:
    """Sets in the order the player wrote their tiles (earliest tile first), the pair last.
    Tile instances are handed out earliest first, so the winning tile (last in ``sequence``)
    lands in the last of several identical sets; the flag marks the set that holds it."""
    used = [False] * len(sequence)
    last = len(sequence) - 1
    keyed = []
    for n, (shape, tile) in enumerate(search):
        first, holds = len(sequence), False
        for t in Set(shape, tile, "hand").tiles():
            for k, x in enumerate(sequence):
                if x == t and not used[k]:
                    used[k] = True
                    first = min(first, k)
                    holds = holds or k == last
                    break
        keyed.append((shape == PAIR, first, n, (shape, tile, holds)))
    return [item[-1] for item in sorted(keyed)]


def _winning_choices(ordered: list[tuple[str, int, bool]], wt: int, pe_ling: bool) -> list[int]:
    """One index per distinct set that can hold the winning tile; among identical sets the
    one that holds the winning tile instance."""
    chosen: dict[tuple[str, int], int] = {}
    for j, (shape, tile, holds) in enumerate(ordered):
        if wt not in Set(shape, tile, "hand").tiles():
            continue
        if pe_ling and not (shape == PAIR and tile == ONE_S):
            continue
        if (shape, tile) not in chosen or holds:
            chosen[(shape, tile)] = j
    return sorted(chosen.values())


def _score_winner(hand: Hand, ctx: Context, ruleset: str, cfg: dict) -> HandScore:
    check_winner(hand, ctx, ruleset)
    melds = [_meld_set(g) for g in hand.groups]
    sets_needed = 4 - sum(1 for s in melds if s.shape != PAIR)
    pair_needed = not any(s.shape == PAIR for s in melds)
    if sets_needed < 0 or sum(1 for s in melds if s.shape == PAIR) > 1:
        raise InvalidHand("no_valid_hand", "more groups than four sets and one pair")
    loose = [INDEX[t] for t in hand.concealed]
    w = INDEX[hand.winning_tile]
    held = dc.counts_of(tile_indices(hand))      # the 13 tiles before winning, groups included
    held[w] -= 1
    all_meld_tiles = [t for s in melds for t in s.tiles()]
    irregular_ok = not hand.groups
    irregular = (lambda c: limits.irregular_limit(c, ruleset, cfg)) if irregular_ok else None
    wait_idx = dc.wait_set(dc.counts_of(loose), sets_needed, pair_needed, held, irregular)
    wait = [TILES[i] for i in wait_idx]
    any_exposed = any(g.kind == EXPOSED for g in hand.groups)

    variants = [(loose + [w], w, False)]
    if w == ONE_P and ONE_S in loose:
        variants.append((loose + [ONE_S], ONE_S, True))

    cands: list[_Candidate] = []
    complete = False
    for seq, wt, pe_ling in variants:
        c14 = dc.counts_of(seq)
        counts = dc.counts_of(seq + all_meld_tiles)
        for arr in dc.arrangements(c14, sets_needed, pair_needed):
            complete = True
            ordered = _ordered(arr, seq)
            choices = _winning_choices(ordered, wt, pe_ling)
            for j in choices:
                sets = list(melds)
                for k, (shape, tile, _holds) in enumerate(ordered):
                    win = k == j
                    opened = win and shape == PUNG and ctx.win_type in ("discard", "robbed_kong")
                    toks = (TILES[ONE_S], TILES[ONE_P]) if (win and pe_ling) else ()
                    sets.append(Set(shape, tile, "hand", open=opened, winning=win, tokens=toks))
                sets = [s for s in sets if s.shape != PAIR] + [s for s in sets if s.shape == PAIR]
                v = View(sets, ctx, ruleset, cfg, counts, hand.bonus, hand.winning_tile,
                         only_possible=len(wait_idx) == 1, pe_ling=pe_ling, any_exposed=any_exposed)
                cands += _arrangement_candidates(v, cfg, wait)
        row = irregular(c14) if irregular else None
        if row and (not pe_ling or c14[ONE_S] == 2):
            complete = True
            shown = _irregular_display(seq, wt, seven_pairs(c14, cfg["twins_allow_duplicate_pairs"]))
            cands.append(_Candidate(_limit_score(row, shown, cfg, wait), True))

    if complete:
        shown = cands[0].score.decomposition if cands else []
        cands += [_Candidate(_limit_score(row, shown, cfg, wait), True)
                  for row in limits.special_limits(ctx, ruleset)]

    if not cands:
        raise InvalidHand("no_valid_hand", "the tiles form neither four sets and a pair nor an "
                                           "irregular limit hand" + ("" if irregular_ok else
                                                                      " (irregular hands must be fully concealed)"))
    best = _best([c for c in cands if c.legal])
    if best is None:
        would = _best(cands)
        s = would.score
        s.valid, s.reason = False, "min_doublings"
        s.message = (f"only {s.doublings_total} doubling(s); a mahjong needs at least "
                     f"{cfg['min_doublings']} (a false mahjong makes a dead hand)")
        return s
    return best.score


def _best(cands: list[_Candidate]) -> _Candidate | None:
    best = None
    for c in cands:
        if best is None or c.key > best.key:
            best = c
    return best


def _arrangement_candidates(v: View, cfg: dict, wait: list[str]) -> list[_Candidate]:
    base, dbl = _lines(v)
    b, d, total, final = _counted(base, dbl, cfg)
    shown = [s.display() for s in v.sets]
    out = [_Candidate(HandScore(valid=True, decomposition=shown, base_points=base, doublings=dbl,
                                base_total=b, doublings_total=d, total_before_limit=total, final=final,
                                wait=wait), d >= cfg["min_doublings"])]
    out += [_Candidate(_limit_score(r, shown, cfg, wait), True) for r in limits.regular_limits(v)]
    return out


def _irregular_display(seq: list[int], wt: int, as_pairs: bool) -> list[str]:
    """Seven pairs (twins) as pairs, other irregular hands as one concealed block; ``*`` = winning."""
    tiles = sorted(seq)
    if as_pairs:
        pairs = [tiles[k] for k in range(0, 14, 2)]
        out, starred = [], False
        for t in pairs:
            star = "*" if t == wt and not starred else ""
            starred = starred or bool(star)
            out.append(f"({_pair_text(t)}){star}")
        return out
    return [f"({compact([TILES[t] for t in tiles])})*"]


def _pair_text(t: int) -> str:
    return compact([TILES[t], TILES[t]])


# -- non-winner --------------------------------------------------------------------------


def _score_non_winner(hand: Hand, ctx: Context, ruleset: str, cfg: dict) -> HandScore:
    check_tiles(hand, ruleset)
    if hand.winning_tile is not None:
        raise InvalidHand("syntax", "only the winner's hand has a +winning tile")
    if ctx.dead:
        return HandScore(valid=True, dead=True, message="dead hand: scores 0, still pays")
    want = 13 + kongs(hand)
    have = tile_total(hand)
    if have != want:
        return HandScore(valid=True, dead=True,
                         message=f"{have} tiles where {want} belong: a dead hand (scores 0, still pays)")
    loose = [INDEX[t] for t in hand.concealed]
    if not hand.groups and len(loose) == 13:
        row = limits.irregular_wait(dc.counts_of(loose), ruleset, cfg)
        if row:
            half = row.value // 2
            return HandScore(valid=True, total_before_limit=half, final=min(half, cfg["limit"]),
                             half_limit=row.code, decomposition=[_concealed_block(loose)])
    sets = [_meld_set(g) for g in hand.groups]
    c = dc.counts_of(loose)
    firsts = sorted(set(loose), key=loose.index)
    sets += [Set(PUNG, t, "hand") for t in firsts if c[t] >= 3]
    sets += [Set(PAIR, t, "hand") for t in firsts if c[t] == 2]
    v = View(sets, ctx, ruleset, cfg, dc.counts_of(tile_indices(hand)), hand.bonus)
    base, dbl = _lines(v)
    b, d, total, final = _counted(base, dbl, cfg)
    shown = [s.display() for s in sets]
    rest = [t for t in loose if c[t] < 2]
    if rest:
        shown.append(_concealed_block(rest))
    return HandScore(valid=True, decomposition=shown, base_points=base, doublings=dbl, base_total=b,
                     doublings_total=d, total_before_limit=total, final=final)


def _concealed_block(tiles: list[int]) -> str:
    return compact([TILES[t] for t in sorted(tiles)])

