"""Tile-face art the generator can draw from: committed PNG faces plus whatever optional art
``install_art.sh`` extracted into ``data/art-cache/faces/``.

A *face set* is one art style: ``kind -> list of RGBA glyph layers`` (transparent background,
3:4).  Sets that lack some kinds (the riichi art has no flowers or seasons) are completed by
the scene builder with procedural faces, so every set can draw every kind."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

from ...vision.kinds import KINDS

REPO = Path(__file__).resolve().parents[2]
COMMITTED_FACES = REPO / "datasets" / "art" / "faces"
DEFAULT_CACHE = REPO / "data" / "art-cache"

# committed sets that complete each other (xhokir only adds flowers and seasons to FluffyStuff)
MERGED_SETS = {"fluffystuff": ["fluffystuff", "xhokir"]}
SKIP_SETS = {"xhokir"}
# the held-out face design (unseen_faces.py): evaluation batches only, never training
UNSEEN_ART = "unseen"
VARIED_ART = "varied"  # "all" plus the design grammar (varied_faces.py) as one more family, for new training batches
ART_CHOICES = ("all", "committed", "repo", VARIED_ART, UNSEEN_ART)
HELD_OUT_MARK = "HELD_OUT"  # a file in a folder rendered in it: training code refuses the folder


@dataclass
class FaceSet:
    """One art style. ``opaque`` faces carry their own face colour (scans, screenshots)."""

    name: str
    faces: dict[str, list[np.ndarray]] = field(default_factory=dict)
    opaque: bool = False
    face_colour: tuple[int, int, int] | None = None  # the set's own face colour (jade)

    def kinds(self) -> list[str]:
        return [k for k in KINDS if self.faces.get(k)]


def _read_rgba(path: Path) -> np.ndarray:
    import cv2

    img = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if img is None:
        raise ValueError(f"cannot read face image {path}")
    if img.ndim == 2:
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGRA)
    elif img.shape[2] == 3:
        img = cv2.cvtColor(img, cv2.COLOR_BGR2BGRA)
    return cv2.cvtColor(img, cv2.COLOR_BGRA2RGBA)


def _load_dir(directory: Path, into: FaceSet) -> None:
    for path in sorted(directory.glob("*.png")):
        kind = path.stem.split("~")[0]
        if kind not in KINDS:
            continue
        into.faces.setdefault(kind, []).append(_read_rgba(path))
    if (directory / "OPAQUE").exists():
        into.opaque = True
    if (directory / "FACE").exists():
        rgb = tuple(int(v) for v in (directory / "FACE").read_text().split()[:3])
        if len(rgb) == 3:
            into.face_colour = rgb  # type: ignore[assignment]


@lru_cache(maxsize=4)
def load_face_sets(cache_dir: str | None = None) -> tuple[FaceSet, ...]:
    """All face sets found: the committed ones, then those in ``<cache>/faces/<set>/``."""
    sets: list[FaceSet] = []
    if COMMITTED_FACES.is_dir():
        for d in sorted(p for p in COMMITTED_FACES.iterdir() if p.is_dir()):
            if d.name in SKIP_SETS:
                continue
            fs = FaceSet(d.name)
            for part in MERGED_SETS.get(d.name, [d.name]):
                if (COMMITTED_FACES / part).is_dir():
                    _load_dir(COMMITTED_FACES / part, fs)
            if fs.faces:
                sets.append(fs)
    cache = Path(cache_dir) if cache_dir else DEFAULT_CACHE
    if (cache / "faces").is_dir():
        for d in sorted(p for p in (cache / "faces").iterdir() if p.is_dir()):
            fs = FaceSet(f"cache:{d.name}")
            _load_dir(d, fs)
            if fs.faces:
                sets.append(fs)
    return tuple(sets)


def committed_only() -> tuple[FaceSet, ...]:
    """Face sets from the repository alone (what tests and CI use)."""
    return tuple(s for s in load_face_sets(None) if not s.name.startswith("cache:"))


def face_sets_for(art: str) -> tuple[FaceSet, ...]:
    """``art="all"``: committed + cached optional art; ``"committed"``: repository art only
    (``"repo"``: the same sets, and ``make_style`` is then told not to add generated ones);
    ``"varied"``: as "all" (``style_for_art`` adds the design grammar); ``"unseen"``: none (every
    face is drawn with the held-out design, ``style_for_art``)."""
    if art == UNSEEN_ART:
        return ()
    if art in ("committed", "repo"):
        return committed_only()
    if art in ("all", VARIED_ART):
        return load_face_sets(None)
    raise ValueError(f"unknown art selection {art!r} (use one of {', '.join(ART_CHOICES)})")


def mark_held_out(folder: Path, art: str) -> None:
    """Leave the held-out mark in a folder a generator renders with ``art``, when that is the
    held-out design (``--art unseen``); nothing for any other choice."""
    if art != UNSEEN_ART:
        return
    (Path(folder) / HELD_OUT_MARK).write_text(
        "Rendered in the held-out face design (datasets/synth/unseen_faces.py): evaluation only.\n"
        "Training or fitting on this folder would spoil the unseen-set proxy; the training code refuses it.\n")


def held_out_mark(folder: Path) -> Path | None:
    """The held-out mark of ``folder`` or of the folder above it (a split such as ``x/images``'s
    parent), if any."""
    folder = Path(folder)
    for d in (folder, folder.parent):
        if (d / HELD_OUT_MARK).is_file():
            return d / HELD_OUT_MARK
    return None
