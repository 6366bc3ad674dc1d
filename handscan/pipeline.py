"""Photo -> tiles -> layout -> hand -> score: the one pipeline every front end calls.

Each stage is a function of the previous stage's typed data, so the CLI scan (which asks for
missing context between stages), the review (which changes tiles or groups), the batch
(worker processes), the session ledger and the web API all run the same steps:

    read_photo(path) / recognize_upload(rgb)  -> PhotoRead / [TileRead]   (vision recognizer)
    lay_out(tiles, fixes)                     -> vision.layout.Layout
    hand_from_layout(layout, winning tile)    -> LaidHand (scoring.model.Hand)   [handscan.hand]
    score(hand, context)                      -> scoring.model.HandScore
    evaluate(...) / scan_photo(...)           -> ScanResult (all of it, with flags and alternatives)

Notation and JSON appear only at the edges (typed ``--hand`` text, ``to_json``)."""

from __future__ import annotations

import importlib
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

from ..errors import FailedError, MjscoreError, UnavailableError
from .alternatives import Alternative, find_alternatives
from .context import ContextError, ScanContext, WinningTileNotInHand
from .hand import LaidHand, hand_from_layout, hand_from_text, score
from .stakes import score_stakes
from ..scoring.model import Hand, HandScore
from ..scoring.notation import NotationError, format_hand
from ..vision.calibration import REVIEW_CONFIDENCE
from ..vision.errors import ImageError
from ..vision.layout import Layout, group_tiles
from ..vision.types import PhotoRead, TileRead

LOW_CONFIDENCE = REVIEW_CONFIDENCE
# A grouping decision (vision.layout Group.confidence, the margin of the chosen split over the
# runner-up) below this is shown as doubtful. On the 100 synthetic scenes no right hand had a
# group under 0.6, while a photo whose exposed sets were all merged into the concealed row did.
DOUBTFUL_GROUPING = 0.6
# engine reasons that a misread or misgrouped photo can cause: worth searching nearby readings.
# DECISION (session 20): a flower or season under a ruleset without them (`nts`) is one too: a
# suit or honour tile read as a bonus tile (a 2m read f2) makes that reason hide the hand. The
# nearest valid reading then reads it as its runner-up kind, or leaves a real bonus tile out of
# the hand (it does not score under `nts`); the proposal is flagged like every proposal, and the
# hint to use `--ruleset nts-app` stays.
READING_ERRORS = {"too_many_copies", "duplicate_bonus_tile", "tile_count", "no_valid_hand", "invalid_meld",
                  "face_down_tile", "syntax", "error", "bonus_tiles_not_allowed"}
HINTS = {
    "bonus_tiles_not_allowed": "flowers/seasons only score under --ruleset nts-app",
    "min_doublings": "a complete hand, but fewer than the 2 doublings a mahjong needs: a false mahjong",
    "special_condition": "the --special flags do not fit this seat or win type",
}
Recognizer = Callable[[str], PhotoRead]
ImageRecognizer = Callable[..., list]          # rgb array -> list[TileRead]


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
        raise UnavailableError(f"the tile recognizer {spec or 'vision.recognize_file'} is not available: {exc}")


def read_photo(path: str | Path, recognize: Recognizer | None = None) -> PhotoRead:
    """Run the recognizer on a photo file; a photo that cannot be read comes back as a
    PhotoRead with ``error`` set (never an exception), so one bad photo never stops a run."""
    path = str(path)
    try:
        if Path(path).is_dir():
            raise FileNotFoundError(f"{path} is a folder, not a photo (mjscore batch reads a folder)")
        if not Path(path).exists():
            raise FileNotFoundError(f"no such photo: {path}")
        if not Path(path).is_file():                # a FIFO or a device: never opened (it may block)
            raise FileNotFoundError(f"{path} is not a regular file, not a photo")
        read = (recognize or load_recognizer())(path)
    except FileNotFoundError as exc:
        return PhotoRead(path, 0, 0, error=str(exc).strip("'\""))
    except MjscoreError as exc:                    # ImageError, a recognizer that is not there
        return PhotoRead(path, 0, 0, error=str(exc))
    except Exception as exc:                        # anything the model raises
        return PhotoRead(path, 0, 0, error=f"cannot read {Path(path).name}: {type(exc).__name__}: {exc}")
    return read


def recognize_upload(recognize: ImageRecognizer, rgb) -> list[TileRead]:
    """Run the recognizer on an image in memory (the web upload). Raises
    :class:`UnavailableError` (no model), :class:`ImageError` (unreadable image) or
    :class:`FailedError` (the recognizer crashed)."""
    try:
        return list(recognize(rgb))
    except FileNotFoundError as exc:
        raise UnavailableError(f"the tile recognizer is not installed: {exc}") from None
    except ImportError as exc:
        raise UnavailableError(f"the tile recognizer is not available: {exc}") from None
    except ImageError as exc:
        raise ImageError(f"the recognizer cannot read this photo: {exc}") from None
    except MjscoreError:
        raise
    except Exception as exc:
        raise FailedError(f"the recognizer failed on this photo: {type(exc).__name__}: {exc}") from None


def photo_read_from_json(obj: dict) -> PhotoRead:
    """Inverse of :meth:`PhotoRead.to_json` (saved recognizer output, ``scan --json`` lines)."""
    tiles = [TileRead(t["kind"], tuple(float(v) for v in t["box"]), float(t.get("confidence", 1.0)),
                      tuple((k, float(p)) for k, p in t.get("alternatives", ())), int(t.get("angle", 0)))
             for t in obj.get("tiles", ())]
    return PhotoRead(obj.get("image", ""), int(obj.get("width", 0)), int(obj.get("height", 0)), tiles,
                     dict(obj.get("timing_ms", {})), obj.get("error"))


def lay_out(tiles: Sequence[TileRead], fixes: str | None = None) -> Layout:
    """The tiles grouped as laid out on the table (``vision.layout``), with ``--fix`` corrections
    ("3=5p,7=G") applied; a bad fix raises :class:`ContextError`."""
    layout = group_tiles(tiles)
    if fixes:
        from .review import apply_fixes          # noqa: PLC0415 (tiny module)
        layout = apply_fixes(layout, fixes)
    return layout


# ----------------------------------------------------------------------------- result

@dataclass
class ScanResult:
    photo: str
    context: ScanContext
    read: PhotoRead | None = None
    layout: Layout | None = None
    hand: Hand | None = None             # what the engine scored (or would score)
    notation: str | None = None          # the hand, with +winning tile when known
    score: HandScore | None = None
    flags: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    low_confidence: list[int] = field(default_factory=list)     # tile numbers, 1-based
    alternatives: list[Alternative] = field(default_factory=list)
    proposal: Alternative | None = None  # the most probable valid reading, when the read one is not
    hand_override: str | None = None
    error: str | None = None
    seconds: float = 0.0

    @property
    def valid(self) -> bool:
        return bool(self.score and self.score.valid)

    @property
    def final(self) -> int | None:
        return self.score.final if self.valid else None

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
            "score": self.score.to_json() if self.score else None,
            "valid": self.valid,
            "final": self.final,
            "flags": list(self.flags),
            "warnings": list(self.warnings),
            "low_confidence_tiles": list(self.low_confidence),
            "alternatives": [a.to_json() for a in self.alternatives],
            "proposal": self.proposal.to_json() if self.proposal else None,
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


def suggested_winning_tile(layout: Layout | None) -> tuple[int, str] | None:
    """(tile index, kind) of a lone tile set apart at the end of the concealed row."""
    if layout is None or layout.apart_tile is None or layout.apart_tile >= len(layout.tiles):
        return None
    return layout.apart_tile, layout.tiles[layout.apart_tile].kind


# ----------------------------------------------------------------------------- one photo

def _read_flags(res: ScanResult, layout: Layout, threshold: float, typed: bool) -> None:
    """Flags and warnings of the reading itself: doubtful tiles and groupings."""
    res.warnings = list(layout.warnings)
    res.low_confidence = low_confidence_tiles(layout.tiles, threshold)
    if res.low_confidence:
        res.flags.append("low_confidence:" + ",".join(map(str, res.low_confidence)))
    if not layout.tiles and not typed:
        res.flags.append("no_tiles")
    doubtful = [i + 1 for i, g in enumerate(layout.groups) if g.confidence < DOUBTFUL_GROUPING]
    if doubtful and not typed:
        res.flags.append("doubtful_grouping:" + ",".join(map(str, doubtful)))
        res.warnings.append("grouping of set " + ", ".join(map(str, doubtful)) +
                            " is doubtful: check the sets, regroup with 'move' or give --hand")


def _the_hand(layout: Layout, ctx: ScanContext, typed: str | None) -> tuple[LaidHand, ScanContext]:
    """The hand to score: the typed one when given (its ``+tile`` fills in the context),
    else the layout's. Raises ContextError or NotationError."""
    if typed is None:
        return hand_from_layout(layout, ctx.winning_tile), ctx
    hand, ctx = hand_from_text(typed, ctx)
    return LaidHand(hand, layout, format_hand(hand)), ctx


def evaluate(photo: str, layout: Layout, ctx: ScanContext, *, read: PhotoRead | None = None,
             hand: str | None = None, threshold: float = LOW_CONFIDENCE,
             alternatives: bool = True) -> ScanResult:
    """Hand, score and flags for one grouped photo. ``hand`` (notation) overrides the
    grouping. Without context only the hand and the layout flags come back."""
    res = ScanResult(photo, ctx, read, layout, hand_override=hand)
    _read_flags(res, layout, threshold, hand is not None)
    try:
        laid, ctx = _the_hand(layout, ctx, hand)
    except (ContextError, NotationError) as exc:
        res.flags.append("winning_tile_not_in_hand" if isinstance(exc, WinningTileNotInHand) else "bad_hand")
        res.warnings.append(str(exc))
        res.notation = hand if hand is not None else layout.notation
        if (alternatives and hand is None and isinstance(exc, WinningTileNotInHand)
                and ctx.given and not ctx.missing()):
            _propose_nearest(res, layout, ctx)       # the winning tile misread, or not found
        return res
    res.context, res.hand, res.notation = ctx, laid.hand, laid.notation
    res.warnings += laid.notes
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
    res.score = score(laid.hand, ctx)
    if res.score.valid and hand is None:
        for stake in score_stakes(layout, ctx, res.score.final):
            res.flags.append(f"score_depends_on:{stake.index + 1}")
            res.warnings.append(stake.warning(res.score.final))
    if not res.score.valid:
        reason = res.score.reason or "invalid"
        res.flags.append(f"invalid_hand:{reason}")
        if reason in HINTS:
            res.warnings.append(HINTS[reason])
        if alternatives and hand is None and reason in READING_ERRORS:
            _propose_nearest(res, layout, ctx)
    return res


def _propose_nearest(res: ScanResult, layout: Layout, ctx: ScanContext) -> None:
    res.alternatives = find_alternatives(layout, ctx)
    if res.alternatives:
        propose(res, res.alternatives[0])


def propose(res: ScanResult, best: Alternative) -> None:
    """Offer the most probable valid reading (``handscan.alternatives``) as the proposal: scored,
    flagged ``proposed_reading`` and worded in the warnings, so the player confirms or corrects
    it; the result itself stays the reading as seen (``valid`` false, ``final`` None)."""
    res.proposal = best
    res.flags.append("proposed_reading")
    res.warnings.append(f"a valid reading is proposed: {best.notation}")


def scan_photo(path: str | Path, ctx: ScanContext, *, recognize: Recognizer | None = None,
               hand: str | None = None, fixes: str | None = None,
               threshold: float = LOW_CONFIDENCE) -> ScanResult:
    """The whole pipeline for one photo file; photo errors come back in ``error``."""
    start = time.perf_counter()
    read = read_photo(path, recognize)
    if read.error:
        res = ScanResult(str(path), ctx, read, error=read.error)
        res.flags.append("photo_error")
    else:
        res = evaluate(str(path), lay_out(read.tiles, fixes), ctx, read=read, hand=hand, threshold=threshold)
    res.seconds = time.perf_counter() - start
    return res
