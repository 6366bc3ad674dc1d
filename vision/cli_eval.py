"""``mjscore eval DIR``: measure the recognizer on a labelled YOLO folder."""

from __future__ import annotations

import json
from pathlib import Path

import typer


def eval_command(
    folder: Path = typer.Argument(..., help="YOLO folder: data.yaml + images/ + labels/ (or */images/ for all splits)"),
    as_json: bool = typer.Option(False, "--json", help="print the full report as JSON"),
    limit: int = typer.Option(0, "--limit", help="evaluate only the first N images (0 = all)"),
) -> None:
    """Detection recall/precision, classification accuracy, tile F1, confusions, seconds per photo."""
    from .evaluate import evaluate_folder, format_report

    if not folder.is_dir():
        typer.echo(f"error: {folder} is not a directory", err=True)
        raise typer.Exit(2)
    try:
        report = evaluate_folder(folder, limit or None).to_json()
    except (FileNotFoundError, ValueError, KeyError) as exc:
        msg = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        typer.echo(f"error: {msg}", err=True)
        raise typer.Exit(2)
    report["folder"] = str(folder)
    typer.echo(json.dumps(report, indent=1) if as_json else format_report(report))


def register(app: typer.Typer) -> None:
    app.command("eval")(eval_command)
