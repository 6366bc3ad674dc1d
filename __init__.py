"""mjscore: score a mahjong hand from a photo.

The repository root is this package (pyproject maps ``mjscore`` to it), so every folder is a
subpackage under the one import name: ``mjscore.scoring`` (rules engine), ``mjscore.vision``
(tile recognizer and layout), ``mjscore.handscan`` (photo -> score pipeline, scan, batch),
``mjscore.match`` (session ledger), ``mjscore.web`` (phone page and API), ``mjscore.models``
(shipped ONNX files). Development-only code (``mjscore.vision.training``, ``mjscore.datasets``)
is importable from a checkout but is not part of the wheel. See docs/architecture.md.

Importing this package imports nothing else, so ``mjscore score`` starts fast."""

__version__ = "0.1.0"
