"""A recognizer for batch tests that replays saved reads: ``photo.jpg.reads.json`` next to a
photo holds its PhotoRead JSON; photos without one go to the real recognizer (which is what
reads damaged files). Named as ``module:function`` so worker processes can load it."""

from __future__ import annotations

import json
from pathlib import Path


def recognize(path: str):
    from mjscore.handscan.pipeline import photo_read_from_json

    saved = Path(str(path) + ".reads.json")
    if saved.exists():
        read = photo_read_from_json(json.loads(saved.read_text()))
        read.image = str(path)
        return read
    from mjscore.vision import recognize_file

    return recognize_file(path)


def recognize_slowly(path: str):
    """:func:`recognize`, 20 ms slower per photo: a batch long enough to be killed mid-run."""
    import time

    time.sleep(0.02)
    return recognize(path)
