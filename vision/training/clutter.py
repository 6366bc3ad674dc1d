"""Things on and around a table that are not tiles, pasted into the detector's training views.

Why (session 19): a detector fine-tuned to find standing and big tiles also found book spines,
a printed manual and a boxed card on a shelf behind the table: tall light rectangles with dark
marks, the size of the tiles in front. Neither the real training photos (chinese-v4: tiles on
a table, nothing else) nor the synthetic scenes show such things, so nothing taught the
detector that they are background. Here they are drawn procedurally, with OpenCV's own Hershey
fonts (no machine fonts), at the size of the view's tiles, never over a tile:

- a row of book spines on a shelf: strips of any colour, light ones included, with a title
  running along the spine, bands, and a shelf edge;
- printed sheets and boxed cards: light rectangles with many lines of small print, a heading,
  sometimes a logo block.

A tile's face shows one glyph or a few large pips centred in a bordered face on a thick body;
the clutter shows many small marks or long titles, which is what it must learn to tell apart.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
         cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_PLAIN, cv2.FONT_HERSHEY_SCRIPT_SIMPLEX)
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789  "


def _words(rng: np.random.Generator, n: int) -> str:
    return "".join(LETTERS[i] for i in rng.integers(len(LETTERS), size=n)).strip() or "A"


def _colour(rng: np.random.Generator, light: bool) -> tuple[int, int, int]:
    if light:
        return tuple(int(v) for v in rng.integers(200, 256, 3))
    hsv = np.uint8([[[rng.integers(180), rng.integers(40, 256), rng.integers(40, 230)]]])
    return tuple(int(v) for v in cv2.cvtColor(hsv, cv2.COLOR_HSV2RGB)[0, 0])


def _ink(rng: np.random.Generator, paper: tuple[int, int, int]) -> tuple[int, int, int]:
    if np.mean(paper) > 128:
        return tuple(int(v) for v in rng.integers(0, 110, 3))
    return tuple(int(v) for v in rng.integers(170, 256, 3))


def _text_block(rng, w: int, h: int, paper, lines: int, heading: bool) -> np.ndarray:
    """A ``h`` x ``w`` light or dark sheet with ``lines`` lines of print filling its width."""
    img = np.full((h, w, 3), paper, np.uint8)
    ink = _ink(rng, paper)
    font = FONTS[int(rng.integers(len(FONTS)))]
    line_h = max(3, h // (lines + 2))
    scale = max(0.15, cv2.getFontScaleFromHeight(font, max(2, int(line_h * 0.7))))
    y = line_h
    if heading:
        big = scale * rng.uniform(1.5, 2.5)
        cv2.putText(img, _words(rng, int(rng.integers(3, 12))), (int(w * rng.uniform(0.05, 0.3)), int(y + line_h)),
                    font, big, ink, max(1, int(big * 2)), cv2.LINE_AA)
        y += int(line_h * 2.5)
    while y < h - line_h // 2:
        cv2.putText(img, _words(rng, int(rng.integers(20, 60))), (int(w * 0.06), y), font, scale, ink,
                    1, cv2.LINE_AA)
        y += line_h
    if rng.random() < 0.3:   # a logo or picture block
        bw, bh = int(w * rng.uniform(0.2, 0.5)), int(h * rng.uniform(0.1, 0.3))
        x0, y0 = int(rng.integers(0, max(1, w - bw))), int(rng.integers(0, max(1, h - bh)))
        cv2.rectangle(img, (x0, y0), (x0 + bw, y0 + bh), _colour(rng, False), -1)
    return img


def sheet(rng: np.random.Generator, tile_w: float, tile_h: float) -> np.ndarray:
    """A printed sheet, manual or boxed card: 1-4 tiles wide, light or dark, many lines."""
    w = int(tile_w * rng.uniform(1.0, 4.0))
    h = int(w * rng.uniform(0.6, 1.6))
    light = rng.random() < 0.7
    img = _text_block(rng, w, h, _colour(rng, light), int(rng.integers(4, 24)), rng.random() < 0.6)
    if rng.random() < 0.5:   # a frame, as a box or a card has
        cv2.rectangle(img, (0, 0), (w - 1, h - 1), _ink(rng, _colour(rng, light)), max(1, w // 40))
    return img


def book_row(rng: np.random.Generator, tile_w: float, tile_h: float) -> np.ndarray:
    """Book spines side by side on a shelf: each about a tile wide and 1.5-4 tiles tall."""
    n = int(rng.integers(3, 12))
    widths = (tile_w * rng.uniform(0.35, 1.4, n)).astype(int).clip(3)
    heights = (tile_h * rng.uniform(1.3, 4.0) * rng.uniform(0.8, 1.2, n)).astype(int).clip(6)
    shelf = int(max(3, tile_h * rng.uniform(0.05, 0.3)))
    H, W = int(heights.max()) + shelf, int(widths.sum())
    img = np.full((H, W, 3), _colour(rng, False), np.uint8)
    x = 0
    for bw, bh in zip(widths, heights):
        spine = _colour(rng, rng.random() < 0.35)
        s = np.full((bh, bw, 3), spine, np.uint8)
        ink = _ink(rng, spine)
        # the title runs along the spine: written across a (bw x bh) strip turned upright
        title = np.full((bw, bh, 3), spine, np.uint8)
        font = FONTS[int(rng.integers(len(FONTS)))]
        scale = max(0.15, cv2.getFontScaleFromHeight(font, max(2, int(bw * rng.uniform(0.3, 0.6)))))
        cv2.putText(title, _words(rng, int(rng.integers(4, 20))), (int(bh * rng.uniform(0.02, 0.3)), int(bw * 0.7)),
                    font, scale, ink, 1, cv2.LINE_AA)
        s[:] = np.rot90(title, 1 if rng.random() < 0.5 else 3)
        for _ in range(int(rng.integers(0, 3))):   # bands across the spine
            y0 = int(rng.integers(0, bh))
            s[y0:y0 + max(1, bh // 20)] = _colour(rng, rng.random() < 0.5)
        img[H - shelf - bh:H - shelf, x:x + bw] = s
        x += bw
    img[H - shelf:] = _colour(rng, False)
    return img


def paste_clutter(view: np.ndarray, boxes: np.ndarray, rng: np.random.Generator, count: int) -> np.ndarray:
    """``view`` with up to ``count`` clutter objects pasted where they cover no tile box (a copy).
    Sized by the view's tiles (median box), or at random when the view has none."""
    out = view.copy()
    vh, vw = view.shape[:2]
    if len(boxes):
        tile_w = float(np.median(boxes[:, 2] - boxes[:, 0]))
        tile_h = float(np.median(boxes[:, 3] - boxes[:, 1]))
    else:
        tile_w = vw * math.exp(rng.uniform(math.log(0.03), math.log(0.3)))
        tile_h = tile_w * rng.uniform(1.1, 1.5)
    tile_w, tile_h = max(tile_w, 4.0), max(tile_h, 5.0)
    for _ in range(count):
        patch = (book_row if rng.random() < 0.5 else sheet)(rng, tile_w, tile_h)
        if rng.random() < 0.5:   # seen a little turned
            a = rng.normal(0, 8)
            ph, pw = patch.shape[:2]
            m = cv2.getRotationMatrix2D((pw / 2, ph / 2), a, 1.0)
            patch = cv2.warpAffine(patch, m, (pw, ph), borderMode=cv2.BORDER_REPLICATE)
        ph, pw = patch.shape[:2]
        if ph < 4 or pw < 4:
            continue
        for _try in range(8):
            x0 = int(rng.integers(-pw // 3, max(1, vw - 2 * pw // 3)))
            y0 = int(rng.integers(-ph // 3, max(1, vh - 2 * ph // 3)))
            x1, y1 = x0 + pw, y0 + ph
            margin = 2
            if len(boxes) and ((boxes[:, 0] < x1 + margin) & (boxes[:, 2] > x0 - margin)
                               & (boxes[:, 1] < y1 + margin) & (boxes[:, 3] > y0 - margin)).any():
                continue
            cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, vw), min(y1, vh)
            if cx1 - cx0 < 2 or cy1 - cy0 < 2:
                break
            region = patch[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0].astype(np.float32)
            # the scene's light: match the view's brightness a little
            region *= rng.uniform(0.6, 1.1)
            out[cy0:cy1, cx0:cx1] = region.clip(0, 255).astype(np.uint8)
            break
    return out
