"""Errors the recognizer raises for inputs it cannot read."""


class ImageError(ValueError):
    """The file is not a readable image (missing, not an image, truncated, too large)."""
