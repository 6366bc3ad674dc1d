"""Where the development tools find the project's reference data: the folder given by
``--data-root`` or, without it, ``$MJSCORE_DATA_ROOT``; never a path of one machine.

The folder holds the real photo sets, the tile art and the spec, laid out as::

    datasets/chinese-mahjong-detection-v4/   datasets/leo-riichi-v5/
    art/fluffystuff-regular/ ...             spec/cases.json

A tool that needs it and is given neither stops with a message naming both ways to give it;
a tool that only uses it when present (``card_figures``) asks :func:`known_data_root`."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

DATA_ROOT_ENV = "MJSCORE_DATA_ROOT"

CHINESE_V4 = Path("datasets") / "chinese-mahjong-detection-v4"
LEO_RIICHI = Path("datasets") / "leo-riichi-v5"
ART = Path("art")
CASES = Path("spec") / "cases.json"


class DataRootError(RuntimeError):
    """No data root was given, and the tool needs one."""


def known_data_root(option: str | Path | None = None) -> Path | None:
    """The data root from the option, else from the environment; None when neither is set."""
    value = option if option not in (None, "") else os.environ.get(DATA_ROOT_ENV)
    return Path(value).expanduser() if value else None


def data_root(option: str | Path | None = None) -> Path:
    """Like :func:`known_data_root`, but a missing root is a :class:`DataRootError`."""
    root = known_data_root(option)
    if root is None:
        raise DataRootError(f"no data root: pass --data-root DIR or set {DATA_ROOT_ENV}=DIR "
                            f"(the folder holding datasets/, art/ and spec/)")
    return root


def add_data_root_option(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--data-root", type=Path, default=None,
                    help=f"reference data folder with datasets/, art/, spec/ (default: ${DATA_ROOT_ENV})")


def data_path(ap: argparse.ArgumentParser, option: str | Path | None, relative: Path) -> Path:
    """``relative`` under the data root, or the parser's usage error (exit 2) when there is none."""
    try:
        return data_root(option) / relative
    except DataRootError as exc:
        ap.error(str(exc))
        raise  # not reached: ap.error exits
