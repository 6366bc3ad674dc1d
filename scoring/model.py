"""The data that flows through the engine: a hand as written, the game context of one
player, and the typed score of a hand. Pure dataclasses, no behaviour beyond small
derived views."""

from __future__ import annotations

from dataclasses import dataclass, field

from .tiles import BACK, INDEX

EXPOSED = "exposed"               # [..]  open group on the table
CONCEALED_KONG = "concealed_kong"  # {..}  declared concealed kong
FIXED = "fixed"                    # (..)  concealed group the user fixes by hand

BRACKETS = {EXPOSED: "[]", CONCEALED_KONG: "{}", FIXED: "()"}


@dataclass(frozen=True)
class Group:
    """A group as written: its bracket kind and its tokens (aliases resolved, canonical order).

    ``shape`` is what the tiles form (``pung``, ``kong``, ``chow``, ``pair``) or ``None`` when
    they form nothing; validation (spec §3) rejects the latter."""

    kind: str
    tokens: tuple[str, ...]

    @property
    def faces(self) -> tuple[str, ...]:
        return tuple(t for t in self.tokens if t != BACK)

    @property
    def tile(self) -> int | None:
        """Index of the lowest playing tile in the group (the kong kind for ``{X55pX}``)."""
        idx = [INDEX[t] for t in self.faces if t in INDEX]
        return min(idx) if idx else None

    @property
    def shape(self) -> str | None:
        faces = self.faces
        if not faces or any(t not in INDEX for t in faces):
            return None
        n = len(self.tokens)
        idx = sorted(INDEX[t] for t in faces)
        same = len(set(idx)) == 1
        if n == 4 and same:
            return "kong"
        if len(faces) != n:
            return None
        if n == 3 and same:
            return "pung"
        if n == 2 and same and self.kind == FIXED:
            return "pair"
        if n == 3 and idx[0] < 27 and idx[0] % 9 <= 6 and idx == [idx[0], idx[0] + 1, idx[0] + 2]:
            return "chow"
        return None

    @property
    def size(self) -> int:
        return len(self.tokens)


@dataclass(frozen=True)
class Hand:
    """One player's tiles: groups on the table (and fixed concealed groups), the loose
    concealed tiles in written order, the winning tile (winner only) and bonus tiles."""

    groups: tuple[Group, ...] = ()
    concealed: tuple[str, ...] = ()
    winning_tile: str | None = None
    bonus: tuple[str, ...] = ()


@dataclass(frozen=True)
class Context:
    """What the tiles cannot tell: winds, how the hand was won, special moments (§2)."""

    seat_wind: str
    prevailing_wind: str
    win_type: str | None = None                 # None for a non-winner
    special: frozenset[str] = frozenset()
    dead: bool = False

    @property
    def is_winner(self) -> bool:
        return self.win_type is not None


@dataclass(frozen=True)
class Line:
    """One scoring line: a stable code (``pung_th_open:E``) and its value (points or doublings)."""

    code: str
    value: int

    def to_json(self) -> list:
        return [self.code, self.value]


@dataclass
class HandScore:
    """The score of one hand; ``to_json`` gives the ``expected`` fields of cases.json (§18)."""

    valid: bool
    reason: str | None = None
    message: str | None = None
    decomposition: list[str] = field(default_factory=list)
    base_points: list[Line] = field(default_factory=list)
    doublings: list[Line] = field(default_factory=list)
    base_total: int = 0
    doublings_total: int = 0
    total_before_limit: int = 0
    final: int = 0
    limit_hand: str | None = None
    half_limit: str | None = None
    dead: bool = False
    wait: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        out: dict = {"valid": self.valid}
        if not self.valid:
            out["reason"] = self.reason
            out["message"] = self.message
            if self.reason == "min_doublings":      # the would-be lines (§3)
                out.update(self._lines_json())
                out["decomposition"] = self.decomposition
            return out
        out["decomposition"] = self.decomposition
        out.update(self._lines_json())
        out.update(total_before_limit=self.total_before_limit, final=self.final,
                   limit_hand=self.limit_hand, half_limit=self.half_limit, dead=self.dead,
                   wait=self.wait)
        return out

    def _lines_json(self) -> dict:
        return {"base_points": [ln.to_json() for ln in self.base_points],
                "doublings": [ln.to_json() for ln in self.doublings],
                "base_total": self.base_total, "doublings_total": self.doublings_total}
