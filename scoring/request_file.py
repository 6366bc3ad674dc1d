"""Where ``mjscore score --json ARG`` reads its request: ``-`` (stdin), a file, or no file at
all (ARG is then a hand in notation). Every problem is an :class:`InputError` (exit 2)
naming the file; a request too deep or with a number too long to read is refused here,
before the engine sees it."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ..errors import InputError
from .notation import NotationError, parse_hand


def names_a_request(arg: str) -> bool:
    """``-``, an existing path, or text that is no notation but reads like a file name
    (``req.json``, ``data/req``); a hand in notation is never taken for a file unless a
    file of that name exists."""
    if arg == "-":
        return True
    try:
        if Path(arg).exists():
            return True
    except (OSError, ValueError):                   # a name the system cannot hold (NUL, too long)
        return False
    try:
        parse_hand(arg)
        return False
    except NotationError:
        return _looks_like_path(arg)


def _looks_like_path(arg: str) -> bool:
    if "." in arg or "\\" in arg or arg.startswith(("/", "~")):
        return True
    parent = Path(arg).parent
    return parent != Path(".") and parent.is_dir()


def read_request(source: str) -> dict:
    """The request object in the file (or stdin for ``-``)."""
    name = "stdin" if source == "-" else source
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except IsADirectoryError:
        raise InputError(f"{source} is a folder, not a request file") from None
    except FileNotFoundError:
        raise InputError(f"no such file: {source}") from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise InputError(f"cannot read {name}: {exc}") from None
    try:
        request = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{name} is not valid JSON: {exc.msg} "
                         f"(line {exc.lineno}, column {exc.colno})") from None
    except RecursionError:
        raise InputError(f"{name} is nested too deeply to be a request") from None
    except ValueError:                              # an integer of more than 4300 digits
        raise InputError(f"{name} holds a number too long to be part of a request") from None
    if not isinstance(request, dict):
        raise InputError("the request must be one JSON object (a cases.json input plus \"ruleset\")")
    return request
