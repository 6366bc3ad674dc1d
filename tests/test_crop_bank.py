"""The crop bank that carries the classifier's training crops to a lent GPU machine
(``vision.training.crop_bank``) and the live flower/season renderer that reads it
(``vision.training.live_bonus``). No torch, no machine fonts: the bank's fonts folder is empty
here, so the faces fall back to Pillow's own font."""

from pathlib import Path

import numpy as np
from PIL import Image

from mjscore.vision.kinds import KIND_INDEX, KINDS
from mjscore.vision.training import crop_bank
from mjscore.vision.training.bonus_faces import BONUS_KINDS
from mjscore.vision.training.live_bonus import LiveBonus

FACES = Path(__file__).resolve().parents[1] / "datasets" / "art" / "faces" / "fluffystuff"


def _crops(n: int, seed: int = 0) -> np.ndarray:
    """Smooth crops (JPEG/WebP keep them close), each its own colour ramp."""
    rng = np.random.default_rng(seed)
    ramp = np.linspace(0, 1, 40)[None, :, None]
    return np.stack([(rng.uniform(40, 200, 3) * (0.6 + 0.4 * ramp) * np.ones((40, 1, 1))).astype(np.uint8)
                     for _ in range(n)])


def test_crops_come_back_from_the_bank_close_to_what_went_in_and_smaller():
    x = _crops(12)
    data, offsets = crop_bank.encode(x)
    assert len(offsets) == 13 and offsets[-1] == len(data) < x.nbytes / 3
    back = crop_bank.decode(data, offsets)
    assert back.shape == x.shape
    assert np.abs(back.astype(int) - x.astype(int)).mean() < 3      # RGB order kept, lossy but close


def _bank(tmp_path: Path) -> Path:
    """A bank as ``pack`` writes it, from hand-made parts: real (source 0), synthetic (2),
    valid and one choice folder, the repository's FluffyStuff faces and no fonts."""
    arrays = {}
    parts = {"real": (5, 0, ""), "synth0": (4, 2, "train_v23"), "valid": (3, 0, ""), "choose0": (2, 2, "synth_choose")}
    for i, (prefix, (n, src, folder)) in enumerate(parts.items()):
        data, off = crop_bank.encode(_crops(n, seed=i))
        arrays.update({f"{prefix}_webp": data, f"{prefix}_off": off, f"{prefix}_y": np.arange(n) + 10 * i,
                       f"{prefix}_src": np.full(n, src),
                       f"{prefix}_folder": np.array([folder] * n)})
    np.savez(tmp_path / "crops.npz", **arrays)
    faces = [(p.stem, np.array(Image.open(p).convert("RGBA").resize((90, 120)))) for p in sorted(FACES.glob("*.png"))[:6]]
    np.savez_compressed(tmp_path / "faces.npz", tokens=np.array([t for t, _ in faces]),
                        faces=np.stack([f for _, f in faces]))
    (tmp_path / "fonts").mkdir()
    return tmp_path


def test_bank_loads_as_training_parts_valid_and_choice_sets(tmp_path):
    (x, y, orient, src, folder), (vx, vy), choose = crop_bank.load(_bank(tmp_path))
    # training parts in name order (real, synth0), never the valid or choice crops
    assert len(y) == 9 and sorted(y.tolist()) == [0, 1, 2, 3, 4, 10, 11, 12, 13]
    assert sorted(src.tolist()) == [0] * 5 + [2] * 4 and (orient == -1).all()
    assert set(folder[src == 2]) == {"train_v23"}
    assert x.shape == (9, 40, 40, 3) and vx.shape == (3, 40, 40, 3) and vy.tolist() == [20, 21, 22]
    assert list(choose) == ["synth_choose"] and choose["synth_choose"][1].tolist() == [30, 31]
    assert [t for t, _ in crop_bank.load_faces(tmp_path)] == sorted(p.stem for p in FACES.glob("*.png"))[:6]


def test_live_bonus_renders_flowers_seasons_and_counter_examples_from_the_bank(tmp_path):
    live = LiveBonus(_bank(tmp_path), size=32, workers=1, capacity=200)
    try:
        x, y = live.take(40, np.random.default_rng(0))
        assert x.shape == (40, 32, 32, 3) and x.dtype == np.uint8
        names = {KINDS[i] for i in live.y[:live.filled]}
        assert set(BONUS_KINDS) <= names                          # every flower and season
        assert names - set(BONUS_KINDS) <= {t for t, _ in crop_bank.load_faces(tmp_path)}   # indexed art faces
        fx, fy = live.fixed_set(chunks=2)
        again = live.fixed_set(chunks=2)
        assert (fx == again[0]).all() and (fy == again[1]).all()   # a fixed set: same seeds, same crops
        assert sorted(fy.tolist()).count(KIND_INDEX["f1"]) == 8    # 4 a kind a chunk
        ax, ay = live.art_set(chunks=1)
        assert {KINDS[i] for i in ay} == {t for t, _ in crop_bank.load_faces(tmp_path)} | {"X"}
    finally:
        live.close()
