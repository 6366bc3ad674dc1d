"""Bundled real photos: the layout step on their labelled boxes (real geometry, perspective,
standing tiles) and, where the shipped recognizer reads them, photo in -> exact hand out.

``samples/chinese-v4/images/photo_3.jpg`` is a real winning hand (red dragons and bamboo
standing in one row, five flowers/seasons at the right end); the other bundled photos are
grids of loose tiles, not hands."""

from __future__ import annotations

import re
from pathlib import Path


from mjscore.handscan.context import make_context
from mjscore.handscan.pipeline import evaluate
from typed_hand import typed_answer
from mjscore.vision.kinds import token_for_dataset_name
from mjscore.vision.layout import group_tiles
from mjscore.vision.types import TileRead

SAMPLES = Path(__file__).resolve().parents[1] / "samples" / "chinese-v4"
HAND_PHOTO = SAMPLES / "images" / "photo_3.jpg"
HAND = "11123455567s RRR / f1 f2 j1 j2 j4"


def labelled_tiles(name: str) -> list[TileRead]:
    """The dataset's own YOLO labels as TileReads (what a perfect recognizer returns)."""
    from PIL import Image
    names = re.search(r"names:\s*\[(.*?)\]", (SAMPLES / "data.yaml").read_text(), re.S).group(1)
    names = [n.strip().strip("'\"") for n in names.split(",")]
    with Image.open(SAMPLES / "images" / f"{name}.jpg") as im:
        w, h = im.size
    tiles = []
    for line in (SAMPLES / "labels" / f"{name}.txt").read_text().splitlines():
        c, xc, yc, bw, bh = line.split()[:5]
        xc, yc, bw, bh = float(xc) * w, float(yc) * h, float(bw) * w, float(bh) * h
        tiles.append(TileRead(token_for_dataset_name(names[int(c)]), (xc - bw / 2, yc - bh / 2, xc + bw / 2, yc + bh / 2), 1.0))
    return tiles


def test_real_hand_photo_labels_group_into_the_hand():
    layout = group_tiles(labelled_tiles("photo_3"))
    assert layout.notation == HAND
    assert layout.rows == 1 and not layout.warnings
    assert [t.kind for t in layout.tiles][:3] == ["R", "R", "R"]          # read left to right


def test_real_hand_photo_scores_like_the_hand_typed_in():
    ctx = make_context("E", "S", "6s", "self_drawn", "nts-app")
    res = evaluate(str(HAND_PHOTO), group_tiles(labelled_tiles("photo_3")), ctx)
    typed = typed_answer("RRR 1112345557s +6s / f1 f2 j1 j2 j4", ctx)
    assert res.notation == "1112345557s RRR +6s / f1 f2 j1 j2 j4"
    assert res.valid and typed["valid"] and res.final == typed["final"]
    assert sorted(map(tuple, res.score.to_json()["base_points"])) == sorted(map(tuple, typed["base_points"]))


def test_real_hand_photo_end_to_end():
    """The shipped recognizer on the real photo (stretched 7:1 by the dataset's exporter, the
    bonus tiles upside down): photo in -> the exact hand and the score of the hand typed in."""
    from mjscore.handscan.pipeline import scan_photo
    ctx = make_context("E", "S", "6s", "self_drawn", "nts-app")
    res = scan_photo(HAND_PHOTO, ctx)
    assert res.error is None
    assert res.layout.notation == HAND, res.layout.notation
    typed = typed_answer("RRR 1112345557s +6s / f1 f2 j1 j2 j4", ctx)
    assert res.valid and res.final == typed["final"] == 2000
