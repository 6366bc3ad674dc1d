"""`mjscore scan` (photo -> tiles -> hand -> score, with review), `mjscore batch` and
`mjscore batch-init` (a manifest template for a folder of photos).

Problems are reported as one clear line on stderr, never a traceback. Exit status: 0 when
every photo was read (and, when scoring was asked, scored as a valid hand); 1 otherwise;
2 for bad options or a context file beside a photo that cannot be used
(``mjscore.errors.exit_status`` of the error raised). ``batch``: 1 when
any row of the manifest holds an error in the output, written by this run or an earlier
one (a resumed batch fails as the fresh one did); invalid hands are results, not errors.

A photo's context may travel with it: ``hand.jpg.json`` or ``hand.json`` beside ``hand.jpg``
(``handscan.context.read_sidecar``) gives seat, wind, winning tile, win type and ruleset;
``scan`` uses it, says so, and lets the command line's options override each value.
Every photo's context file is checked before the first photo is read."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import List, Optional

import typer

from ..errors import InputError, MjscoreError, WriteError, cli_command, exit_status
from ..scoring.messages import error_line, say
from .context import (ContextError, ScanContext, context_words, dutch_error, make_context, merge_context,
                      read_sidecar, sidecar_path)


def register(app: typer.Typer) -> None:
    app.command("scan")(scan)
    app.command("batch")(batch)
    app.command("batch-init")(batch_init)


def _win_type(discard: bool, self_drawn: bool, robbed_kong: bool) -> str | None:
    chosen = [n for n, on in (("discard", discard), ("self_drawn", self_drawn), ("robbed_kong", robbed_kong)) if on]
    if len(chosen) > 1:
        raise InputError("give only one of --discard, --self-drawn, --robbed-kong")
    return chosen[0] if chosen else None


def _ask_missing(ctx: ScanContext, suggested_tile: str | None = None) -> ScanContext:
    """Interactive runs ask for what the photo cannot show (never guessed: a tile lying apart
    is only offered as the default answer)."""
    nl = ctx.lang == "nl"
    asks = [("winning_tile", "Winnende steen (bv. 5p, E, Wh)" if nl else "Winning tile (e.g. 5p, E, Wh)"),
            ("win_type", "Gewonnen op een afgooi of zelf gepakt? [afgooi/zelf]" if nl
             else "Won on a discard or self-drawn? [discard/self]"),
            ("seat", "Eigen wind van de winnaar [O/Z/W/N]" if nl else "Seat wind of the winner [E/S/W/N]"),
            ("wind", "Wind van de ronde [O/Z/W/N]" if nl else "Prevailing wind [E/S/W/N]")]
    apart_word = "de steen die apart ligt" if nl else "the tile lying apart"
    for field, prompt in asks:
        if getattr(ctx, field) is not None:
            continue
        default = suggested_tile if field == "winning_tile" else None
        while True:
            try:
                answer = input(prompt + (f" [{default}, {apart_word}]" if default else "") + ": ").strip()
            except EOFError:
                return ctx
            answer = answer or default or ""
            if not answer:
                break
            try:
                new = make_context(**{"seat": ctx.seat, "wind": ctx.wind, "winning_tile": ctx.winning_tile,
                                      "win_type": ctx.win_type, field: answer}, ruleset=ctx.ruleset,
                                   special=list(ctx.special), lang=ctx.lang)
                ctx = new
                break
            except ContextError as exc:
                typer.echo(f"  {dutch_error(str(exc)) if nl else exc}", err=True)
    return ctx


def _review_loop(res, threshold: float, echo):
    """Terminal review: read commands, apply them (pure functions), re-score at once."""
    from .pipeline import evaluate
    from .render import result_text
    from .review import ReviewError, apply_command, state_from_layout

    state = state_from_layout(res.layout, res.context)
    if res.hand_override:
        from dataclasses import replace
        state = replace(state, hand=res.hand_override)
    echo("review: fix tiles (3=5p), regroup (move 7 to 2), set context (win 5p, self, seat S); "
         "tiles = the tile list; help for all; empty line when done")
    while True:
        try:
            line = input("review> ")
        except EOFError:
            break
        if line.strip().lower() in ("tiles", "show", "list"):
            echo(result_text(res, threshold))
            continue
        try:
            state, message = apply_command(state, line)
        except ReviewError as exc:
            echo(f"  {exc}")
            continue
        if state.done:
            break
        echo(f"  {message}")
        if line.strip().lower() in ("help", "?", "h"):
            continue
        res = evaluate(res.photo, state.layout, state.context, read=res.read, hand=state.hand,
                       threshold=threshold)
        echo(result_text(res, threshold, brief=True))
    return res


@cli_command
def scan(
    photos: List[Path] = typer.Argument(..., help="Photo(s) of a hand laid out on the table."),
    json_out: bool = typer.Option(False, "--json", help="One JSON object per photo per line."),
    seat: Optional[str] = typer.Option(None, "--seat", help="Seat wind of the winner (E/S/W/N)."),
    wind: Optional[str] = typer.Option(None, "--wind", help="Prevailing wind (E/S/W/N)."),
    winning_tile: Optional[str] = typer.Option(None, "--winning-tile", help="The tile that completed the hand."),
    discard: bool = typer.Option(False, "--discard", help="Won on a discard."),
    self_drawn: bool = typer.Option(False, "--self-drawn", help="Won on a self-drawn tile."),
    robbed_kong: bool = typer.Option(False, "--robbed-kong", help="Won by robbing a kong."),
    ruleset: Optional[str] = typer.Option(None, "--ruleset", help="nts or nts-app (flowers and seasons); default nts."),
    special: Optional[List[str]] = typer.Option(None, "--special",
                                                help="last_wall_tile, kong_replacement, kong_on_kong, heavenly, earth."),
    lang: str = typer.Option("en", "--lang", help="Labels in English (en) or Dutch (nl)."),
    context_file: bool = typer.Option(True, "--context-file/--no-context-file",
                                      help="Use the context file beside a photo (PHOTO.json or the same name "
                                           "with .json); options given here override its values."),
    annotate: Optional[Path] = typer.Option(None, "--annotate", help="Write the photo with boxes and sets drawn."),
    review: Optional[bool] = typer.Option(None, "--review/--no-review",
                                          help="Interactive review (default: on a terminal when tiles are flagged)."),
    threshold: float = typer.Option(0.6, "--threshold", help="Tiles below this confidence are flagged."),
    fix: Optional[str] = typer.Option(None, "--fix", help='Correct tiles by number: "3=5p,7=G".'),
    hand: Optional[str] = typer.Option(None, "--hand", help="Hand in notation; replaces the photo's grouping."),
    save: Optional[Path] = typer.Option(None, "--save", help="Save the (corrected) result as JSON."),
    yolo_labels: bool = typer.Option(False, "--yolo-labels",
                                     help="Write the corrected tiles as YOLO labels next to the photo."),
    from_json: Optional[Path] = typer.Option(None, "--from-json",
                                             help="Saved recognizer output (scan --json lines): photos found there are not re-read."),
    tile_set: Optional[str] = typer.Option(None, "--set", help="Read with a taught set (mjscore teach, docs/teach.md)."),
) -> None:
    """Read the tiles in a photo; with the game context, group and score the hand."""
    try:
        from .outputs import annotate as draw_annotation, write_json, write_yolo_labels
        from .pipeline import evaluate, lay_out, photo_read_from_json, read_photo, suggested_winning_tile
        from .render import read_text, result_text
        from ..vision.recognizer import set_recognizer

        if lang not in ("en", "nl"):
            raise InputError(f"--lang {lang!r}: use en or nl")
        given = {"seat": seat, "wind": wind, "winning_tile": winning_tile,
                 "win_type": _win_type(discard, self_drawn, robbed_kong), "ruleset": ruleset, "special": special}
        make_context(**given, lang=lang)                    # the options themselves are checked first
        contexts = [_photo_context(photo, given, lang, context_file) for photo in photos]
        recognize = set_recognizer(tile_set)
        if not 0.0 <= threshold <= 1.0:
            raise InputError("--threshold is a confidence between 0 and 1")
        saved_reads = {}
        if from_json is not None:
            try:
                for line in from_json.read_text().splitlines():
                    if line.strip():
                        obj = json.loads(line)
                        saved_reads[str(Path(obj.get("image", "")).resolve())] = obj
            except (OSError, json.JSONDecodeError) as exc:
                raise InputError(f"--from-json {from_json}: {exc}") from None
        interactive = sys.stdin.isatty() and not json_out
        echo = (lambda s: typer.echo(s, err=True)) if json_out else typer.echo
        failed = False
        saved = []
        for n, (photo, (ctx, used_file, said)) in enumerate(zip(photos, contexts)):
            scoring = ctx.given or hand is not None or bool(review)
            if said:
                echo(said)
            if saved_reads:
                obj = saved_reads.get(str(photo.resolve()))
                read = photo_read_from_json(obj) if obj else read_photo(photo, recognize)
            else:
                read = read_photo(photo, recognize)
            if read.error:
                failed = True
                if json_out:
                    typer.echo(json.dumps({"image": str(photo), "error": read.error}))
                else:
                    typer.echo(f"{photo}: {'fout' if lang == 'nl' else 'error'}: {say(read.error, lang)}", err=True)
                continue
            layout = lay_out(read.tiles, fix)
            photo_ctx = ctx
            if scoring and interactive and photo_ctx.missing() and hand is None:
                echo(read_text(read, layout, threshold, lang))
                apart = suggested_winning_tile(layout)
                photo_ctx = _ask_missing(photo_ctx, apart[1] if apart else None)
            res = evaluate(str(photo), layout, photo_ctx, read=read, hand=hand, threshold=threshold)
            wants_review = review if review is not None else (interactive and scoring and bool(res.flags))
            if wants_review:
                echo(result_text(res, threshold))
                res = _review_loop(res, threshold, echo)
                echo("result:\n" + result_text(res, threshold, brief=True))
            if json_out:
                if scoring:
                    out = res.to_json()
                else:
                    out = read.to_json()
                    out["layout"] = layout.to_json()
                if used_file is not None:
                    out["context_file"] = str(used_file)
                typer.echo(json.dumps(out, ensure_ascii=False))
            elif not wants_review:
                typer.echo(result_text(res, threshold) if scoring else read_text(read, layout, threshold, lang))
                if len(photos) > 1:
                    typer.echo("")
            if scoring and not res.valid:
                failed = True
            if annotate is not None:
                target = annotate if len(photos) == 1 else annotate.with_name(f"{annotate.stem}_{photo.stem}{annotate.suffix}")
                try:
                    draw_annotation(photo, res.layout, target, threshold)
                    echo(f"annotated photo: {target}")
                except Exception as exc:                          # noqa: BLE001 - any drawing failure
                    raise WriteError(f"cannot write {target}: {exc}") from None
            if yolo_labels and res.layout is not None:
                try:
                    label, notes = write_yolo_labels(photo, res.layout.tiles, read.width, read.height)
                    echo(f"YOLO labels: {label}" + "".join(f"\n  note: {x}" for x in notes))
                except (OSError, ValueError) as exc:
                    raise WriteError(f"cannot write YOLO labels for {photo}: {exc}") from None
            saved.append(res.to_json())
        if save is not None:
            try:
                write_json(save, saved[0] if len(photos) == 1 and saved else saved)
                echo(f"saved: {save}")
            except OSError as exc:
                raise WriteError(f"cannot write {save}: {exc}") from None
        if failed:
            raise typer.Exit(1)
    except MjscoreError as exc:                  # --lang nl: the error line in Dutch too
        if lang != "nl":
            raise
        typer.echo(error_line(dutch_error(str(exc)), "nl"), err=True)
        raise typer.Exit(exit_status(exc))


def _photo_context(photo: Path, given: dict, lang: str, use_file: bool) -> tuple[ScanContext, Path | None, str]:
    """The context a photo is scored with: its context file's values (when there is one and
    ``use_file``) with the options given on the command line on top; the file used; and the
    line that tells the player so (empty without a file). A context file that cannot be
    used stops the command (exit 2) before any photo is read; it is never written."""
    path = sidecar_path(photo) if use_file else None
    values = read_sidecar(path) if path is not None else None
    if path is not None and values is None:
        note = ("let op: {p} is een bewaard scanresultaat, geen contextbestand: niet gebruikt" if lang == "nl"
                else "note: {p} is a saved scan result, not a context file: not used")
        return make_context(**given, lang=lang), None, note.format(p=path)
    fields, overridden = merge_context(values, **given)
    try:
        ctx = make_context(**fields, lang=lang)
    except ContextError as exc:                      # cannot happen: both halves were checked
        raise InputError(f"context file {path}: {exc}") from None
    if values is None:
        return ctx, None, ""
    names = {"seat": "--seat", "wind": "--wind", "winning_tile": "--winning-tile", "ruleset": "--ruleset",
             "win_type": "--" + str(given["win_type"]).replace("_", "-"), "special": "--special"}
    over = ", ".join(names[k] for k in overridden)
    if lang == "nl":
        said = f"context uit {path}" + (f" ({over} van de opdrachtregel gaan voor)" if over else "")
    else:
        said = f"context from {path}" + (f" ({over} from the command line override it)" if over else "")
    return ctx, path, f"{said}: {context_words(ctx, lang)}"


class _Progress:
    """A one-line progress bar on stderr (plain lines when stderr is not a terminal)."""

    def __init__(self, total: int):
        self.total, self.count, self.tty = total, 0, sys.stderr.isatty()
        self.step = max(1, total // 10)

    def __call__(self, row: dict) -> None:
        self.count += 1
        status = "error" if row.get("error") else (row.get("final") or row.get("reason") or "read")
        name = Path(str(row.get("photo"))).name
        if self.tty:
            filled = int(30 * self.count / max(1, self.total))
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {self.count}/{self.total} {name[:30]:<30} {status}")
            if self.count == self.total:
                sys.stderr.write("\n")
            sys.stderr.flush()
        elif self.count % self.step == 0 or self.count == self.total or row.get("error"):
            sys.stderr.write(f"{self.count}/{self.total} {name}: {status}\n")


@cli_command
def batch(
    source: Path = typer.Argument(..., help="A folder of photos, or a CSV/JSON manifest with context per photo."),
    out: Path = typer.Option(..., "--out", help="results.csv, results.json or results.jsonl (written as it goes)."),
    jobs: int = typer.Option(1, "--jobs", "-j", help="Worker processes."),
    ruleset: str = typer.Option("nts", "--ruleset", help="Ruleset where the manifest gives none."),
    wind: Optional[str] = typer.Option(None, "--wind", help="Prevailing wind where the manifest gives none."),
    threshold: float = typer.Option(0.6, "--threshold", help="Tiles below this confidence are flagged."),
    restart: bool = typer.Option(False, "--restart", help="Overwrite the output instead of resuming."),
    retry_errors: bool = typer.Option(False, "--retry-errors", help="Redo photos whose row has an error."),
    recognizer: Optional[str] = typer.Option(None, "--recognizer", hidden=True,
                                             help="module:function of another recognizer."),
    tile_set: Optional[str] = typer.Option(None, "--set", help="Read with a taught set (mjscore teach, docs/teach.md)."),
) -> None:
    """Score many photos; one row per photo; resumable; a bad photo never stops the batch."""
    from .batch import ResultSink, failed_rows, load_jobs, run_batch
    from ..vision.recognizer import set_recognizer

    if jobs < 1:
        raise InputError("--jobs must be at least 1")
    defaults = make_context(wind=wind, ruleset=ruleset)
    job_list = load_jobs(source, defaults)
    sink = ResultSink(out, restart=restart, retry_errors=retry_errors)
    if not job_list:
        raise InputError(f"no photos in {source}")
    todo = sum(1 for j in job_list if j.key not in sink.done)
    progress = _Progress(todo)
    summary = run_batch(job_list, sink, workers=jobs, recognizer=recognizer or set_recognizer(tile_set), threshold=threshold,
                        progress=progress)
    typer.echo(summary.text())
    typer.echo(f"results: {out}")
    if source.is_dir():
        typer.echo(_manifest_hint(source))
    failed = failed_rows(job_list, sink)          # exit 1 when any row failed, resumed runs alike
    if failed:
        typer.echo(f"errors ({len(failed)} rows):", err=True)
        for row in failed:
            typer.echo(f"  {row.get('photo')!s}: {row['error']}".replace("\n", "\\n"), err=True)
        raise typer.Exit(1)


def _manifest_hint(folder: Path) -> str:
    """A folder run knows no seats or winds: say how to give them."""
    from .manifest import MANIFEST_NAME
    manifest = folder / MANIFEST_NAME
    if manifest.exists():
        return f"no context given per photo: fill in {manifest} and run mjscore batch {manifest} --out ..."
    return (f"no context given per photo: mjscore batch-init {folder} writes {manifest} to fill in "
            f"(seats, winds, win types), then run mjscore batch {manifest} --out ...")


@cli_command
def batch_init(
    folder: Path = typer.Argument(..., help="The folder of photos."),
    force: bool = typer.Option(False, "--force", help="Overwrite an existing manifest.csv."),
) -> None:
    """Write FOLDER/manifest.csv: one row per photo (in the order taken), context to fill in."""
    from .manifest import write_template
    target, count = write_template(folder, force=force)
    typer.echo(f"wrote {target} ({count} photos): fill in seat, wind, win_type (and table, round, player) "
               f"in a spreadsheet, then run mjscore batch {target} --out results.csv")
