"""Synthetic photo-like scenes of mahjong tiles with exact labels (see README.md here).

- ``generate``: YOLO training sets (``python -m mjscore.datasets.synth.generate``);
- ``hand_scene``: one laid-out winning hand from spec notation, for end-to-end tests;
- ``install_art.sh`` / ``extract_art``: optional GPL art into ``data/art-cache`` (never committed).
"""
