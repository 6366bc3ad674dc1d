"""Coarser views for big tiles (vision/zoom.py): which boxes a coarse view replaces or adds."""

import numpy as np

from mjscore.vision.zoom import Candidate, merge_coarse, needs_coarser, shrunk_on_table


def test_a_sure_whole_tile_replaces_its_pieces():
    pieces = [Candidate((10, 10, 50, 40), 0.6, 0.9), Candidate((10, 45, 50, 75), 0.6, 0.8)]
    whole = Candidate((8, 8, 52, 80), 0.8, 0.9)
    assert merge_coarse(pieces, [whole]) == [whole]


def test_pieces_stay_when_the_coarse_box_reads_worse_or_unsure():
    pieces = [Candidate((10, 10, 50, 40), 0.9, 0.95), Candidate((10, 45, 50, 75), 0.9, 0.95)]
    assert merge_coarse(pieces, [Candidate((8, 8, 52, 80), 0.6, 0.9)]) == pieces     # worse quality
    assert merge_coarse(pieces[:1], [Candidate((8, 8, 52, 80), 0.9, 0.3)]) == pieces[:1]  # unsure read


def test_own_whole_tiles_and_neighbours_are_kept():
    own = [Candidate((0, 0, 40, 56), 0.9, 0.9), Candidate((42, 0, 82, 56), 0.9, 0.9)]
    same = Candidate((1, 1, 41, 57), 0.95, 0.99)                 # the own view has this tile whole
    straddling = Candidate((20, 0, 62, 56), 0.95, 0.99)          # half of two tiles: no tile
    assert merge_coarse(own, [same, straddling]) == own


def test_a_tile_the_own_view_missed_is_added():
    own = [Candidate((0, 0, 40, 56), 0.9, 0.9)]
    missed = Candidate((200, 200, 300, 340), 0.8, 0.9)
    assert merge_coarse(own, [missed]) == own + [missed]
    assert merge_coarse([], [missed]) == [missed]


def test_coarser_views_only_for_big_or_few_tiles():
    row = [(i * 30, 0, i * 30 + 28, 38) for i in range(14)]
    assert not needs_coarser(row, (1000, 1000), 320, 40)      # 14 tiles of ~12 px at the input
    assert needs_coarser(row[:2], (1000, 1000), 320, 40)       # too few to tell
    big = [(i * 300, 0, i * 300 + 280, 380) for i in range(3)]
    assert needs_coarser(big, (1000, 1000), 320, 40)


def test_shrunk_photo_sits_in_the_middle_of_a_table_coloured_canvas():
    rgb = np.full((200, 400, 3), (10, 200, 30), np.uint8)
    rgb[50:150, 150:250] = 255
    canvas, s, x0, y0 = shrunk_on_table(rgb, 4, 320)
    assert canvas.shape[:2] == (160, 320) and abs(s - 0.2) < 1e-9
    assert tuple(canvas[0, 0]) == (10, 200, 30)
    # the white square maps to the canvas where the scale and offset say
    cx, cy = int(200 * s) + x0, int(100 * s) + y0
    assert tuple(canvas[cy, cx]) == (255, 255, 255)
