"""Shipped ONNX models and their model cards. ``model_path(name)`` finds a bundled file."""

from pathlib import Path

MODELS_DIR = Path(__file__).resolve().parent


def model_path(name: str) -> Path:
    return MODELS_DIR / name
