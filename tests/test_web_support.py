"""Helpers for the web tests: the bundled real photos and a recognizer that knows their labels.

``BundledPhotoRecognizer`` stands in for the tile recognizer where the tests must not depend
on how well the shipped model reads (the correction flow, the score of a corrected hand):
it recognises a bundled photo by its decoded pixels and answers with the dataset's own
labelled boxes, optionally misreading one tile the way a real recognizer does (a wrong kind
at low confidence, the true kind as the runner-up)."""

from __future__ import annotations

import hashlib
import re
import threading
from pathlib import Path

import numpy as np

from mjscore.vision.kinds import token_for_dataset_name
from mjscore.vision.types import TileRead

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples" / "chinese-v4"
HAND_PHOTO = SAMPLES / "images" / "photo_3.jpg"
HAND_READ = "11123455567s RRR / f1 f2 j1 j2 j4"          # the hand photo_3 shows (its labels)
HAND_TYPED = "RRR 1112345557s +6s / f1 f2 j1 j2 j4"       # the same hand typed, won on 6s
# West wins on a discard in a South round: 224 points, well under the 2000 limit (as East
# self-drawn it would be capped at 2000, which would hide reading errors)
HAND_CONTEXT = {"seat": "W", "prevailing_wind": "S", "win_type": "discard", "ruleset": "nts-app"}


def _class_names() -> list[str]:
    names = re.search(r"names:\s*\[(.*?)\]", (SAMPLES / "data.yaml").read_text(), re.S).group(1)
    return [n.strip().strip("'\"") for n in names.split(",")]


def labelled_tiles(name: str, width: int, height: int) -> list[TileRead]:
    """The dataset's YOLO labels of ``samples/chinese-v4/images/<name>.jpg`` at width x height."""
    names = _class_names()
    tiles = []
    for line in (SAMPLES / "labels" / f"{name}.txt").read_text().splitlines():
        c, xc, yc, bw, bh = line.split()[:5]
        xc, yc, bw, bh = float(xc) * width, float(yc) * height, float(bw) * width, float(bh) * height
        tiles.append(TileRead(token_for_dataset_name(names[int(c)]),
                              (xc - bw / 2, yc - bh / 2, xc + bw / 2, yc + bh / 2), 0.97))
    return tiles


def _fingerprint(rgb: np.ndarray) -> str:
    return hashlib.sha1(np.ascontiguousarray(rgb).tobytes()).hexdigest()


class BundledPhotoRecognizer:
    """rgb -> labelled tiles of the bundled photo with those pixels (unknown photo: no tiles).

    ``misread=("5s", "3s")`` reads the first labelled 5s as a 3s with confidence 0.35 and
    the 5s as its runner-up. Counts calls and the most calls running at once."""

    def __init__(self, misread: tuple[str, str] | None = None, delay: float = 0.0):
        from mjscore.web.photo import decode_photo

        self.misread = misread
        self.delay = delay
        self._known: dict[str, str] = {}
        for path in sorted((SAMPLES / "images").glob("*.jpg")):
            self._known[_fingerprint(decode_photo(path.read_bytes()).rgb)] = path.stem
        self.calls = 0
        self.running = 0
        self.max_running = 0
        self._lock = threading.Lock()

    def __call__(self, rgb: np.ndarray) -> list[TileRead]:
        import time

        with self._lock:
            self.calls += 1
            self.running += 1
            self.max_running = max(self.max_running, self.running)
        try:
            if self.delay:
                time.sleep(self.delay)
            name = self._known.get(_fingerprint(rgb))
            if name is None:
                return []
            tiles = labelled_tiles(name, rgb.shape[1], rgb.shape[0])
            if self.misread:
                true, read = self.misread
                i = next(i for i, t in enumerate(tiles) if t.kind == true)
                tiles[i] = TileRead(read, tiles[i].box, 0.35, ((true, 0.30), ("6s", 0.12)))
            return tiles
        finally:
            with self._lock:
                self.running -= 1
