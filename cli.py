"""The `mjscore` command. Each subsystem owns its commands in its own module and exposes
``register(app)``; this file only wires them together.

Heavy imports (onnxruntime, cv2) belong inside the command functions, so that
``mjscore score`` starts fast."""

from __future__ import annotations

import importlib

import typer

app = typer.Typer(
    help="Score mahjong hands from a photo or from notation (NTS, nts-app, riichi).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

COMMAND_MODULES = [
    "scoring.cli_score",    # mjscore score
    "handscan.cli_scan",    # mjscore scan, mjscore batch
    "vision.cli_eval",      # mjscore eval
    "match.cli_session",    # mjscore session ...
    "web.cli_serve",        # mjscore serve
]


def _register_all() -> None:
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:      # subsystem not built yet: leave its command out
                continue
            raise
        module.register(app)


_register_all()

if __name__ == "__main__":
    app()
