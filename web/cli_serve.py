"""``mjscore serve``: the phone page and its JSON API on this computer.

By default it listens on localhost only. ``--host 0.0.0.0`` opens it to the local network
and prints a QR code of the LAN address, so a phone on the same Wi-Fi opens the page by
pointing its camera at the terminal."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Optional

import typer

from ..errors import UnavailableError, cli_command


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)


def lan_address() -> str:
    """This computer's address on the local network (no packet is sent: a UDP socket
    'connected' to a private address only picks the outgoing interface)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 1))
            return s.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def page_urls(host: str, port: int) -> tuple[str, str | None]:
    """(URL to print, URL for the QR code or None when only this computer can reach it)."""
    if host in ("0.0.0.0", "::", ""):
        lan = f"http://{lan_address()}:{port}/"
        return lan, lan
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/", None


def qr_text(url: str) -> str:
    """The URL as a QR code drawn with text blocks (for the terminal)."""
    import io

    import segno

    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue()


@cli_command
def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on; 0.0.0.0 = the local network too."),
    port: int = typer.Option(8000, "--port", min=1, max=65535, help="TCP port."),
    db: Optional[Path] = typer.Option(None, "--db", help="Session database (default: as `mjscore session`)."),
    tile_set: Optional[str] = typer.Option(None, "--set", help="Read photos with a taught set (docs/teach.md)."),
) -> None:
    """Serve the phone page: snap a hand, correct tiles, see the score, keep a session."""
    try:
        import uvicorn

        from .app import create_app
    except ImportError as exc:
        raise UnavailableError(f"the web server needs fastapi and uvicorn ({exc}); "
                               "install them with: pip install -e .") from None
    if db is not None and db.is_dir():
        raise UnavailableError(f"--db {db} is a folder, not a database file")
    if tile_set is not None:
        from ..vision.sets import load_set
        load_set(tile_set)                   # checked now: an unknown or damaged set stops here
    url, qr_url = page_urls(host, port)
    try:                                     # fail early and clearly when the port is taken
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as exc:
        raise UnavailableError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    typer.echo(f"mjscore page: {url}   (API docs: {url}docs)")
    if qr_url:
        typer.echo(f"On this computer: http://127.0.0.1:{port}/")
        typer.echo("Open it on a phone on the same network:")
        typer.echo(qr_text(qr_url))
    else:
        typer.echo("Only this computer can open it; use --host 0.0.0.0 to reach it from a phone.")
    uvicorn.run(create_app(db_path=db, tile_set=tile_set), host=host, port=port, log_level="warning")
