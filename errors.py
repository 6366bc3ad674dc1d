"""The one error type of mjscore and what its codes mean at the edges.

Every error a user can cause derives from :class:`MjscoreError` and carries a stable
``code``. Front ends never look at exception names or message text: a CLI command exits
with :func:`exit_status` of the error, the web app answers with :func:`http_status` of it,
and the message (``str(error)``) is shown as it is.

Codes name what went wrong, not where. The scoring engine's :class:`InvalidHand` carries
its spec §3 reason (``tile_count``, ``too_many_copies``, ...) as its code: a hand the engine
refuses; those codes all fall under :data:`REFUSED`."""

from __future__ import annotations

BAD_INPUT = "bad_input"          # a value the user gave cannot be used (option, field, manifest)
SYNTAX = "syntax"                # notation or a request that cannot be parsed (spec §3 ``syntax``)
REFUSED = "refused"              # a well-formed request the rules refuse (the engine's §3 reasons)
NOT_FOUND = "not_found"          # the thing asked for does not exist (a session)
UNAVAILABLE = "unavailable"      # a part is not installed or cannot be used (model, engine, database)
BAD_PHOTO = "bad_photo"          # an image that cannot be read (damaged, truncated, too small)
TOO_LARGE = "too_large"          # an upload or image over the limits
UNSUPPORTED_TYPE = "unsupported_type"   # an upload that is not a JPEG, PNG or WebP
FAILED = "failed"                # a part failed on good input (a bug or a model crash)
CANNOT_WRITE = "cannot_write"    # an output file cannot be written
TIMED_OUT = "timed_out"          # a client that stopped sending its request
BAD_DATABASE = "bad_database"    # a session file that is damaged or not a sessions database (left untouched)

# code -> (CLI exit status, HTTP status); a code not listed is an engine reason (REFUSED)
_STATUS: dict[str, tuple[int, int]] = {
    BAD_INPUT: (2, 422),
    SYNTAX: (2, 422),
    REFUSED: (1, 422),
    NOT_FOUND: (1, 404),
    UNAVAILABLE: (1, 503),
    BAD_PHOTO: (1, 400),
    TOO_LARGE: (1, 413),
    UNSUPPORTED_TYPE: (1, 415),
    FAILED: (1, 500),
    CANNOT_WRITE: (1, 500),
    TIMED_OUT: (1, 408),
    BAD_DATABASE: (3, 503),
}


class MjscoreError(Exception):
    """Base of every mjscore error; ``code`` (class attribute, or per instance where the
    code is data, as for :class:`InvalidHand`) says what kind of problem it is."""

    code: str = FAILED


class InputError(MjscoreError, ValueError):
    """A value given by the user that cannot be used; the message names it."""

    code = BAD_INPUT


class NotFoundError(MjscoreError, LookupError):
    """What was asked for does not exist."""

    code = NOT_FOUND


class UnavailableError(MjscoreError, RuntimeError):
    """A part (recognizer model, scoring engine, database) is missing or unusable."""

    code = UNAVAILABLE


class FailedError(MjscoreError, RuntimeError):
    """A part failed on input it should have handled."""

    code = FAILED


class WriteError(MjscoreError, OSError):
    """An output (annotated photo, labels, JSON) cannot be written."""

    code = CANNOT_WRITE


def _statuses(code: str) -> tuple[int, int]:
    return _STATUS.get(code, _STATUS[REFUSED])


def exit_status(error: MjscoreError) -> int:
    """CLI exit status of an error: 2 bad input or notation, 3 a damaged or foreign session
    database (left untouched), 1 everything else."""
    return _statuses(error.code)[0]


def http_status(error: MjscoreError) -> int:
    """HTTP status of an error (4xx the client's problem, 5xx the server's)."""
    return _statuses(error.code)[1]


def cli_exit(error: MjscoreError, message: str | None = None):
    """End a CLI command on an error: one line on stderr (``message`` or the error's own),
    exit status :func:`exit_status`. Never returns."""
    import typer                                     # only the CLI needs it

    typer.echo(f"error: {error if message is None else message}", err=True)
    raise typer.Exit(exit_status(error))


def cli_command(func):
    """Decorator for a CLI command: an :class:`MjscoreError` it raises ends it through
    :func:`cli_exit` (one clear line, never a traceback)."""
    import functools

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except MjscoreError as exc:
            cli_exit(exc)

    return wrapper


__all__ = ["MjscoreError", "InputError", "NotFoundError", "UnavailableError", "FailedError", "WriteError",
           "exit_status", "http_status", "cli_exit", "cli_command", "CANNOT_WRITE", "BAD_INPUT", "SYNTAX", "REFUSED", "NOT_FOUND", "UNAVAILABLE",
           "BAD_PHOTO", "TOO_LARGE", "UNSUPPORTED_TYPE", "FAILED", "BAD_DATABASE", "TIMED_OUT"]
