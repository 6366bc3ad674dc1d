"""Data that flows out of the recognizer: photo -> tiles (each with box, kind, confidence).

Boxes are in pixels of the EXIF-upright image, ``(x1, y1, x2, y2)``.
``angle`` is the tile's face orientation in degrees counter-clockwise from upright,
one of 0, 90, 180, 270 (a sideways tile reads 90 or 270)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class TileRead:
    kind: str                                   # spec §1 token or "X" (face down)
    box: tuple[float, float, float, float]      # x1, y1, x2, y2 in upright-image pixels
    confidence: float                           # P(tile here) * P(kind), calibrated (vision.calibration)
    alternatives: tuple[tuple[str, float], ...] = ()  # runner-up kinds, best first
    angle: int = 0

    def to_json(self) -> dict:
        return {
            "kind": self.kind,
            "box": [round(float(v), 1) for v in self.box],
            "confidence": round(float(self.confidence), 4),
            "alternatives": [[k, round(float(p), 4)] for k, p in self.alternatives],
            "angle": self.angle,
        }


@dataclass
class PhotoRead:
    image: str
    width: int
    height: int
    tiles: list[TileRead] = field(default_factory=list)
    timing_ms: dict[str, float] = field(default_factory=dict)
    error: str | None = None

    def to_json(self) -> dict:
        out = {"image": self.image, "width": self.width, "height": self.height,
               "tiles": [t.to_json() for t in self.tiles],
               "timing_ms": {k: round(v, 1) for k, v in self.timing_ms.items()}}
        if self.error is not None:
            out["error"] = self.error
        return out
