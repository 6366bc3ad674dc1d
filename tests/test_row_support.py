"""Weak detections kept only where a row of found tiles goes on (vision.row_support)."""

from mjscore.vision.row_support import continues_a_row, supported_weak


def _row(n, x0=100, y=50, w=30, h=40, gap=0):
    return [(x0 + i * (w + gap), y, x0 + i * (w + gap) + w, y + h) for i in range(n)]


def test_a_box_one_pitch_past_the_row_end_continues_it():
    row = _row(3)
    assert continues_a_row((190, 50, 220, 90), row)          # right after the third tile
    assert continues_a_row((70, 51, 100, 91), row)           # right before the first


def test_off_line_far_or_odd_sized_boxes_do_not():
    row = _row(3)
    assert not continues_a_row((190, 100, 220, 140), row)    # below the row
    assert not continues_a_row((260, 50, 290, 90), row)      # two pitches away
    assert not continues_a_row((190, 50, 250, 130), row)     # twice the size
    assert not continues_a_row((130, 50, 160, 90), row)      # on a found tile
    assert not continues_a_row((190, 50, 220, 90), row[:1])  # one tile is no row


def test_a_turned_row_is_followed_along_its_own_direction():
    # tiles stepping 30 right and 20 down (a hand photographed at an angle)
    row = [(100 + 30 * i, 100 + 20 * i, 130 + 30 * i, 140 + 20 * i) for i in range(3)]
    assert continues_a_row((190, 160, 220, 200), row)
    assert not continues_a_row((190, 100, 220, 140), row)


def test_a_run_of_backs_is_kept_box_by_box_and_only_faceless_reads():
    row = _row(2, x0=160)                                    # two face-up tiles found
    weak = [(130, 50, 160, 90), (100, 50, 130, 90), (220, 50, 250, 90), (400, 50, 430, 90)]
    reads = {weak[0]: ("X", 0.95), weak[1]: ("X", 0.9), weak[2]: ("5p", 0.99), weak[3]: ("X", 0.99)}
    calls = []

    def read(boxes):
        calls.append(list(boxes))
        return [reads[b] for b in boxes]

    kept = supported_weak(weak, row, read, 0.6)
    assert kept == [0, 1]          # the second back is vouched for by the first; a face is not kept
    assert weak[3] not in sum(calls, [])                     # the far box is never read
    assert supported_weak(weak, row, read, 0.97) == []       # unsure reads are not kept


def test_a_face_in_line_is_kept_only_when_read_surely():
    row = _row(2, x0=160)
    weak = [(220, 50, 250, 90), (250, 50, 280, 90), (130, 50, 160, 90)]
    reads = {weak[0]: ("5p", 0.95), weak[1]: ("6p", 0.7), weak[2]: ("3m", 0.85)}

    def read(boxes):
        return [reads[b] for b in boxes]

    # a sure face one pitch on is a tile; the next one, read unsurely, is not
    assert supported_weak(weak, row, read, 0.6, face_probability=0.8) == [0, 2]
    assert supported_weak(weak, row, read, 0.6, face_probability=0.9) == [0]
    assert supported_weak(weak, row, read, 0.6, face_probability=0.6) == [0, 1, 2]


def test_a_sure_face_of_the_photos_tile_size_is_kept_anywhere():
    from mjscore.vision.row_support import of_the_photos_size

    row = _row(3, x0=100)                                    # tiles 30 x 40
    elsewhere = (400, 300, 430, 340)                         # a tile-sized box far from the row
    assert of_the_photos_size(elsewhere, row)
    assert not of_the_photos_size((400, 300, 460, 380), row)  # twice the size
    assert not of_the_photos_size((130, 50, 160, 90), row)    # on a found tile
    assert not of_the_photos_size(elsewhere, row[:2])         # two tiles give no photo size
    weak = [elsewhere, (500, 300, 530, 340), (600, 300, 630, 340)]
    reads = {weak[0]: ("7s", 0.95), weak[1]: ("7s", 0.8), weak[2]: ("Wh", 0.99)}

    def read(boxes):
        return [reads[b] for b in boxes]

    assert supported_weak(weak, row, read, 0.6) == []                    # off without the setting
    # the sure face is kept; an unsure one and a faceless read away from any row are not
    assert supported_weak(weak, row, read, 0.6, sure_probability=0.9) == [0]


def test_neighbours_stand_side_by_side_one_pitch_apart_never_corner_to_corner():
    from mjscore.vision.row_support import next_to

    a = (100, 50, 130, 90)
    assert next_to(a, (130, 52, 160, 92))          # touching on the right
    assert next_to(a, (100, 90, 130, 130))         # touching below (a column)
    assert next_to(a, (126, 67, 156, 107))         # a row stepping down at an angle
    assert not next_to(a, (130, 90, 160, 130))     # corner to corner: squares of a chequered cloth
    assert not next_to(a, (160, 50, 190, 90))      # one tile's gap between
    assert not next_to(a, (130, 50, 190, 130))     # twice the size
    assert not next_to(a, a)


def test_backs_with_no_found_tile_beside_them_are_kept_as_a_run_of_three_only():
    from mjscore.vision.row_support import back_runs

    rack = _row(4, x0=300, y=200)                  # the back of a standing rack: four backs
    pair = _row(2, x0=100, y=400)                  # two lone backs: could be a patch of cloth
    chequer = [(500, 400, 530, 440), (530, 440, 560, 480), (560, 480, 590, 520)]   # corner to corner
    odd = (700, 100, 730, 140)
    weak = rack + pair + chequer + [odd]
    assert back_runs(weak, 3) == [0, 1, 2, 3]
    assert back_runs(weak, 2) == [0, 1, 2, 3, 4, 5]
    reads = {b: ("X", 0.95) for b in weak}
    reads[rack[3]] = ("X", 0.5)                    # an unsure back ends the run before it
    reads[odd] = ("Wh", 0.99)

    def read(boxes):
        return [reads[b] for b in boxes]

    assert supported_weak(weak, [], read, 0.6) == []                            # off without the setting
    assert supported_weak(weak, [], read, 0.6, back_probability=0.9) == [0, 1, 2]
    assert supported_weak(weak, [], read, 0.6, back_probability=0.9, back_run=4) == []
    assert supported_weak(weak, [], read, 0.6, back_probability=0.9, back_run=2) == [0, 1, 2, 4, 5]


def test_backs_cut_off_by_the_edge_of_the_photo_vouch_for_nothing():
    rack = _row(3, x0=0, y=200)                    # the first box starts at the left edge
    reads = {b: ("X", 0.95) for b in rack}

    def read(boxes):
        return [reads[b] for b in boxes]

    assert supported_weak(rack, [], read, 0.6, back_probability=0.9, back_run=2) == [0, 1, 2]
    assert supported_weak(rack, [], read, 0.6, back_probability=0.9, back_run=2, frame=(640, 480)) == [1, 2]
    assert supported_weak(rack, [], read, 0.6, back_probability=0.9, back_run=3, frame=(640, 480)) == []
