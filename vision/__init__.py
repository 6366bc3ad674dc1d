"""Tile recognizer: photo -> every tile's box, kind, confidence, runner-up kinds and angle.

    from . import recognize_file, recognize_image, ImageError

Runtime needs only onnxruntime, numpy, opencv and pillow (models in ``models/``)."""

from .errors import ImageError


def recognize_file(path):
    """See :func:`vision.recognizer.recognize_file`."""
    from .recognizer import recognize_file as _rf

    return _rf(path)


def recognize_image(rgb):
    """See :func:`vision.recognizer.recognize_image`."""
    from .recognizer import recognize_image as _ri

    return _ri(rgb)


__all__ = ["ImageError", "recognize_file", "recognize_image"]
