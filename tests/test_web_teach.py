"""One tap teaches the player's own set (issue 15, web part): POST /api/sets/NAME/photos with
the photo just corrected and its tiles adds them to the set (made when new), later scans
read with it, GET /api/sets offers the sets; bad input is a clear 4xx and changes nothing.

Sets live in ``MJSCORE_DATA_DIR`` (a tmp folder here); teaching runs the shipped
classifier, so the test needs the shipped models (they are part of the repository)."""

from __future__ import annotations

import json
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from test_web_support import HAND_PHOTO, labelled_tiles
from mjscore.web.app import create_app


@pytest.fixture
def client(tmp_path, monkeypatch):
    monkeypatch.setenv("MJSCORE_DATA_DIR", str(tmp_path / "data"))
    return TestClient(create_app(db_path=tmp_path / "s.sqlite3"))


def corrected_tiles() -> str:
    return json.dumps([{"kind": t.kind, "box": list(t.box)} for t in labelled_tiles("photo_3", 640, 640)])


def teach(client, name="club", tiles=None, photo=None):
    return client.post(f"/api/sets/{name}/photos",
                       files={"photo": ("p.jpg", photo if photo is not None else HAND_PHOTO.read_bytes(), "image/jpeg")},
                       data={"tiles": tiles if tiles is not None else corrected_tiles()})


def test_the_corrected_photo_teaches_a_new_set_and_later_scans_read_with_it(client):
    from mjscore.vision.sets import list_sets, load_set

    assert client.get("/api/sets").json() == {"sets": [], "reading": None}
    r = teach(client)
    assert r.status_code == 201, r.text
    out = r.json()
    assert out["name"] == "club" and out["tiles"] == 19 and out["kinds"] == len(out["tiles_per_kind"])
    assert out["tiles_per_kind"]["R"] == 3 and out["tiles_per_kind"]["5s"] == 3
    assert list_sets() == ["club"] and load_set("club").sources == ("web photo",)
    assert client.get("/api/sets").json() == {"sets": ["club"], "reading": None}
    again = teach(client).json()                          # a second photo adds to the set
    assert again["tiles"] == 38
    photo = {"photo": ("p.jpg", HAND_PHOTO.read_bytes(), "image/jpeg")}
    scan = client.post("/api/scan", files=photo, data={"tile_set": "club"})
    assert scan.status_code == 200 and scan.json()["tile_set"] == "club"
    assert "".join(sorted(t["kind"] for t in scan.json()["tiles"])) == "".join(
        sorted(t.kind for t in labelled_tiles("photo_3", 640, 640)))
    unknown = client.post("/api/scan", files=photo, data={"tile_set": "nope"})
    assert unknown.status_code == 404 and "nope" in unknown.json()["detail"]


@pytest.mark.parametrize("name, tiles, words", [
    ("bad name!", None, "name"),
    ("club", "[]", "none were sent"),
    ("club", "not json", "JSON"),
    ("club", json.dumps([{"kind": "X", "box": [1, 1, 20, 30]}]), "can learn"),
    ("club", json.dumps([{"kind": "5p", "box": [20, 1, 10, 30]}]), "box"),
])
def test_bad_teaching_is_a_clear_4xx_and_makes_no_set(client, name, tiles, words):
    from mjscore.vision.sets import list_sets

    r = teach(client, name, tiles)
    assert 400 <= r.status_code < 500 and words in json.dumps(r.json()), r.text
    assert list_sets() == []


def test_teaching_from_something_that_is_no_photo(client):
    r = teach(client, photo=b"GIF89a not a photo")
    assert r.status_code == 415
    r = client.post("/api/sets/club/photos", files={"photo": ("p.jpg", HAND_PHOTO.read_bytes(), "image/jpeg")},
                    headers={"Accept-Language": "nl"}, data={"tiles": "[]"})
    assert r.status_code == 422 and "er zijn er geen gestuurd" in r.json()["detail"]


def test_serve_set_is_the_default_reader_and_an_unknown_set_stops_serve(client, tmp_path):
    from typer.testing import CliRunner

    from mjscore.cli import app

    assert teach(client).status_code == 201
    served = TestClient(create_app(db_path=tmp_path / "t.sqlite3", tile_set="club"))
    assert served.get("/api/sets").json() == {"sets": ["club"], "reading": "club"}
    scan = served.post("/api/scan", files={"photo": ("p.jpg", HAND_PHOTO.read_bytes(), "image/jpeg")})
    assert scan.json()["tile_set"] == "club"
    general = served.post("/api/scan", files={"photo": ("p.jpg", HAND_PHOTO.read_bytes(), "image/jpeg")},
                          data={"tile_set": "-"})
    assert general.json()["tile_set"] is None
    result = CliRunner().invoke(app, ["serve", "--set", "nope", "--port", "1"])
    assert result.exit_code != 0 and "nope" in result.output
