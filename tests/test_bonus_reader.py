"""The bonus reader's re-weighing of flower and season reads (vision/bonus_reader.py)."""

import numpy as np
import pytest

from mjscore.vision import bonus_reader as br
from mjscore.vision.kinds import KINDS


def probs(**mass):
    p = np.full(len(KINDS), 1e-4)
    for k, v in mass.items():
        p[KINDS.index(k)] = v
    return (p / p.sum())[None]


def reader(**mass):
    r = np.full(9, 1e-4)
    for k, v in mass.items():
        r[8 if k == "other" else br.BONUS_KINDS.index(k)] = v
    return (r / r.sum())[None]


def test_weight_zero_and_mass_zero_leave_the_classifier_read_as_it_was():
    p = probs(f1=0.5, j1=0.3, **{"1s": 0.2})
    out = br.reweigh(p, reader(j1=0.9, other=0.1), weight=0.0, mass=0.0)
    assert np.allclose(out, p)


def test_a_season_the_classifier_calls_a_flower_is_read_by_the_reader_within_the_bonus_mass():
    # the classifier: plum 0.5, spring 0.3 (bonus mass 0.8); the reader is sure of spring
    p = probs(f1=0.5, j1=0.3, **{"1s": 0.2})
    out = br.reweigh(p, reader(j1=0.95, f1=0.04, other=0.01), weight=0.7, mass=0.0)[0]
    assert KINDS[int(out.argmax())] == "j1"
    assert out.sum() == pytest.approx(1.0)
    assert out[br.BONUS_INDEX].sum() == pytest.approx(br.bonus_mass(p)[0])      # mass 0: the bonus share is kept
    assert out[KINDS.index("1s")] == pytest.approx(p[0, KINDS.index("1s")], rel=1e-3)


def test_mass_moves_the_bonus_share_towards_the_readers():
    p = probs(f2=0.4, **{"2s": 0.6})
    r = reader(f2=0.9, other=0.1)
    out = br.reweigh(p, r, weight=0.5, mass=0.5)[0]
    assert out[br.BONUS_INDEX].sum() == pytest.approx(0.5 * br.bonus_mass(p)[0] + 0.5 * (1 - r[0, 8]))
    assert KINDS[int(out.argmax())] == "f2"
    # a reader that says "no bonus tile" pulls the share down instead
    r = reader(other=0.99)
    out = br.reweigh(p, r, weight=0.5, mass=0.5)[0]
    assert out[br.BONUS_INDEX].sum() == pytest.approx(0.5 * br.bonus_mass(p)[0] + 0.5 * (1 - r[0, 8]))
    assert KINDS[int(out.argmax())] == "2s"


def test_only_crops_past_the_gate_are_asked(monkeypatch):
    asked = []

    def fake_read(crops, model, turns=(0, 1, 2, 3)):
        asked.append(len(crops))
        return np.tile(reader(j3=0.9, other=0.1), (len(crops), 1))

    monkeypatch.setattr(br, "read_bonus", fake_read)
    p = np.concatenate([probs(**{"5p": 0.99}), probs(f3=0.5, j3=0.4)])
    crops = np.zeros((2, 64, 64, 3), np.uint8)
    out = br.with_bonus_reader(p, crops, {"model": "x.onnx", "gate": 0.05, "weight": 1.0, "mass": 0.0})
    assert asked == [1]
    assert np.allclose(out[0], p[0])
    assert KINDS[int(out[1].argmax())] == "j3"
    assert br.with_bonus_reader(p, crops, {}) is p          # no reader configured: untouched
