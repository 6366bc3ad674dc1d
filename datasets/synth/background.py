"""Procedural table surfaces: wood, felt, cloth weave, plain with noise, tablecloth patterns,
marble/stone, and a felt mat with a border lying on wood."""

from __future__ import annotations

import numpy as np

KINDS = ["wood", "felt", "cloth", "plain", "pattern", "stone", "mat"]

FELT = [(30, 110, 60), (25, 80, 50), (30, 60, 120), (110, 30, 35), (60, 60, 60), (20, 90, 95), (90, 40, 110)]
WOOD = [(150, 100, 60), (110, 70, 40), (190, 150, 100), (80, 50, 30), (205, 175, 130)]
PLAIN = [(235, 235, 230), (200, 200, 195), (60, 60, 62), (230, 220, 200), (170, 190, 200), (40, 40, 45), (215, 205, 185)]


def _noise(rng, h, w, scale, octaves=3):
    """Smooth value noise in 0..1."""
    import cv2

    out = np.zeros((h, w), np.float32)
    amp, total = 1.0, 0.0
    for o in range(octaves):
        s = max(2, int(scale * (2 ** o)))
        small = rng.random((max(2, h // s + 2), max(2, w // s + 2))).astype(np.float32)
        out += amp * cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)[:h, :w]
        total += amp
        amp *= 0.5
    return np.clip(out / total, 0, 1)


def _colour(rng, palette):
    c = np.array(palette[int(rng.integers(len(palette)))], np.float32)
    return np.clip(c + rng.uniform(-20, 20, 3), 0, 255)


def wood(rng, h, w):
    import cv2

    base = _colour(rng, WOOD)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = rng.uniform(0, np.pi)
    coord = xx * np.cos(a) + yy * np.sin(a)
    across = -xx * np.sin(a) + yy * np.cos(a)
    warp = _noise(rng, h, w, 40, 2) * rng.uniform(10, 40)
    freq = rng.uniform(0.05, 0.25)
    grain = 0.5 + 0.5 * np.sin((across + warp) * freq + np.sin(coord * 0.01) * 2)
    fine = _noise(rng, h, w, 3, 1)
    shade = 0.8 + 0.25 * grain + 0.08 * (fine - 0.5)
    img = base[None, None, :] * shade[..., None]
    if rng.random() < 0.5:  # planks
        pw = rng.uniform(60, 200)
        seam = (np.abs(((across / pw) % 1.0) - 0.5) > 0.49).astype(np.float32)
        img *= (1 - 0.35 * cv2.GaussianBlur(seam, (3, 3), 0))[..., None]
    return img


def felt(rng, h, w):
    base = _colour(rng, FELT)
    n = _noise(rng, h, w, 2, 2)
    low = _noise(rng, h, w, 60, 2)
    return base[None, None, :] * (0.85 + 0.2 * n + 0.15 * (low - 0.5))[..., None]


def cloth(rng, h, w):
    base = _colour(rng, FELT + PLAIN + WOOD)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    p = rng.uniform(2, 6)
    weave = 0.5 + 0.25 * np.sin(xx * np.pi / p) * np.sin(yy * np.pi / p)
    folds = _noise(rng, h, w, 80, 2)
    return base[None, None, :] * (0.8 + 0.2 * weave + 0.25 * (folds - 0.5))[..., None]


def plain(rng, h, w):
    base = _colour(rng, PLAIN + FELT)
    return base[None, None, :] * (0.95 + 0.1 * _noise(rng, h, w, 4, 2))[..., None]


def pattern(rng, h, w):
    c1, c2 = _colour(rng, PLAIN + FELT + WOOD), _colour(rng, PLAIN + FELT)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = rng.uniform(0, np.pi)
    u, v = xx * np.cos(a) + yy * np.sin(a), -xx * np.sin(a) + yy * np.cos(a)
    s = rng.uniform(15, 80)
    if rng.random() < 0.5:
        m = ((np.floor(u / s) + np.floor(v / s)) % 2)
    else:
        m = (np.floor(u / s) % 2)
    img = c1[None, None, :] * (1 - m[..., None]) + c2[None, None, :] * m[..., None]
    return img * (0.93 + 0.1 * _noise(rng, h, w, 3, 1))[..., None]


def stone(rng, h, w):
    base = _colour(rng, PLAIN)
    n = _noise(rng, h, w, 30, 4)
    veins = np.abs(np.sin(n * rng.uniform(15, 30)))
    return base[None, None, :] * (0.8 + 0.2 * veins + 0.05 * _noise(rng, h, w, 2, 1))[..., None]


def mat(rng, h, w):
    """A felt mat with a border lying on a wooden table."""
    import cv2

    img = wood(rng, h, w)
    inner = felt(rng, h, w)
    mask = np.zeros((h, w), np.float32)
    m = rng.uniform(-0.2, 0.25, 4) * np.array([w, h, w, h])
    x0, y0, x1, y1 = int(m[0]), int(m[1]), int(w - m[2]), int(h - m[3])
    cv2.rectangle(mask, (x0, y0), (x1, y1), 1.0, -1)
    border = np.zeros_like(mask)
    bw = int(rng.integers(3, 12))
    cv2.rectangle(border, (x0, y0), (x1, y1), 1.0, bw)
    mask = cv2.GaussianBlur(mask, (5, 5), 0)
    out = img * (1 - mask[..., None]) + inner * mask[..., None]
    bc = _colour(rng, [(200, 170, 60), (30, 30, 30), (220, 220, 210), (120, 20, 20)])
    return out * (1 - border[..., None]) + bc[None, None, :] * border[..., None]


def table(rng: np.random.Generator, h: int, w: int, kind: str | None = None) -> tuple[np.ndarray, str]:
    """A float32 RGB table surface (0..255) and its kind name."""
    kind = kind or KINDS[int(rng.integers(len(KINDS)))]
    img = globals()[kind](rng, h, w)
    return np.clip(img, 0, 255).astype(np.float32), kind


def distractors(img: np.ndarray, rng: np.random.Generator) -> list[str]:
    """Things that lie around in real photos, drawn on the table before the tiles: a score
    sheet with lines of writing, a phone, a book or box, a cup seen from above, a hand.
    Modifies ``img`` (float RGB) in place; returns what was drawn."""
    import cv2

    h, w = img.shape[:2]
    drawn = []
    for _ in range(int(rng.integers(1, 4))):
        what = ["paper", "phone", "book", "cup", "hand"][int(rng.integers(5))]
        cx, cy = float(rng.uniform(0, w)), float(rng.uniform(0, h))
        angle = float(rng.uniform(0, 180))
        s = float(rng.uniform(0.15, 0.45)) * max(h, w)
        if what in ("paper", "phone", "book"):
            aspect = {"paper": 1.41, "phone": 2.0, "book": 1.3}[what]
            box = cv2.boxPoints(((cx, cy), (s / aspect, s), angle)).astype(np.float32)
            colour = {"paper": (235, 235, 228), "phone": (20, 20, 25),
                      "book": tuple(rng.uniform(30, 220, 3))}[what]
            cv2.fillConvexPoly(img, np.round(box * 16).astype(np.int32), tuple(float(c) for c in colour),
                               cv2.LINE_AA, 4)
            if what == "paper":  # lines of writing
                direction = (box[1] - box[0]) / max(np.linalg.norm(box[1] - box[0]), 1)
                across = (box[3] - box[0]) / 12
                for k in range(1, 11):
                    a = box[0] + across * k + direction * s * 0.05
                    b = a + direction * float(rng.uniform(0.2, 0.6)) * s / 1.41
                    cv2.line(img, tuple(int(v) for v in a), tuple(int(v) for v in b), (60, 60, 90), 1, cv2.LINE_AA)
        elif what == "cup":
            r = int(s * 0.25)
            colour = tuple(float(c) for c in rng.uniform(40, 240, 3))
            cv2.circle(img, (int(cx), int(cy)), r, colour, -1, cv2.LINE_AA)
            cv2.circle(img, (int(cx), int(cy)), int(r * 0.82), (70, 40, 25), -1, cv2.LINE_AA)
        else:  # a hand: palm and fingers in a skin tone
            skin = [(224, 172, 140), (198, 134, 96), (141, 85, 36), (255, 219, 172)][int(rng.integers(4))]
            colour = tuple(float(c) for c in skin)
            cv2.ellipse(img, (int(cx), int(cy)), (int(s * 0.22), int(s * 0.28)), angle, 0, 360, colour, -1, cv2.LINE_AA)
            for k in range(4):
                a = np.radians(angle - 90 + (k - 1.5) * 14)
                fx, fy = cx + np.cos(a) * s * 0.38, cy + np.sin(a) * s * 0.38
                cv2.ellipse(img, (int(fx), int(fy)), (int(s * 0.05), int(s * 0.16)), np.degrees(a) + 90, 0, 360,
                            colour, -1, cv2.LINE_AA)
        drawn.append(what)
    return drawn
