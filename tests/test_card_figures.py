"""The model cards' figures block is measured, not typed: ``vision.training.card_figures``
evaluates the recognizer on each data set and rewrites the block in both cards."""

from pathlib import Path

from mjscore.vision.training import card_figures

SAMPLES = Path(__file__).resolve().parents[1] / "samples" / "chinese-v4"


def test_block_is_measured_on_the_data_and_written_into_every_card(tmp_path, monkeypatch):
    sets = [("chinese-v4 bundled samples", SAMPLES, "`mjscore eval samples/chinese-v4`")]
    report, split = card_figures.measure(SAMPLES)
    assert report["photos"] == 5 and report["tiles"] == sum(
        len(p.read_text().splitlines()) for p in (SAMPLES / "labels").glob("*.txt"))
    # photo_3 (7:1) and photo_5 (9:1) came out of the exporter stretched; the rest did not
    assert split["stretched"]["photos"] == 2 and split["ordinary"]["photos"] == 3
    report["folder"] = "samples/chinese-v4"
    block = card_figures.figures_block({"chinese-v4 bundled samples": report}, {"chinese-v4 bundled samples": split},
                                       {"runs": 3, "median_seconds": 0.2,
                                        "median_stage_ms": {"load": 20, "detect": 60, "classify": 70}}, sets)
    assert f"| chinese-v4 bundled samples | 5 | {report['tiles']} |" in block
    assert f"**{report['tile_f1']:.3f}**" in block
    assert "2 photos the exporter stretched" in block and "median 0.200 s" in block

    cards = []
    for name in ("a.md", "b.md"):
        card = tmp_path / name
        card.write_text("# card\n<!-- figures -->\nold figures\n<!-- /figures -->\nsha256: x\n")
        cards.append(card)
    monkeypatch.setattr(card_figures, "CARDS", cards)
    card_figures.write_cards(block)
    for card in cards:
        text = card.read_text()
        assert "old figures" not in text and block in text and text.endswith("sha256: x\n")


def test_real_sets_are_found_under_the_data_root_and_skipped_without_one(tmp_path):
    """No machine path: the real sets are under ``--data-root``/``$MJSCORE_DATA_ROOT``."""
    with_root = {name: folder for name, folder, _ in card_figures.data_sets(tmp_path)}
    assert with_root["chinese-v4 valid, raw labels"] == tmp_path / "datasets" / "chinese-mahjong-detection-v4" / "valid"
    without = {name: folder for name, folder, _ in card_figures.data_sets(None)}
    assert without["chinese-v4 valid, raw labels"] is None and without["synthetic hold-out (200 scenes, seed 105)"]
