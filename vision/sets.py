"""Taught sets on disk: one ``NAME.npz`` each in the user data folder
(``platformdirs.user_data_dir("mjscore")/sets``, or ``$MJSCORE_DATA_DIR/sets``).

A set file keeps every taught tile (its feature, kind, the general classifier's read of it,
the photo it came from) and the head's chosen settings, so a later ``teach`` adds tiles
and chooses again. Files are written atomically (tmp + os.replace); a file that cannot be
read, or was taught with another classifier, is refused with a clear error, never half read."""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..errors import InputError, NotFoundError, UnavailableError
from . import models
from .kinds import KINDS
from .teach import Head, choose, head_for

FORMAT = 1
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


@dataclass(frozen=True)
class Lessons:
    """Taught tiles: N features (N x D), kind indices, general probabilities (N x 43), photo
    ids, and how each label box sat on the detector's box (N x 4, NaN where not found;
    lessons.box_fit)."""
    feats: np.ndarray
    labels: np.ndarray
    general: np.ndarray
    groups: np.ndarray
    fits: np.ndarray

    def plus(self, other: "Lessons") -> "Lessons":
        shift = int(self.groups.max()) + 1 if len(self.groups) else 0
        return Lessons(np.concatenate([self.feats, other.feats]), np.concatenate([self.labels, other.labels]),
                       np.concatenate([self.general, other.general]),
                       np.concatenate([self.groups, other.groups + shift]), np.concatenate([self.fits, other.fits]))

    def box_fit(self) -> np.ndarray | None:
        """Median shift and side ratios of the player's boxes on the detector's (None: no
        label matched a detection); applied to the boxes a scan with the set reports."""
        ok = np.isfinite(self.fits).all(axis=1)
        return np.median(self.fits[ok], axis=0) if ok.sum() >= 3 else None


@dataclass(frozen=True)
class TaughtSet:
    name: str
    lessons: Lessons
    head: Head
    sources: tuple[str, ...]     # what it was taught from (folders, sheets)

    def tiles_per_kind(self) -> dict[str, int]:
        kinds, counts = np.unique(self.lessons.labels, return_counts=True)
        return {KINDS[int(k)]: int(c) for k, c in zip(kinds, counts)}


def data_dir() -> Path:
    env = os.environ.get("MJSCORE_DATA_DIR")
    if env:
        return Path(env).expanduser()
    import platformdirs
    return Path(platformdirs.user_data_dir("mjscore"))


def sets_dir() -> Path:
    return data_dir() / "sets"


def check_name(name: str | None) -> str:
    if not name or not NAME_RE.match(name):
        raise InputError(f"set name {name!r}: use 1-64 letters, digits, '.', '_' or '-' (e.g. --name home)")
    return name


def set_path(name: str) -> Path:
    return sets_dir() / f"{check_name(name)}.npz"


@lru_cache(maxsize=None)
def classifier_id() -> str:
    """Fingerprint of the crop classifier: features of another classifier mean nothing."""
    return hashlib.sha256((models.MODELS_DIR / models.CLASSIFIER).read_bytes()).hexdigest()[:16]


def save_set(s: TaughtSet) -> Path:
    """Write a set atomically; returns its path."""
    path = set_path(s.name)
    path.parent.mkdir(parents=True, exist_ok=True)
    meta = {"format": FORMAT, "name": s.name, "classifier": classifier_id(), "scale": s.head.scale,
            "weight": s.head.weight, "gate": list(s.head.gate), "photo_gate": s.head.photo_gate, "sources": list(s.sources)}
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as fh:
        np.savez_compressed(fh, feats=s.lessons.feats.astype(np.float16), labels=s.lessons.labels.astype(np.int16),
                            general=s.lessons.general.astype(np.float16), groups=s.lessons.groups.astype(np.int32),
                            fits=s.lessons.fits.astype(np.float32),
                            meta=np.frombuffer(json.dumps(meta).encode(), np.uint8))
    os.replace(tmp, path)
    return path


def _read(path: Path, name: str) -> TaughtSet:
    try:
        with np.load(path, allow_pickle=False) as z:
            meta = json.loads(bytes(z["meta"]).decode())
            feats, labels = z["feats"].astype(np.float32), z["labels"].astype(np.int64)
            general, groups = z["general"].astype(np.float32), z["groups"].astype(np.int64)
            fits = z["fits"].astype(np.float64)
        n = len(labels)
        ok = (meta.get("format") == FORMAT and n > 0 and feats.ndim == 2 and feats.shape[0] == n
              and general.shape == (n, len(KINDS)) and groups.shape == (n,) and fits.shape == (n, 4)
              and labels.min() >= 0 and labels.max() < len(KINDS) and np.isfinite(feats).all())
        head_cfg = (float(meta["scale"]), float(meta["weight"]), tuple(float(v) for v in meta["gate"]),
                    float(meta["photo_gate"]))
    except Exception as exc:                       # any damage: zip, npz member, JSON, keys
        raise UnavailableError(f"set {name!r} ({path}) is damaged and cannot be read ({type(exc).__name__}); "
                               f"remove it with 'mjscore sets remove {name}' and teach it again") from None
    if not ok:
        raise UnavailableError(f"set {name!r} ({path}) is damaged (inconsistent contents); "
                               f"remove it with 'mjscore sets remove {name}' and teach it again")
    if meta.get("classifier") != classifier_id():
        raise UnavailableError(f"set {name!r} was taught with another tile classifier; teach it again "
                               f"from its photos (mjscore teach ... --name {name})")
    feats = feats / (np.linalg.norm(feats, axis=1, keepdims=True) + 1e-8)
    head = head_for(feats, labels, *head_cfg)
    return TaughtSet(name, Lessons(feats, labels, general, groups, fits), head, tuple(meta.get("sources", ())))


@lru_cache(maxsize=8)
def _load(path: str, mtime_ns: int, name: str) -> TaughtSet:
    return _read(Path(path), name)


def load_set(name: str) -> TaughtSet:
    """A taught set by name (cached per process while the file is unchanged).
    NotFoundError when there is none."""
    path = set_path(name)
    if not path.exists():
        known = ", ".join(list_sets()) or "none yet"
        raise NotFoundError(f"no taught set {name!r} (known: {known}; teach one with mjscore teach DIR --name {name})")
    return _load(str(path), path.stat().st_mtime_ns, name)


def list_sets() -> list[str]:
    d = sets_dir()
    return sorted(p.stem for p in d.glob("*.npz")) if d.is_dir() else []


def remove_set(name: str) -> None:
    path = set_path(name)
    if not path.exists():
        raise NotFoundError(f"no taught set {name!r}")
    path.unlink()


def taught(name: str, lessons: Lessons, sources: tuple[str, ...]) -> TaughtSet:
    """A set learned from its tiles (head chosen by cross-validation, vision.teach.choose)."""
    if not len(lessons.labels):
        raise InputError(f"set {name!r}: nothing to learn from (no labelled tiles)")
    feats = lessons.feats / (np.linalg.norm(lessons.feats, axis=1, keepdims=True) + 1e-8)
    head = choose(feats, lessons.labels, lessons.general, lessons.groups)
    return TaughtSet(check_name(name), lessons, head, sources)
