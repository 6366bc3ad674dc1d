"""Reading with a taught set: the general classifier's kind probabilities mixed with how
close a crop is to the tiles the player taught (``mjscore teach``, docs/teach.md).

Features: the classifier's neck embedding of a crop in its 4 quarter turns, each L2-normed,
averaged and normed again, so a tile's feature does not depend on how it lies. Head: the
taught tiles' features, and one prototype per kind (the normed mean) for the gate; the set's probability
of kind k is softmax(scale x cosine to the nearest taught tile of kind k) over the taught
kinds (nearest neighbour beat the kind's mean on leo-riichi-v5: 0.976 vs 0.942 of tiles
alone; a tile's look varies more within a kind than the mean keeps). Mixing: p ~ p_general x q^w,
where q is the set's probability for taught kinds and 1/K (no opinion) for kinds the set
lacks, so those fall back to the general classifier. ``w`` is turned down for a crop that
is far from every prototype (``gate``), so a set does not push tiles of another set around.
Scale and weight are chosen on the teaching photos alone, by cross-validation by photo."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np


SCALES = (10.0, 20.0, 40.0, 80.0)
WEIGHTS = (0.0, 0.25, 0.5, 1.0, 2.0, 4.0)
FOLDS = 3


@dataclass(frozen=True)
class Head:
    """The learned part of a set: its tiles, prototypes of the taught kinds, the mixing settings."""
    kinds: np.ndarray            # K kind indices (into KINDS) the set has tiles of
    prototypes: np.ndarray       # K x D unit vectors
    tiles: np.ndarray            # N x D unit features, sorted by kind
    starts: np.ndarray           # K: index in ``tiles`` of each kind's first tile
    scale: float
    weight: float
    gate: tuple[float, float]    # cosine under gate[0]: no say; from gate[1] on: full say
    photo_gate: float = 0.0      # a photo whose tiles' median nearest cosine is under this is not of the set


def features(embeddings: np.ndarray) -> np.ndarray:
    """N x T x D embeddings of the turned copies -> N x D rotation-free unit features."""
    e = embeddings / (np.linalg.norm(embeddings, axis=-1, keepdims=True) + 1e-8)
    f = e.mean(axis=1)
    return f / (np.linalg.norm(f, axis=-1, keepdims=True) + 1e-8)


def read_features(reads) -> np.ndarray:
    """The rotation-free unit features of classifier reads that carry their embeddings."""
    return features(np.stack([r.embedding for r in reads]))


def prototypes(feats: np.ndarray, labels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(kind indices, K x D unit prototypes) of the kinds present in ``labels``."""
    kinds = np.unique(labels)
    protos = np.stack([feats[labels == k].mean(axis=0) for k in kinds])
    return kinds, protos / (np.linalg.norm(protos, axis=1, keepdims=True) + 1e-8)


def head_for(feats: np.ndarray, labels: np.ndarray, scale: float, weight: float,
             gate: tuple[float, float], photo_gate: float = 0.0) -> Head:
    """The head of taught tiles (unit features, kind indices) with the given settings."""
    kinds, protos = prototypes(feats, labels)
    order = np.argsort(labels, kind="stable")
    starts = np.searchsorted(labels[order], kinds)
    return Head(kinds, protos, feats[order], starts, scale, weight, gate, photo_gate)


def photo_likeness(head: Head, feats: np.ndarray) -> float:
    """How much a photo's tiles look like the set: median cosine to the nearest taught tile."""
    return float(np.median(nearest(head, feats).max(axis=1))) if len(feats) else 0.0


def photo_gate_from(feats: np.ndarray, labels: np.ndarray, groups: np.ndarray) -> float:
    """The likeness under which a photo is taken not to show the set: the 20th percentile of
    the teaching photos' likeness to the set's other photos, less 0.005 (0 with one photo: a
    sheet always speaks). Leo (detector crops): its photos 0.93-0.98, its teaching photos
    0.88-0.97 (partly label-box crops); chinese-v4 photos against the leo set 0.69-0.94 (median
    0.91). The percentile was picked on those figures (the wrong-set check, docs/teach.md)."""
    photos = np.unique(groups)
    if len(photos) < 2:
        return 0.0
    likeness = []
    for g in photos:
        own = groups == g
        head = head_for(feats[~own], labels[~own], 1.0, 0.0, (0.0, 0.0))
        likeness.append(photo_likeness(head, feats[own]))
    return float(np.percentile(likeness, 20)) - 0.005


def nearest(head: Head, feats: np.ndarray) -> np.ndarray:
    """N x K cosine of each feature to the nearest taught tile of each kind."""
    return np.maximum.reduceat(feats @ head.tiles.T, head.starts, axis=1)


def _gate(cos_max: np.ndarray, gate: tuple[float, float]) -> np.ndarray:
    lo, hi = gate
    return np.clip((cos_max - lo) / max(hi - lo, 1e-6), 0.0, 1.0)


def mixed(head: Head, feats: np.ndarray, general: np.ndarray) -> np.ndarray:
    """N x 43 kind probabilities: the general ones (N x 43) mixed with the set's."""
    z = head.scale * nearest(head, feats)                             # N x K
    z = z - z.max(axis=1, keepdims=True)
    log_q_taught = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    log_q = np.full(general.shape, -np.log(len(head.kinds)))
    log_q[:, head.kinds] = log_q_taught
    w = head.weight * _gate((feats @ head.prototypes.T).max(axis=1), head.gate)[:, None]
    log_p = np.log(np.clip(general, 1e-12, 1.0)) + w * log_q
    log_p -= log_p.max(axis=1, keepdims=True)
    p = np.exp(log_p)
    return p / p.sum(axis=1, keepdims=True)


def _gate_from(feats: np.ndarray, labels: np.ndarray) -> tuple[float, float]:
    """Where a crop stops being like the taught tiles: from the cosines of the taught tiles
    to their own kind's prototype (leave-in; low percentile = still this set)."""
    kinds, protos = prototypes(feats, labels)
    own = np.einsum("nd,nd->n", feats, protos[np.searchsorted(kinds, labels)])
    hi = float(np.percentile(own, 5))
    return hi - 0.15, hi


def _folds(groups: np.ndarray, n: int) -> list[np.ndarray]:
    photos = np.unique(groups)
    return [np.isin(groups, photos[i::n]) for i in range(min(n, len(photos)))]


def choose(feats: np.ndarray, labels: np.ndarray, general: np.ndarray, groups: np.ndarray) -> Head:
    """The head of a set, its scale and weight chosen by cross-validation over the teaching
    photos (``groups``: photo of each tile): most held-out tiles right, then the smallest
    weight (the general classifier keeps its say where the set adds nothing)."""
    gate = _gate_from(feats, labels)
    folds = [f for f in _folds(groups, FOLDS) if f.any() and (~f).any()]
    best = (-1, 0.0, SCALES[0], 0.0)
    for scale in SCALES:
        for weight in WEIGHTS:
            right = 0
            for held in folds:
                head = head_for(feats[~held], labels[~held], scale, weight, _gate_from(feats[~held], labels[~held]))
                right += int((mixed(head, feats[held], general[held]).argmax(1) == labels[held]).sum())
            if not folds:                      # one photo: nothing to hold out, trust the set
                right = 0 if weight == 1.0 and scale == SCALES[1] else -1
            if right > best[0]:
                best = (right, -weight, scale, weight)
    return head_for(feats, labels, best[2], best[3], gate, photo_gate_from(feats, labels, groups))


def adapted_reads(taught, reads: list, feats: np.ndarray | None = None) -> list:
    """The reads (with embeddings, vision.classifier.KindRead) with their kind probabilities
    mixed with the taught set's; the embeddings are dropped once used. ``feats``: their
    :func:`read_features`, when the caller has them already."""
    if not reads:
        return reads
    feats = read_features(reads) if feats is None else feats
    probs = mixed(taught.head, feats, np.stack([r.probs for r in reads]))
    return [replace(r, probs=p, embedding=None) for r, p in zip(reads, probs)]

