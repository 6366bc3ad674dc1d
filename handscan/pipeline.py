"""Photo -> tiles -> groups -> hand -> score, for one photo.

Each step is a function of the previous step's data, so the review (which changes tiles or
groups) and the batch (which runs many photos in worker processes) reuse the same steps:
:func:`read_photo` (recognizer), :func:`vision.layout.group_tiles`, :func:`evaluate`
(hand notation, engine score, flags, alternatives)."""

from __future__ import annotations

import importlib
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

from mjscore.handscan.context import ContextError, HandParts, ScanContext, build_request, split_notation
from mjscore.vision.layout import (CONCEALED, CONCEALED_KONG, EXPOSED, Layout, alternative_layouts, compact,
                           group_tiles, layout_from_groups, with_kind, without_tile)
from mjscore.vision.types import PhotoRead, TileRead

LOW_CONFIDENCE = 0.6
# A grouping decision (vision.layout Group.confidence, the margin of the chosen split over the
# runner-up) below this is shown as doubtful. On the 100 synthetic scenes no right hand had a
# group under 0.6, while a photo whose exposed sets were all merged into the concealed row did.
DOUBTFUL_GROUPING = 0.6
# engine reasons that a misread or misgrouped photo can cause: worth searching nearby readings
READING_ERRORS = {"too_many_copies", "duplicate_bonus_tile", "tile_count", "no_valid_hand", "invalid_meld",
                  "face_down_tile", "syntax", "error"}
HINTS = {
    "bonus_tiles_not_allowed": "flowers/seasons only score under --ruleset nts-app",
    "min_doublings": "a complete hand, but fewer than the 2 doublings a mahjong needs: a false mahjong",
    "special_condition": "the --special flags do not fit this seat or win type",
}
Recognizer = Callable[[str], PhotoRead]


# ----------------------------------------------------------------------------- recognition

def load_recognizer(spec: str | Recognizer | None = None) -> Recognizer:
    """``None`` = the shipped recognizer (``vision.recognize_file``); a ``"module:function"``
    string names another one (picklable, for worker processes)."""
    if callable(spec):
        return spec
    module_name, _, func = (spec or "mjscore.vision:recognize_file").partition(":")
    try:
        module = importlib.import_module(module_name)
        return getattr(module, func or "recognize_file")
    except (ImportError, AttributeError) as exc:
        raise RuntimeError(f"the tile recognizer {spec or 'vision.recognize_file'} is not available: {exc}")


def read_photo(path: str | Path, recognize: Recognizer | None = None) -> PhotoRead:
    """Run the recognizer; a photo that cannot be read comes back as a PhotoRead with
    ``error`` set (never an exception), so one bad photo never stops a run."""
    path = str(path)
    try:
        if Path(path).is_dir():
            raise FileNotFoundError(f"{path} is a folder, not a photo (mjscore batch reads a folder)")
        if not Path(path).is_file():
            raise FileNotFoundError(f"no such photo: {path}")
        read = (recognize or load_recognizer())(path)
    except FileNotFoundError as exc:
        return PhotoRead(path, 0, 0, error=str(exc).strip("'\""))
    except Exception as exc:                        # ImageError and anything the model raises
        if type(exc).__name__ == "ImageError":
            return PhotoRead(path, 0, 0, error=str(exc))
        return PhotoRead(path, 0, 0, error=f"cannot read {Path(path).name}: {type(exc).__name__}: {exc}")
    return read


def photo_read_from_json(obj: dict) -> PhotoRead:
    """Inverse of :meth:`PhotoRead.to_json` (saved recognizer output, ``scan --json`` lines)."""
    tiles = [TileRead(t["kind"], tuple(float(v) for v in t["box"]), float(t.get("confidence", 1.0)),
                      tuple((k, float(p)) for k, p in t.get("alternatives", ())), int(t.get("angle", 0)))
             for t in obj.get("tiles", ())]
    return PhotoRead(obj.get("image", ""), int(obj.get("width", 0)), int(obj.get("height", 0)), tiles,
                     dict(obj.get("timing_ms", {})), obj.get("error"))


# ----------------------------------------------------------------------------- scoring

def score_request(request: dict) -> dict:
    """The scoring engine (``scoring.score_request``); engine exceptions become an invalid
    answer with the message, so a scan never ends in a traceback."""
    try:
        from mjscore.scoring import score_request as engine
    except ImportError as exc:
        raise RuntimeError(f"the scoring engine is not available: {exc}")
    try:
        return engine(request)
    except Exception as exc:
        return {"valid": False, "reason": "error", "message": f"{type(exc).__name__}: {exc}"}


@dataclass
class Alternative:
    notation: str
    change: str                  # what differs from the read grouping
    final: int | None

    def to_json(self) -> dict:
        return {"notation": self.notation, "change": self.change, "final": self.final}


@dataclass
class ScanResult:
    photo: str
    context: ScanContext
    read: PhotoRead | None = None
    layout: Layout | None = None
    notation: str | None = None          # the hand, with +winning tile when known
    request: dict | None = None
    score: dict | None = None
    flags: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    low_confidence: list[int] = field(default_factory=list)     # tile numbers, 1-based
    alternatives: list[Alternative] = field(default_factory=list)
    hand_override: str | None = None
    error: str | None = None
    seconds: float = 0.0

    @property
    def valid(self) -> bool:
        return bool(self.score and self.score.get("valid"))

    @property
    def final(self) -> int | None:
        return self.score.get("final") if self.valid and self.score else None

    @property
    def tiles(self) -> list[TileRead]:
        return self.layout.tiles if self.layout else []

    def to_json(self) -> dict:
        out = {
            "photo": self.photo,
            "context": self.context.to_json(),
            "tiles": [dict(t.to_json(), number=i + 1) for i, t in enumerate(self.tiles)],
            "layout": self.layout.to_json() if self.layout else None,
            "hand": self.notation,
            "hand_override": self.hand_override,
            "score": self.score,
            "valid": self.valid,
            "final": self.final,
            "flags": list(self.flags),
            "warnings": list(self.warnings),
            "low_confidence_tiles": list(self.low_confidence),
            "alternatives": [a.to_json() for a in self.alternatives],
            "seconds": round(self.seconds, 3),
        }
        if self.read is not None:
            out["size"] = [self.read.width, self.read.height]
            out["timing_ms"] = {k: round(v, 1) for k, v in self.read.timing_ms.items()}
        if self.error:
            out["error"] = self.error
        return out


def low_confidence_tiles(tiles: Sequence[TileRead], threshold: float = LOW_CONFIDENCE) -> list[int]:
    return [i + 1 for i, t in enumerate(tiles) if t.confidence < threshold]


def layout_parts(layout: Layout, winning_tile: str | None) -> tuple[HandParts, list[str]]:
    """Engine parts of a layout. The photo shows the winning tile among the others: one copy
    leaves the concealed part. If the concealed part lacks it but an exposed set holds it,
    that set was laid open after the win (DECISION): it joins the concealed part, where the
    engine treats a set completed by a discard as open anyway."""
    notes: list[str] = []
    groups = list(layout.groups)
    concealed = [t for g in groups if g.kind == CONCEALED for t in g.tokens]
    if winning_tile and winning_tile not in concealed:
        holders = [g for g in groups if g.kind == EXPOSED and winning_tile in g.tokens and len(g.tiles) == 3]
        if holders:
            g = holders[-1]
            notes.append(f"the winning tile {winning_tile} lies only in the exposed set {g.notation}: "
                         f"read as the set it completed, laid open after the win")
            spec = [(x.kind if x is not g else CONCEALED, list(x.indices)) for x in groups]
            layout = layout_from_groups(layout.tiles, spec)
            groups = layout.groups
            concealed = layout.concealed
        else:
            raise ContextError(f"the winning tile {winning_tile} is not among the concealed tiles "
                               f"read from the photo ({compact(concealed) or 'none'})")
    rest = list(concealed)
    if winning_tile:
        rest.remove(winning_tile)
    melds = [g.notation for g in groups if g.kind in (EXPOSED, CONCEALED_KONG)]
    parts = HandParts(melds, compact(rest), winning_tile, list(layout.bonus))
    return parts, notes


def suggested_winning_tile(layout: Layout | None) -> tuple[int, str] | None:
    """(tile index, kind) of a lone tile set apart at the end of the concealed row."""
    if layout is None or layout.apart_tile is None or layout.apart_tile >= len(layout.tiles):
        return None
    return layout.apart_tile, layout.tiles[layout.apart_tile].kind


def parts_notation(parts: HandParts) -> str:
    out = list(parts.melds)
    if parts.concealed:
        out.append(parts.concealed)
    if parts.winning_tile:
        out.append("+" + parts.winning_tile)
    if parts.bonus:
        out.append("/ " + " ".join(parts.bonus))
    return " ".join(out)


def evaluate(photo: str, layout: Layout, ctx: ScanContext, *, read: PhotoRead | None = None,
             hand: str | None = None, threshold: float = LOW_CONFIDENCE,
             alternatives: bool = True) -> ScanResult:
    """Hand notation, score and flags for one grouped photo. ``hand`` (notation) overrides
    the grouping. Without context only the notation and the layout flags come back."""
    res = ScanResult(photo, ctx, read, layout, hand_override=hand)
    res.warnings = list(layout.warnings)
    res.low_confidence = low_confidence_tiles(layout.tiles, threshold)
    if res.low_confidence:
        res.flags.append("low_confidence:" + ",".join(map(str, res.low_confidence)))
    if not layout.tiles and hand is None:
        res.flags.append("no_tiles")
    doubtful = [i + 1 for i, g in enumerate(layout.groups) if g.confidence < DOUBTFUL_GROUPING]
    if doubtful and hand is None:
        res.flags.append("doubtful_grouping:" + ",".join(map(str, doubtful)))
        res.warnings.append("grouping of set " + ", ".join(map(str, doubtful)) +
                            " is doubtful: check the sets, regroup with 'move' or give --hand")
    try:
        if hand is not None:
            parts = split_notation(hand)
            if parts.winning_tile and ctx.winning_tile and parts.winning_tile != ctx.winning_tile:
                raise ContextError(f"the hand says +{parts.winning_tile} but the winning tile given is "
                                   f"{ctx.winning_tile}")
            if parts.winning_tile:
                ctx = ctx.with_(winning_tile=parts.winning_tile)
                res.context = ctx
            elif ctx.winning_tile:
                parts.winning_tile = ctx.winning_tile
            notes: list[str] = []
        else:
            parts, notes = layout_parts(layout, ctx.winning_tile)
    except ContextError as exc:
        res.flags.append("winning_tile_not_in_hand" if "not among" in str(exc) else "bad_hand")
        res.warnings.append(str(exc))
        res.notation = hand if hand is not None else layout.notation
        return res
    res.warnings += notes
    res.notation = parts_notation(parts)
    if not ctx.given and hand is None:
        return res                                       # recognizer output only
    missing = ctx.missing()
    for name in missing:
        res.flags.append("missing_" + name.replace(" ", "_"))
    apart = suggested_winning_tile(layout)
    if ctx.winning_tile is None and apart is not None:
        res.warnings.append(f"tile {apart[0] + 1} ({apart[1]}) lies apart at the end of the concealed row: "
                            f"the winning tile? (give --winning-tile {apart[1]})")
    if missing:
        return res
    res.request = build_request(parts, ctx)
    res.score = score_request(res.request)
    if not res.valid:
        reason = res.score.get("reason", "invalid")
        res.flags.append(f"invalid_hand:{reason}")
        if reason in HINTS:
            res.warnings.append(HINTS[reason])
        if alternatives and hand is None and reason in READING_ERRORS:
            res.alternatives = find_alternatives(layout, ctx)
    return res


def scan_photo(path: str | Path, ctx: ScanContext, *, recognize: Recognizer | None = None,
               hand: str | None = None, fixes: str | None = None,
               threshold: float = LOW_CONFIDENCE) -> ScanResult:
    """The whole pipeline for one photo; photo errors come back in ``error``."""
    start = time.perf_counter()
    read = read_photo(path, recognize)
    if read.error:
        res = ScanResult(str(path), ctx, read, error=read.error)
        res.flags.append("photo_error")
    else:
        layout = group_tiles(read.tiles)
        if fixes:
            from mjscore.handscan.review import apply_fixes          # noqa: PLC0415 (tiny module)
            layout = apply_fixes(layout, fixes)
        res = evaluate(str(path), layout, ctx, read=read, hand=hand, threshold=threshold)
    res.seconds = time.perf_counter() - start
    return res


# ----------------------------------------------------------------------------- alternatives

def find_alternatives(layout: Layout, ctx: ScanContext, *, limit: int = 3,
                      max_checks: int = 40) -> list[Alternative]:
    """Closest valid hands to an invalid reading: regroupings of the same tiles first
    (:func:`vision.layout.alternative_layouts`), then the runner-up kind of the least
    certain tiles (tiles of a kind read too often first). Every one is checked by the engine."""
    found: list[tuple[int, int, Alternative]] = []
    seen: set[str] = set()
    checks = 0

    def try_layout(lay: Layout, change: str, distance: int) -> None:
        nonlocal checks
        if checks >= max_checks:
            return
        try:
            parts, _ = layout_parts(lay, ctx.winning_tile)
        except ContextError:
            return
        note = parts_notation(parts)
        if note in seen:
            return
        seen.add(note)
        checks += 1
        answer = score_request(build_request(parts, ctx))
        if answer.get("valid"):
            found.append((distance, -(answer.get("final") or 0), Alternative(note, change, answer.get("final"))))

    for lay, change in alternative_layouts(layout):
        try_layout(lay, change, 1)
    counts: dict[str, int] = {}
    for t in layout.tiles:
        counts[t.kind] = counts.get(t.kind, 0) + 1
    order = sorted(range(len(layout.tiles)),
                   key=lambda i: (counts[layout.tiles[i].kind] <= 4, layout.tiles[i].confidence))
    for i in order[:8]:
        tile = layout.tiles[i]
        for kind, _p in tile.alternatives[:2]:
            if kind == tile.kind:
                continue
            try_layout(with_kind(layout, i, kind), f"tile {i + 1} read as {kind} instead of {tile.kind}", 2)
    kongs = sum(1 for g in layout.groups if g.kind in (EXPOSED, CONCEALED_KONG) and len(g.tiles) == 4)
    playing = [i for i, t in enumerate(layout.tiles) if not t.kind.startswith(("f", "j"))]
    if len(playing) > 14 + kongs:                    # a false detection among the tiles
        suspects = list(layout.isolated) + sorted(playing, key=lambda i: layout.tiles[i].confidence)[:4]
        for i in dict.fromkeys(suspects):
            t = layout.tiles[i]
            try_layout(without_tile(layout, i), f"tile {i + 1} ({t.kind}, {t.confidence:.2f}) is not a tile of the hand", 2)
    found.sort(key=lambda f: (f[0], f[1]))
    return [a for _, _, a in found[:limit]]
