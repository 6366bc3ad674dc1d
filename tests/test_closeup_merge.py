"""A lone or big tile cut into pieces by the main detector is made whole by the close-up
detector's box (``vision.closeup.whole_tiles``), and only then."""

from mjscore.vision.closeup import PIECE_AREA, SURENESS, piece_candidates, whole_tiles


def merged(pieces, pieces_sure, wholes, wholes_sure, piece_area=PIECE_AREA, sureness=SURENESS):
    """The geometry and then the sureness rule, as vision.detector applies them."""
    return whole_tiles(piece_candidates(pieces, wholes, piece_area), pieces_sure, wholes_sure, sureness)

WHOLE = (100, 100, 190, 220)                      # one tile, 90 x 120
PIECES = [(105, 105, 185, 150), (105, 152, 185, 215)]   # its upper and lower half


def test_two_pieces_inside_a_surer_whole_tile_are_replaced():
    assert merged(PIECES, [0.7, 0.8], [WHOLE], [0.95]) == [(0, [0, 1])]


def test_a_whole_box_that_reads_less_surely_than_its_pieces_changes_nothing():
    assert merged(PIECES, [0.7, 0.99], [WHOLE], [0.6]) == []
    # within the sureness allowance (0.9 of the surest piece) it does
    assert merged(PIECES, [0.7, 0.99], [WHOLE], [0.9], sureness=0.9) == [(0, [0, 1])]


def test_one_piece_needs_a_surer_whole_and_a_tile_of_its_own_size_is_no_piece():
    assert merged(PIECES[:1], [0.5], [WHOLE], [0.9]) == [(0, [0])]
    assert merged(PIECES[:1], [0.9], [WHOLE], [0.9]) == []
    same = [(101, 101, 189, 219)]                 # the same tile found whole by both detectors
    assert merged(same, [0.9], [WHOLE], [0.99]) == []


def test_neighbours_outside_the_whole_box_are_kept():
    neighbour = (195, 100, 285, 220)             # the next tile in the row
    assert merged(PIECES + [neighbour], [0.6, 0.6, 0.9], [WHOLE], [0.95]) == [(0, [0, 1])]


def test_each_piece_is_given_to_one_whole_tile_the_surest_first():
    other = (95, 95, 200, 230)
    out = merged(PIECES, [0.5, 0.5], [other, WHOLE], [0.8, 0.9])
    assert out == [(1, [0, 1])]
