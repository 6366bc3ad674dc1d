"""``/redoc`` with nothing from the internet.

``fastapi-offline`` serves ReDoc's script from the app, but that script still puts the
Redocly logo in the side menu from ``https://cdn.redoc.ly``: a request off the table's
network on every visit. The app serves its own ``/redoc`` page instead, with ReDoc's
script (the package's file) where that one address points at a small logo of our own
(``static/docs-logo.svg``). Swagger UI at ``/docs`` needs nothing from outside."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from fastapi import FastAPI
from fastapi.openapi.docs import get_redoc_html
from fastapi.responses import HTMLResponse, Response
from starlette.routing import Route, Router

CDN_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg"
LOCAL_LOGO = "/static/docs-logo.svg"
ASSETS = "/docs-assets"                     # mounted like the other static files
SCRIPT_URL = ASSETS + "/redoc.standalone.js"


@lru_cache(maxsize=1)
def redoc_script() -> bytes:
    """ReDoc's standalone script as ``fastapi-offline`` ships it, the CDN logo made local."""
    import fastapi_offline

    path = Path(fastapi_offline.__file__).parent / "static" / "redoc.standalone.js"
    return path.read_text(encoding="utf-8").replace(CDN_LOGO, LOCAL_LOGO).encode("utf-8")


def add_redoc(app: FastAPI, favicon: str = "/static-offline-docs/favicon.png") -> None:
    """The ``/redoc`` page and its script (call on an app made with ``redoc_url=None``)."""

    @app.get("/redoc", include_in_schema=False)
    def redoc_page() -> HTMLResponse:
        return get_redoc_html(openapi_url=app.openapi_url, title=app.title + " - ReDoc",
                              redoc_js_url=SCRIPT_URL, redoc_favicon_url=favicon, with_google_fonts=False)

    def redoc_js(_request) -> Response:
        return Response(redoc_script(), media_type="text/javascript",
                        headers={"Cache-Control": "public, max-age=86400"})

    app.mount(ASSETS, Router([Route("/redoc.standalone.js", redoc_js)]), name="docs-assets")
