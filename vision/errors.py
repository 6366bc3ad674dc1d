"""Errors the recognizer raises for inputs it cannot read."""

from ..errors import BAD_PHOTO, MjscoreError


class ImageError(MjscoreError, ValueError):
    """The file is not a readable image (missing, not an image, truncated, too large)."""

    code = BAD_PHOTO
