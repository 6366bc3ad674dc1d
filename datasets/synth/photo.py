"""Camera and lighting effects applied to a rendered scene: lighting gradients, vignetting,
glare, colour cast, blur (focus and motion), sensor noise and JPEG artefacts.  None of them
moves anything, so labels stay exact."""

from __future__ import annotations

import numpy as np


def lighting(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    import cv2

    h, w = img.shape[:2]
    gain = _gain_field(rng, 64, 64)  # smooth: compute small, then resize
    return img * cv2.resize(gain, (w, h), interpolation=cv2.INTER_LINEAR)[..., None]


def _gain_field(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = rng.uniform(0, 2 * np.pi)
    ramp = ((xx - w / 2) * np.cos(a) + (yy - h / 2) * np.sin(a)) / max(h, w)
    gain = 1.0 + rng.uniform(0.0, 0.6) * ramp
    if rng.random() < 0.5:  # vignetting
        r = np.hypot(xx - w / 2, yy - h / 2) / (0.7 * max(h, w))
        gain *= 1.0 - rng.uniform(0.1, 0.45) * r ** 2
    exposure = rng.uniform(0.6, 1.25)
    return (gain * exposure).astype(np.float32)


def colour_cast(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    warm = rng.uniform(-0.15, 0.15)
    cast = np.array([1 + warm, 1.0, 1 - warm], np.float32) * rng.uniform(0.95, 1.05, 3).astype(np.float32)
    out = img * cast.astype(np.float32)
    if rng.random() < 0.3:  # desaturate
        grey = out.mean(axis=2, keepdims=True)
        s = rng.uniform(0.3, 0.9)
        out = grey + (out - grey) * s
    return out


def glare(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    out = img
    for _ in range(int(rng.integers(1, 3))):
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        sx, sy = rng.uniform(0.03, 0.25) * w, rng.uniform(0.03, 0.25) * h
        blob = np.exp(-(((xx - cx) / sx) ** 2 + ((yy - cy) / sy) ** 2))
        out = out + blob[..., None] * rng.uniform(30, 110)
    return out


def blur(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    import cv2

    if rng.random() < 0.6:
        s = rng.uniform(0.4, 1.8)
        return cv2.GaussianBlur(img, (0, 0), s)
    k = int(rng.integers(3, 9))
    kernel = np.zeros((k, k), np.float32)
    kernel[k // 2, :] = 1.0 / k
    rot = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), rng.uniform(0, 180), 1.0)
    kernel = cv2.warpAffine(kernel, rot, (k, k))
    kernel /= max(kernel.sum(), 1e-6)
    return cv2.filter2D(img, -1, kernel)


def noise(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    sigma = np.float32(rng.uniform(1, 9))
    n = rng.standard_normal(img.shape[:2] + (1,), dtype=np.float32) * sigma
    if rng.random() < 0.5:
        n = n + rng.standard_normal(img.shape, dtype=np.float32) * (sigma * np.float32(0.5))
    return img + n


def jpeg(img_u8: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    import cv2

    q = int(rng.integers(25, 95))
    ok, buf = cv2.imencode(".jpg", img_u8[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, q])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)[..., ::-1]


def apply(img: np.ndarray, rng: np.random.Generator, strength: float = 1.0) -> np.ndarray:
    """Float RGB (0..255) in, uint8 RGB out.  ``strength`` 0 switches everything off."""
    if strength > 0:
        img = lighting(img, rng)
        img = colour_cast(img, rng)
        if rng.random() < 0.15 * strength:
            img = glare(img, rng)
        if rng.random() < 0.5 * strength:
            img = blur(img, rng)
        if rng.random() < 0.7 * strength:
            img = noise(img, rng)
        if rng.random() < 0.15:  # gamma
            img = 255.0 * (np.clip(img, 0, 255) / 255.0) ** rng.uniform(0.7, 1.4)
    out = np.clip(img, 0, 255).astype(np.uint8)
    if strength > 0 and rng.random() < 0.6:
        out = jpeg(out, rng)
    return np.ascontiguousarray(out)
