"""The `mjscore` command. Each subsystem owns its commands in its own module and exposes
``register(app)``; this file only wires them together.

Heavy imports (onnxruntime, cv2) belong inside the command functions, so that
``mjscore score`` starts fast."""

from __future__ import annotations

import typer

from .handscan import cli_scan
from .match import cli_session
from .scoring import cli_score
from .vision import cli_eval, cli_teach
from .web import cli_serve

app = typer.Typer(
    help="Score mahjong hands from a photo or from notation (NTS, nts-app, riichi).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

for _commands in (cli_score, cli_scan, cli_eval, cli_teach, cli_session, cli_serve):
    _commands.register(app)

if __name__ == "__main__":
    app()
