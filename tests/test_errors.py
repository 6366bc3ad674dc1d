"""Error codes -> CLI exit status and HTTP status: one table, every error class in it."""

from __future__ import annotations

import pytest

from mjscore import errors
from mjscore.errors import MjscoreError, exit_status, http_status


def _classes():
    from mjscore.handscan.batch import ManifestError
    from mjscore.handscan.context import ContextError, WinningTileNotInHand
    from mjscore.handscan.review import ReviewError
    from mjscore.match.model import EngineMissing, NoSuchSession, SessionError
    from mjscore.match.store import StoreError
    from mjscore.scoring.api import RequestError
    from mjscore.scoring.config import ConfigError
    from mjscore.scoring.notation import NotationError
    from mjscore.scoring.validate import InvalidHand
    from mjscore.vision.errors import ImageError
    from mjscore.web.photo import PhotoError
    return [
        (ContextError("x"), 2, 422), (WinningTileNotInHand("x"), 2, 422), (ManifestError("x"), 2, 422),
        (ReviewError("x"), 2, 422), (RequestError("x"), 2, 422), (ConfigError("x"), 2, 422),
        (NotationError("bad", "5x", 0, "5x"), 2, 422),
        (InvalidHand("tile_count", "13 tiles"), 1, 422), (InvalidHand("syntax", "winds"), 2, 422),
        (SessionError("x"), 1, 422), (NoSuchSession("x"), 1, 404), (EngineMissing("x"), 1, 503),
        (StoreError("x"), 1, 503), (ImageError("x"), 1, 400),
        (PhotoError(errors.BAD_PHOTO, "x"), 1, 400), (PhotoError(errors.TOO_LARGE, "x"), 1, 413),
        (PhotoError(errors.UNSUPPORTED_TYPE, "x"), 1, 415),
        (errors.UnavailableError("x"), 1, 503), (errors.FailedError("x"), 1, 500),
        (errors.WriteError("x"), 1, 500), (errors.NotFoundError("x"), 1, 404),
    ]


@pytest.mark.parametrize("error,exit_code,status", _classes(), ids=lambda v: type(v).__name__)
def test_every_error_has_a_code_an_exit_status_and_an_http_status(error, exit_code, status):
    assert isinstance(error, MjscoreError) and isinstance(error.code, str)
    assert exit_status(error) == exit_code
    assert http_status(error) == status


def test_cli_command_turns_an_error_into_one_line_and_its_exit_status():
    import typer
    from typer.testing import CliRunner

    app = typer.Typer()

    @app.command()
    @errors.cli_command
    def go(n: int = 1):
        raise errors.InputError(f"bad {n}") if n == 1 else errors.UnavailableError("gone")

    r = CliRunner().invoke(app, ["--n", "1"])
    assert r.exit_code == 2 and r.output.strip() == "error: bad 1"
    assert CliRunner().invoke(app, ["--n", "2"]).exit_code == 1


def test_front_ends_never_match_exception_names_or_messages():
    from pathlib import Path
    root = Path(errors.__file__).resolve().parent
    for sub in ("handscan", "web", "match", "scoring", "vision"):
        for path in (root / sub).rglob("*.py"):
            if "training" in path.parts:
                continue
            text = path.read_text(encoding="utf-8")
            assert "__name__ ==" not in text.replace('__name__ == "__main__"', ""), path
            assert ".startswith(\"there is" not in text and "in str(exc)" not in text, path
