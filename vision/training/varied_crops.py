"""Classifier crops of the design grammar (``datasets/synth/varied_faces.py``), rendered live
while the classifier trains (``live_bonus``, ``train_classifier --live-varied``)."""

from __future__ import annotations

import numpy as np
from PIL import Image

from ...datasets.synth import procedural as P
from ...datasets.synth.fonts import fonts_covering
from ...datasets.synth.varied_faces import SUIT_HONOUR, varied_face
from ..kinds import KIND_INDEX


def render_varied_crops(n_per_kind: int, size: int, seed: int = 0,
                        faces: list | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Upright crops (N x size x size x 3 uint8) and labels: ``n_per_kind`` grammar faces of
    every suit and honour kind (those needing CJK only when a font draws 一..九萬東南西北中發),
    each in a row of art tiles (``faces``: the crop bank's) like the art crops. Flowers and
    seasons come from ``bonus_faces`` (``live_bonus`` renders both)."""
    from .art import row_crop

    rng = np.random.default_rng(seed)
    cjk = fonts_covering(P.CN_NUM + "萬東南西北中發")
    kinds = [k for k in SUIT_HONOUR if cjk or P.face_family(k) in ("p", "s") or k == "Wh"]
    art = faces or []
    out, labels = [], []
    for kind in (k for k in kinds for _ in range(n_per_kind)):
        face = varied_face(kind, rng, cjk)
        face = np.asarray(Image.fromarray(face).resize((90, 120), Image.LANCZOS))
        neighbour = (lambda: art[int(rng.integers(len(art)))][1]) if art else (lambda: face)
        out.append(row_crop(lambda: face, neighbour, rng, size))
        labels.append(KIND_INDEX[kind])
    return np.stack(out), np.array(labels, np.int64)
