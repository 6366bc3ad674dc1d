"""Fresh procedural flower/season crops rendered by worker processes while the classifier trains.

Why: a fixed cache of ``bonus_faces`` crops is learnt by heart long before the network has
learnt the cues every set shares (the corner index, 梅蘭菊竹 / 春夏秋冬); on a machine with many
cores the source can instead render new faces all the time. Workers render small chunks from
their own seeds; the trainer draws a batch's bonus share from a ring buffer of the newest
crops, so a slow renderer only means each crop is seen a few more times, never a stall.
"""

from __future__ import annotations

import multiprocessing as mp
from pathlib import Path

import numpy as np

_FACES: list | None = None
_SIZE = 0
_VARIED = False


def _init(bank: str, size: int, varied: bool = False) -> None:
    global _FACES, _SIZE, _VARIED
    from . import crop_bank

    crop_bank.use_fonts(Path(bank))
    _FACES, _SIZE, _VARIED = crop_bank.load_faces(Path(bank)), size, varied


def _render(seed: int):
    from .bonus_faces import render_bonus_crops

    return render_bonus_crops(4, _SIZE, None, seed=seed, faces=_FACES)


def _render_live(seed: int):
    """What the ring buffer gets: bonus crops, or with ``varied`` every other chunk the design
    grammar's suit and honour faces (``varied_faces``, session 36)."""
    if _VARIED and seed % 2:
        from .varied_crops import render_varied_crops

        return render_varied_crops(1, _SIZE, seed=seed, faces=_FACES)
    return _render(seed)


def _render_art(seed: int):
    from .art import render_crops

    return render_crops(3, _SIZE, None, seed=seed, faces=_FACES)


class LiveBonus:
    """A pool of ``workers`` rendering bonus crops (side ``size``) into a ring buffer; with
    ``varied`` half the chunks are the design grammar's suit and honour crops."""

    def __init__(self, bank: Path, size: int, workers: int, capacity: int = 40000, seed: int = 10 ** 6,
                 varied: bool = False):
        ctx = mp.get_context("spawn")
        self.pool = ctx.Pool(workers, initializer=_init, initargs=(str(bank), size, varied))
        self.pending: list = []
        self.seed = seed
        self.x = np.zeros((capacity, size, size, 3), np.uint8)
        self.y = np.zeros(capacity, np.int64)
        self.filled = 0
        self.cursor = 0
        self.rendered = 0
        self.depth = workers * 3
        self._top_up()

    def _top_up(self) -> None:
        while len(self.pending) < self.depth:
            self.pending.append(self.pool.apply_async(_render_live, (self.seed,)))
            self.seed += 1

    def _collect(self, block: bool = False) -> None:
        if block:
            self.pending[0].wait()
        keep = []
        for res in self.pending:
            if res.ready():
                x, y = res.get()
                slots = (self.cursor + np.arange(len(y))) % len(self.y)
                self.x[slots], self.y[slots] = x, y
                self.cursor = int(slots[-1] + 1) % len(self.y)
                self.filled = min(self.filled + len(y), len(self.y))
                self.rendered += len(y)
            else:
                keep.append(res)
        self.pending = keep
        self._top_up()

    def take(self, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """``n`` crops and labels drawn from the buffer (waits until it holds 4n)."""
        self._collect()
        while self.filled < 4 * n:
            self._collect(block=True)
        idx = rng.integers(0, self.filled, n)
        return self.x[idx], self.y[idx]

    def _gather(self, render, seeds: range) -> tuple[np.ndarray, np.ndarray]:
        parts = self.pool.map(render, seeds)
        return np.concatenate([x for x, _ in parts]), np.concatenate([y for _, y in parts])

    def fixed_set(self, chunks: int = 40, seed: int = 10 ** 8) -> tuple[np.ndarray, np.ndarray]:
        """Crops of seeds the buffer never draws (``seed`` on): a fixed set to measure on."""
        return self._gather(_render, range(seed, seed + chunks))

    def art_set(self, chunks: int = 40, seed: int = 2) -> tuple[np.ndarray, np.ndarray]:
        """Upright art crops of every kind and backs (``art.render_crops``, 3 per kind a chunk),
        the bank's stand-in for the cached ``cls_art_v2`` crops."""
        return self._gather(_render_art, range(seed * 10 ** 6, seed * 10 ** 6 + chunks))

    def close(self) -> None:
        self.pool.terminate()
