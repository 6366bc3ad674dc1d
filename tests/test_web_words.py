"""The page's words come from the server (GET /api/words), in English and Dutch, from the
project's one catalogue; the upload limit the page states is the one the server applies."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from mjscore.web.app import create_app
from mjscore.web.photo import MAX_UPLOAD_BYTES, size_text

STATIC = Path(__file__).resolve().parents[1] / "web" / "static"


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(recognize=lambda rgb: []))


def test_every_key_the_page_uses_has_words_in_both_languages(client):
    en, nl = (client.get(f"/api/words?lang={lang}").json() for lang in ("en", "nl"))
    assert set(en["words"]) == set(nl["words"])
    page = (STATIC / "index.html").read_text() + (STATIC / "app.js").read_text()
    keys = set(re.findall(r'data-i18n="([\w-]+)"', page)) | set(re.findall(r'\bt\("([\w-]+)"', page))
    keys |= {f"kind_{k}" for k in ("concealed", "exposed", "concealed_kong", "bonus")}
    keys |= {f"m_{m}" for m in ("seat", "prevailing_wind", "winning_tile", "win_type")}
    keys -= {"kind_", "m_"}                                  # prefixes the page completes
    missing = keys - set(en["words"])
    assert not missing, missing
    same = [k for k in keys if en["words"][k] == nl["words"][k] and k not in
            ("final", "hand", "sets", "set_n", "set_sheet", "start", "ron", "tsumo", "chombo", "han", "fu",
             "yakuman", "api", "rules_nts", "rules_riichi", "teach_set", "kind_exposed")]
    assert not same, same                                    # every other label is really translated
    assert nl["winds"] == {"E": "Oost", "S": "Zuid", "W": "West", "N": "Noord"}
    assert nl["wind_letters"] == {"E": "O", "S": "Z", "W": "W", "N": "N"}
    assert nl["number"] == {"thousands": ".", "decimal": ","} and en["number"]["thousands"] == ","
    assert nl["session"]["pays"] == "{payer} betaalt {payee} {amount}"


def test_the_page_keeps_no_word_table_of_its_own():
    js = (STATIC / "app.js").read_text()
    for dutch in ("Maak of kies", "Eigen wind", "basispunten", "betaalt", "Oost"):
        assert dutch not in js, dutch
    assert "/api/words" in js


def test_words_reuse_the_engine_names():
    from mjscore.scoring.reasons import label
    from mjscore.scoring.words import WIN_TYPE_WORDS
    from mjscore.web.words import page_words

    nl = page_words("nl")
    assert nl["win_types"] == WIN_TYPE_WORDS["nl"]
    assert nl["reasons"]["min_doublings"] == label("min_doublings", "nl")


def test_bad_language_is_a_422(client):
    r = client.get("/api/words?lang=fr")
    assert r.status_code == 422 and isinstance(r.json()["detail"], list)


def test_the_limit_the_page_states_is_the_one_applied(client):
    words = client.get("/api/words").json()
    assert words["max_upload_bytes"] == MAX_UPLOAD_BYTES
    assert words["max_upload_text"] == size_text(MAX_UPLOAD_BYTES) == "20.0 MB"
    assert "20 MB" in (Path(__file__).resolve().parents[1] / "docs" / "web.md").read_text()
    over = b"\xff\xd8\xff" + b"\0" * (MAX_UPLOAD_BYTES - 2)
    r = client.post("/api/scan", files={"photo": ("big.jpg", over, "image/jpeg")})
    assert r.status_code == 413 and words["max_upload_text"] in r.json()["detail"]
    exact = b"\xff\xd8\xff" + b"\0" * (MAX_UPLOAD_BYTES - 3)           # at the limit: not refused for size
    r = client.post("/api/scan", files={"photo": ("big.jpg", exact, "image/jpeg")})
    assert r.status_code != 413, r.text


def test_the_pipelines_cli_hints_are_worded_as_taps_on_the_page():
    from mjscore.web.i18n import page_say, say_all

    doubtful = "grouping of set 2 is doubtful: check the sets, regroup with 'move' or give --hand"
    apart = "tile 14 (6s) lies apart at the end of the concealed row: the winning tile? (give --winning-tile 6s)"
    for lang in ("en", "nl"):
        for text in say_all([doubtful, apart], lang):
            assert "--" not in text and "'move'" not in text, text
    assert page_say(doubtful, "en") == "grouping of set 2 is doubtful: check the sets (tap a set to change it)"
    assert page_say(apart, "nl").startswith("steen 14 (6s) ligt apart")
    assert page_say("no tiles found in the photo", "nl") == "geen stenen gevonden op de foto"
