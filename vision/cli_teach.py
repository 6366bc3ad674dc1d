"""``mjscore teach`` (learn a player's own set from labelled photos or a reference sheet) and
``mjscore sets`` (list, show, remove taught sets). See docs/teach.md."""

from __future__ import annotations

import time
from pathlib import Path
from typing import List, Optional

import typer

from ..errors import InputError, cli_command

sets_app = typer.Typer(help="Taught tile sets: list, show, remove.", no_args_is_help=True)


@cli_command
def teach_command(
    folders: Optional[List[Path]] = typer.Argument(None, help="YOLO folders (images/, labels/, data.yaml), e.g. "
                                                   "what scan --yolo-labels writes after a review"),
    name: Optional[str] = typer.Option(None, "--name", help="Name of the set (use it as scan --set NAME)."),
    sheet: Optional[List[Path]] = typer.Option(None, "--sheet", help="Photo of a reference sheet: every kind once, "
                                               "in rows, in the order of docs/teach.md."),
    fresh: bool = typer.Option(False, "--replace", help="Start the set over instead of adding to it."),
) -> None:
    """Learn a set from labelled photos; teaching an existing set again adds the new tiles."""
    from .lessons import from_folder, from_sheet
    from .sets import check_name, list_sets, load_set, save_set, taught

    if not name:
        raise InputError("teach needs --name NAME (the set's name, used as scan --set NAME)")
    check_name(name)
    if not folders and not sheet:
        raise InputError("teach needs a YOLO folder or --sheet PHOTO to learn from")
    t0 = time.perf_counter()
    old = load_set(name) if name in list_sets() and not fresh else None
    lessons, sources = (old.lessons, old.sources) if old else (None, ())
    for folder in folders or []:
        new, photos = from_folder(folder)
        lessons = new if lessons is None else lessons.plus(new)
        sources += (str(folder),)
        typer.echo(f"{folder}: {len(new.labels)} tiles from {photos} photos")
    for photo in sheet or []:
        new = from_sheet(photo)
        lessons = new if lessons is None else lessons.plus(new)
        sources += (str(photo),)
        typer.echo(f"{photo}: sheet of {len(new.labels)} tiles")
    tset = taught(name, lessons, sources)
    path = save_set(tset)
    typer.echo(f"set {name}: {len(tset.lessons.labels)} tiles of {len(tset.head.kinds)} kinds, "
               f"weight {tset.head.weight:g} ({time.perf_counter() - t0:.1f} s) -> {path}")


@cli_command
def list_command() -> None:
    """The taught sets."""
    from .sets import list_sets, sets_dir

    names = list_sets()
    typer.echo("\n".join(names) if names else f"no taught sets yet (in {sets_dir()})")


@cli_command
def show_command(name: str = typer.Argument(..., help="Set name.")) -> None:
    """Tiles per kind, the kinds the set lacks (read by the general classifier alone)."""
    from .kinds import KINDS
    from .sets import load_set

    s = load_set(name)
    per_kind = s.tiles_per_kind()
    typer.echo(f"set {name}: {len(s.lessons.labels)} tiles, {len(per_kind)} kinds, weight {s.head.weight:g}, "
               f"scale {s.head.scale:g}")
    typer.echo("tiles per kind: " + "  ".join(f"{k} {n}" for k, n in per_kind.items()))
    missing = [k for k in KINDS if k not in per_kind]
    typer.echo("kinds missing: " + (" ".join(missing) if missing else "none"))
    typer.echo("taught from: " + ", ".join(s.sources))


@cli_command
def remove_command(name: str = typer.Argument(..., help="Set name.")) -> None:
    """Delete a taught set."""
    from .sets import remove_set

    remove_set(name)
    typer.echo(f"removed set {name}")


sets_app.command("list")(list_command)
sets_app.command("show")(show_command)
sets_app.command("remove")(remove_command)


def register(app: typer.Typer) -> None:
    app.command("teach")(teach_command)
    app.add_typer(sets_app, name="sets")

