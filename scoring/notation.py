"""Tile notation (spec §1): parse ``[EEE] RRR 234m 88s 45s +6s / f1`` into a :class:`Hand`
and write a hand back.

Grammar (whitespace is ignored everywhere)::

    hand   := item* ["+" tile] ["/" bonus*]
    item   := "[" tiles "]" | "{" tiles "}" | "(" tiles ")" | tile
    tile   := digits suit | E | S | W | N | R | G | Wh | C | F | P | f1..f4 | j1..j4 | X

The parser is case-sensitive (suit letters lowercase after digits, honours uppercase), so a
stray ``55P`` is an error, never a misreading. Aliases ``C F P`` become ``R G Wh``.
Flowers and seasons written among the loose tiles are taken as bonus tiles (a photo cannot
say where they lie); inside a group they are kept so that validation can reject the group.
Group tiles are stored in canonical order; loose tiles keep their written order (the
score breakdown lists sets in the order the player wrote them).

Every error is a :class:`NotationError` naming the offending token and its position."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import MjscoreError
from .model import BRACKETS, CONCEALED_KONG, EXPOSED, FIXED, Group, Hand
from .tiles import ALIASES, BACK, BONUS, DIGITS, SUITS, compact, sort_key

_OPEN = {"[": EXPOSED, "{": CONCEALED_KONG, "(": FIXED}
_CLOSE = {EXPOSED: "]", CONCEALED_KONG: "}", FIXED: ")"}
_HONOUR_LETTERS = {"E", "S", "W", "N", "R", "G", "C", "F", "P"}


class NotationError(MjscoreError, ValueError):
    """Unparsable notation. ``token`` and ``position`` (0-based, in ``text``) name the culprit;
    ``caret()`` renders the notation with a caret line under it. ``code`` is the §3 code."""

    code = "syntax"

    def __init__(self, message: str, text: str, position: int, token: str, where: str = ""):
        self.message = message
        self.text = text
        self.position = position
        self.token = token
        self.where = where
        super().__init__(f"{where + ': ' if where else ''}{message} "
                         f"(token {token!r} at position {position + 1})")

    def caret(self) -> str:
        """The text on one line (tabs and newlines shown as spaces) and ``^`` under the token."""
        width = max(1, len(self.token))
        line = "".join(" " if c.isspace() else c for c in self.text)
        return f"{line}\n{' ' * self.position}{'^' * width}"


@dataclass(frozen=True)
class _Tok:
    token: str
    pos: int
    raw: str


_FOREIGN = "tile numbers are the plain digits 1 to 9"


def _foreign_digit(c: str) -> bool:
    """A character that looks like a number but is not an ASCII digit (², ١, ①, 𝟙, ５)."""
    return c not in DIGITS and (c.isdigit() or c.isnumeric())


def _scan(text: str, where: str = "") -> list[_Tok]:
    """Split text into tile tokens and the punctuation ``[ ] { } ( ) + /``."""
    out: list[_Tok] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
        elif c in "[]{}()+/":
            out.append(_Tok(c, i, c))
            i += 1
        elif c in DIGITS:
            digits = []                      # positions of the digits (whitespace is ignored)
            j = i
            while j < n and (text[j] in DIGITS or text[j].isspace()):
                if text[j] in DIGITS:
                    digits.append(j)
                j += 1
            if j < n and _foreign_digit(text[j]):
                raise NotationError(_FOREIGN, text, j, text[j], where)
            if j < n and text[j] in SUITS:
                for k in digits:
                    if text[k] == "0":
                        raise NotationError("tile numbers run from 1 to 9", text, k, "0", where)
                    raw = text[k:j + 1] if k + 1 == j else text[k]     # "4m" alone, "4" inside "45m"
                    out.append(_Tok(text[k] + text[j], k, raw))
                i = j + 1
            else:
                end = digits[-1] + 1
                bad = text[i:end]
                if j < n and text[j] in "MPS" and j == end:
                    bad = text[i:j + 1]
                    msg = f"suit letters are lowercase: write {text[i:j]}{text[j].lower()}"
                else:
                    msg = "digits must be followed by a suit letter m, p or s"
                raise NotationError(msg, text, i, bad, where)
        elif c == "W" and i + 1 < n and text[i + 1] == "h":
            out.append(_Tok("Wh", i, "Wh"))
            i += 2
        elif c in _HONOUR_LETTERS:
            out.append(_Tok(ALIASES.get(c, c), i, c))
            i += 1
        elif c == BACK:
            out.append(_Tok(BACK, i, c))
            i += 1
        elif c in "fj" and i + 1 < n and text[i + 1] in "1234":
            out.append(_Tok(text[i:i + 2], i, text[i:i + 2]))
            i += 2
        else:
            j = i + 1
            while j < n and text[j].isalnum():
                j += 1
            bad = text[i:j]
            if _foreign_digit(c):
                msg, bad = _FOREIGN, c
            elif c in "fj":
                msg = "flowers are f1..f4 and seasons j1..j4"
            elif c.isalpha() and c.islower():
                msg = "honours are uppercase (E S W N R G Wh); suit letters follow digits"
            else:
                msg = "unknown tile"
            raise NotationError(msg, text, i, bad, where)
    return out


def canonical_group(kind: str, tokens: list[str]) -> tuple[str, ...]:
    """Canonical order inside a group; a concealed kong with backs reads ``{X55pX}``."""
    faces = sorted((t for t in tokens if t != BACK), key=sort_key)
    backs = [t for t in tokens if t == BACK]
    if len(backs) == 2 and len(faces) == 2:
        return (BACK, *faces, BACK)
    return tuple(faces + backs)


def parse_hand(text: str, where: str = "") -> Hand:
    """Parse the full notation of one hand. Raises :class:`NotationError`."""
    if not isinstance(text, str):
        raise NotationError("a hand is written as text", str(text), 0, str(text), where)
    toks = _scan(text, where)
    groups: list[Group] = []
    loose: list[str] = []
    bonus: list[str] = []
    winning: str | None = None
    k = 0
    state = "tiles"         # tiles -> after_plus -> bonus
    while k < len(toks):
        t = toks[k]
        if t.token in _OPEN:
            if state != "tiles":
                raise NotationError("groups come before the +winning tile and the / bonus tiles",
                                    text, t.pos, t.raw, where)
            kind = _OPEN[t.token]
            j = k + 1
            inner: list[str] = []
            while j < len(toks) and toks[j].token != _CLOSE[kind]:
                u = toks[j]
                if u.token in "[]{}()+/":
                    raise NotationError(f"group opened with {t.token!r} is not closed before {u.raw!r}",
                                        text, t.pos, t.raw, where)
                inner.append(u.token)
                j += 1
            if j >= len(toks):
                raise NotationError(f"group opened with {t.token!r} is never closed", text, t.pos, t.raw, where)
            if not inner:
                raise NotationError("empty group", text, t.pos, text[t.pos:toks[j].pos + 1], where)
            groups.append(Group(kind, canonical_group(kind, inner)))
            k = j + 1
        elif t.token in "]})":
            raise NotationError(f"{t.raw!r} closes no group", text, t.pos, t.raw, where)
        elif t.token == "+":
            if state != "tiles":
                raise NotationError("only one +winning tile, written before the / bonus tiles",
                                    text, t.pos, t.raw, where)
            if k + 1 >= len(toks) or toks[k + 1].token in "[]{}()+/":
                raise NotationError("+ must be followed by the winning tile", text, t.pos, t.raw, where)
            w = toks[k + 1]
            if w.token in BONUS:
                raise NotationError("a flower or season cannot be the winning tile", text, w.pos, w.raw, where)
            winning = w.token
            state = "after_plus"
            k += 2
        elif t.token == "/":
            if state == "bonus":
                raise NotationError("only one / before the bonus tiles", text, t.pos, t.raw, where)
            state = "bonus"
            k += 1
        elif state == "bonus":
            if t.token not in BONUS:
                raise NotationError("only flowers (f1..f4) and seasons (j1..j4) go after /",
                                    text, t.pos, t.raw, where)
            bonus.append(t.token)
            k += 1
        elif state == "after_plus":
            raise NotationError("the winning tile is written last (only / bonus tiles may follow)",
                                text, t.pos, t.raw, where)
        else:
            (bonus if t.token in BONUS else loose).append(t.token)
            k += 1
    return Hand(tuple(groups), tuple(loose), winning, tuple(bonus))


def parse_group(text: str, where: str = "") -> Group:
    """One bracketed group, as in the ``melds`` list of the JSON form."""
    hand = parse_hand(text, where)
    if len(hand.groups) != 1 or hand.concealed or hand.winning_tile or hand.bonus:
        raise NotationError("a meld is one group in brackets, e.g. [555p] or {X55pX}",
                            text, 0, text.strip() or text, where)
    return hand.groups[0]


def parse_tiles(text: str, where: str = "") -> list[str]:
    """Loose tiles only (the ``concealed`` field of the JSON form)."""
    toks = _scan(text, where)
    for t in toks:
        if t.token in "[]{}()+/":
            raise NotationError("only loose tiles here (groups go in melds)", text, t.pos, t.raw, where)
    return [t.token for t in toks]


def parse_tile(text: str, where: str = "") -> str:
    """Exactly one tile (the ``winning_tile`` field)."""
    tiles = parse_tiles(text, where)
    if len(tiles) != 1:
        raise NotationError("exactly one tile expected", text, 0, text or "''", where)
    return tiles[0]


def format_group(group: Group) -> str:
    o, c = BRACKETS[group.kind]
    return f"{o}{compact(list(group.tokens))}{c}"


def _blocks(tokens: tuple[str, ...]) -> str:
    """Loose tiles in written order; a new block (space) where the suit changes, the number
    run breaks (``88s 45s``) or the honour changes (``RRR GG``)."""
    blocks: list[list[str]] = []
    for t in tokens:
        if blocks:
            prev = blocks[-1][-1]
            suited = len(t) == 2 and t[0] in DIGITS
            if suited and len(prev) == 2 and prev[0] in DIGITS and prev[1] == t[1] and \
                    int(t[0]) in (int(prev[0]), int(prev[0]) + 1):
                blocks[-1].append(t)
                continue
            if not suited and t == prev:
                blocks[-1].append(t)
                continue
        blocks.append([t])
    return " ".join(compact(b) for b in blocks)


def format_hand(hand: Hand) -> str:
    """The notation of a hand; ``parse_hand(format_hand(h)) == h``."""
    parts = [format_group(g) for g in hand.groups]
    if hand.concealed:
        parts.append(_blocks(hand.concealed))
    if hand.winning_tile:
        parts.append("+" + hand.winning_tile)
    if hand.bonus:
        parts.append("/ " + " ".join(hand.bonus))
    return " ".join(parts)
