"""``/docs`` and ``/redoc`` work with no internet: their scripts, styles and icon are served
by the app itself (issue 16), not fetched from a CDN."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from mjscore.web.app import create_app

ASSET = re.compile(r"""(?:src|href)\s*=\s*["']([^"']+)["']|url\s*:\s*['"]([^'"]+)['"]""")


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(recognize=lambda rgb: []))


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
def test_docs_page_loads_nothing_from_the_internet(client, page):
    res = client.get(page)
    assert res.status_code == 200
    assert not re.search(r"""(?:src|href)\s*=\s*["']https?://""", res.text), res.text
    assets = [a or b for a, b in ASSET.findall(res.text)]
    assert assets and all(a.startswith("/") for a in assets), assets
    for url in assets:
        got = client.get(url)
        assert got.status_code == 200 and got.content, url


def test_swagger_ui_reads_the_schema_version_fastapi_writes(client):
    """FastAPI writes OpenAPI 3.1, which only Swagger UI 5 renders."""
    assert client.get("/openapi.json").json()["openapi"].startswith("3.1")
    js = client.get(next(a for a, _ in ASSET.findall(client.get("/docs").text) if a.endswith(".js"))).text
    assert '"5.' in js


def test_redoc_script_takes_its_logo_from_the_app_not_a_cdn(client):
    """ReDoc's script as shipped puts the Redocly logo in from cdn.redoc.ly; the app's copy
    points at its own logo, which it serves."""
    page = client.get("/redoc").text
    for url in (a for a, _ in ASSET.findall(page) if a.endswith(".js")):
        js = client.get(url).text
        assert "cdn.redoc.ly" not in js and "/static/docs-logo.svg" in js
    logo = client.get("/static/docs-logo.svg")
    assert logo.status_code == 200 and logo.text.startswith("<svg")
