"""Tile kind and orientation from square crops, with the ONNX crop classifier.

The classifier was trained on crops in all four quarter turns, so the kind does not depend
on how the tile lies; a second head says which quarter turn the face shows (its training
labels come from the rendered art, whose upright is known)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import models
from .bonus_reader import with_bonus_reader
from .calibration import softmax
from .crops import CONTEXT, CROP_SIZE, square_crop, to_tensor
from .kinds import KINDS


@dataclass(frozen=True)
class KindRead:
    probs: np.ndarray          # 43 kind probabilities
    orient: np.ndarray         # 4 probabilities: face turned 0/90/180/270 deg CCW
    embedding: np.ndarray | None = None   # turns x 256 neck features, when asked for (taught sets)


OUTPUTS = ["kind_logits", "orient_logits"]
QUARTER_TURNS = {1: (0,), 2: (0, 2), 4: (0, 1, 2, 3)}     # test-time turns for cls_turns = 1, 2, 4
EMBEDDING = "embedding"      # the neck features both heads read (vision/training/add_embedding.py)


def classify_crops(crops: np.ndarray, batch: int = 64, embed: bool = False) -> list[KindRead]:
    """Kind and orientation probabilities for N x S x S x 3 uint8 crops (S = ``crop_size``);
    with ``embed`` also each crop's embedding (1 x 256), which taught sets are learned on."""
    sess = models.session(models.CLASSIFIER)
    names = OUTPUTS + [EMBEDDING] if embed else OUTPUTS
    if embed and EMBEDDING not in {o.name for o in sess.get_outputs()}:
        from ..errors import UnavailableError
        raise UnavailableError("the crop classifier has no embedding output, which taught sets need "
                               "(python -m mjscore.vision.training.add_embedding models/tile_classifier.onnx)")
    out = []
    for i in range(0, len(crops), batch):
        res = sess.run(names, {"crops": to_tensor(crops[i:i + batch])})
        emb = res[2][:, None] if embed else [None] * len(res[0])
        out += [KindRead(p, o, e) for p, o, e in zip(softmax(res[0]), softmax(res[1]), emb)]
    return out


def _crops(rgb: np.ndarray, boxes, context: float | None = None) -> np.ndarray:
    """N x S x S x 3 crops of the boxes at the classifier's input side and context (or
    ``context``, where given)."""
    cfg = models.settings()
    size, context = cfg.get("crop_size", CROP_SIZE), context or cfg.get("crop_context", CONTEXT)
    return np.stack([square_crop(rgb, b, size, context) for b in boxes])


def classify_boxes(rgb: np.ndarray, boxes, turns: int | None = None, embed: bool = False,
                   bonus_reader: bool = True, contexts: tuple = ()) -> list[KindRead]:
    """Classify each box's crop. With ``turns`` = 2 or 4 the crop is also classified turned by
    180 (and 90, 270) degrees and the kind probabilities averaged (test-time augmentation);
    the orientation read of each turned copy is turned back before averaging; crops that look
    like flowers or seasons are then re-weighed by the bonus reader (``vision/bonus_reader.py``)
    where recognizer.json names one (not with ``bonus_reader=False``). With ``embed``
    each read keeps the embeddings of its turned copies (turns x 256). ``contexts``: more
    crop contexts (share of table around the box) whose kind probabilities join the average
    (the recognizer asks for them on photos of a few tiles, :func:`closeup_contexts`)."""
    if not len(boxes):
        return []
    turns = turns or models.settings().get("cls_turns", 1)
    crops = _crops(rgb, boxes)
    ks = QUARTER_TURNS[turns]
    reads = [classify_crops(np.ascontiguousarray(np.rot90(crops, k, axes=(1, 2))), embed=embed) for k in ks]
    all_probs = np.array([np.mean([r[i].probs for r in reads], axis=0) for i in range(len(boxes))])
    if contexts:       # each context weighs as much as the first one's turns together
        all_probs = np.concatenate([all_probs[None], _context_probs(rgb, boxes, contexts, ks)]).mean(axis=0)
    # flowers and seasons get a second opinion that reads the cues every set shares
    if bonus_reader:
        all_probs = with_bonus_reader(all_probs, crops)
    out = []
    for i in range(len(boxes)):
        probs = all_probs[i]
        # a copy turned k quarter turns CCW shows the face at (angle + k): roll back by k
        orient = np.mean([np.roll(r[i].orient, -k) for r, k in zip(reads, ks)], axis=0)
        emb = np.concatenate([r[i].embedding for r in reads]) if embed else None
        out.append(KindRead(probs, orient, emb))
    return out


def with_contexts(rgb: np.ndarray, boxes, reads: list, contexts: tuple, turns: int | None = None) -> list:
    """``reads`` (of ``boxes``, by :func:`classify_boxes` at the one default context) with the
    kind probabilities of more crop ``contexts`` averaged in, each context read at ``turns``
    quarter turns (default ``cls_turns``) and weighing as much as the first read's turns
    together: the same average :func:`classify_boxes` takes with ``contexts``, without
    reading the first context again. Orientation and embeddings stay the first read's."""
    if not len(boxes) or not contexts:
        return list(reads)
    more = _context_probs(rgb, boxes, contexts, QUARTER_TURNS[turns or models.settings().get("cls_turns", 1)])
    return [KindRead(np.mean([read.probs] + [m[i] for m in more], axis=0), read.orient, read.embedding)
            for i, read in enumerate(reads)]


def _context_probs(rgb: np.ndarray, boxes, contexts: tuple, ks: tuple) -> np.ndarray:
    """Kind probabilities (contexts x boxes x kinds) of the boxes cropped at each of
    ``contexts``, averaged over the quarter turns ``ks``; every crop in one batch."""
    crops = [_crops(rgb, boxes, c) for c in contexts]
    probs = np.array([r.probs for r in classify_crops(np.concatenate(
        [np.rot90(c, k, axes=(1, 2)) for c in crops for k in ks]))])
    return probs.reshape(len(contexts), len(ks), len(boxes), -1).mean(axis=1)


def closeup_contexts(n_boxes: int) -> tuple:
    """The extra crop contexts to read a photo's ``n_boxes`` found tiles with:
    ``cls_closeup_contexts`` in recognizer.json where fewer than ``closeup_min_tiles`` tiles were
    found, else none. DECISION (session 26): in a close-up each tile is a big share of the photo
    and a misread costs the whole answer, while the crops are few (reading each at two more
    contexts costs a few ms); the classifier is surer of a kind that all three crops agree on,
    and less sure where a cut or tilted tile reads one way close and another with more table
    around it. In hand photos only the unsure reads get the extra contexts (session 29,
    :func:`vision.recognizer.with_unsure_reread`); the weak peaks' reads keep one context, on
    which the weak backs' thresholds were set."""
    from .closeup import few_tiles

    extra = models.settings().get("cls_closeup_contexts")
    return tuple(extra) if extra and few_tiles(n_boxes) else ()


def read_confidence(views) -> list[list[float]]:
    """How surely each detection reads as some tile kind (top probability, one turn), for
    several (image, detections) views at once: a cheap plausibility check of candidate views
    of a photo. All crops go through the classifier in one batch."""
    crops = [_crops(rgb, [d.box for d in dets]) for rgb, dets in views if dets]
    if not crops:
        return [[] for _ in views]
    top = [float(r.probs.max()) for r in classify_crops(np.concatenate(crops))]
    out, i = [], 0
    for _, dets in views:
        out.append(top[i:i + len(dets)])
        i += len(dets)
    return out


def angle_for(read: KindRead, box) -> int:
    """Face angle (0/90/180/270 CCW). The box shape settles upright vs sideways when it is
    clearly taller or wider (a tile face is 3:4); the orientation head settles the rest."""
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    o = read.orient.copy()
    if h > 1.15 * w:
        o[[1, 3]] = 0
    elif w > 1.15 * h:
        o[[0, 2]] = 0
    return int(np.argmax(o)) * 90


def ranked(read: KindRead, n_alternatives: int = 3):
    order = np.argsort(-read.probs)
    best = KINDS[order[0]], float(read.probs[order[0]])
    alts = tuple((KINDS[i], float(read.probs[i])) for i in order[1:1 + n_alternatives]
                 if read.probs[i] >= 0.005)
    return best, alts
