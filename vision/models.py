"""The shipped ONNX models and their settings (``models/*.onnx``, ``models/recognizer.json``),
loaded once per process."""

from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path

# MJSCORE_MODELS_DIR points the runtime at other exported models (e.g. for evaluation).
MODELS_DIR = Path(os.environ.get("MJSCORE_MODELS_DIR") or Path(__file__).resolve().parent.parent / "models")
DETECTOR = "tile_detector.onnx"
CLASSIFIER = "tile_classifier.onnx"
SETTINGS = "recognizer.json"


@lru_cache(maxsize=None)
def settings(models_dir: Path = MODELS_DIR) -> dict:
    path = models_dir / SETTINGS
    return json.loads(path.read_text()) if path.exists() else {}


@lru_cache(maxsize=None)
def session(name: str, models_dir: Path = MODELS_DIR):
    import onnxruntime as ort

    path = models_dir / name
    if not path.exists():
        raise FileNotFoundError(f"model {path} is missing (train and export it: see models/README.md)")
    opts = ort.SessionOptions()
    # MJSCORE_ORT_THREADS: set by batch workers so that parallel workers share the cores
    opts.intra_op_num_threads = int(os.environ.get("MJSCORE_ORT_THREADS") or min(4, os.cpu_count() or 1))
    opts.inter_op_num_threads = 1
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
