"""Issue 16: on a stretched photo of standing tiles the layout groups in an unstretched frame;
every box that leaves the layout step must still be in photo pixels, so set outlines on the
annotated photo enclose their tiles instead of floating above them."""

from __future__ import annotations

from PIL import Image

from mjscore.handscan.outputs import annotate, group_outline
from mjscore.vision.layout import alternative_layouts, candidate_layouts, group_tiles, unstretch_factors
from test_scan_photos import HAND_PHOTO, labelled_tiles


def _photo_boxes(layout):
    return {tuple(t.box) for t in layout.tiles}


def test_photo_3_is_unstretched_by_the_layout():
    assert unstretch_factors(labelled_tiles("photo_3")) != (1.0, 1.0)


def test_group_tiles_are_the_photo_tiles():
    tiles = labelled_tiles("photo_3")
    photo = {tuple(t.box) for t in tiles}
    layouts = candidate_layouts(tiles) + [lay for lay, _ in alternative_layouts(group_tiles(tiles))]
    for lay in layouts:
        assert _photo_boxes(lay) <= photo
        for g in lay.groups:
            assert [t.box for t in g.tiles] == [lay.tiles[i].box for i in g.indices]


def test_every_outline_encloses_its_tiles():
    lay = group_tiles(labelled_tiles("photo_3"))
    assert lay.groups
    for g in lay.groups:
        x1, y1, x2, y2 = group_outline(g, pad=3)
        for i in g.indices:
            b = lay.tiles[i].box
            assert x1 <= b[0] and y1 <= b[1] and b[2] <= x2 and b[3] <= y2, (g.kind, b, (x1, y1, x2, y2))


def test_outline_pixels_sit_on_the_tiles(tmp_path):
    """The drawn concealed outline's left edge runs beside the tiles over their whole height."""
    lay = group_tiles(labelled_tiles("photo_3"))
    out = annotate(HAND_PHOTO, lay, tmp_path / "a.jpg")
    g = next(g for g in lay.groups if g.kind == "concealed")
    boxes = [lay.tiles[i].box for i in g.indices]                  # the tiles of ``scan --json``
    x1, y1, y2 = min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[3] for b in boxes)
    with Image.open(HAND_PHOTO) as src, Image.open(out) as im:
        pad = 6 * max(src.size) / 1000.0
        x = max(int(x1 - pad) + 1, 0)
        ys = range(int(y1) + 5, int(y2) - 5, 5)
        changed = [sum(abs(a - b) for a, b in zip(src.convert("RGB").getpixel((x, y)), im.getpixel((x, y)))) > 60
                   for y in ys]
    assert sum(changed) >= 0.8 * len(changed), changed
