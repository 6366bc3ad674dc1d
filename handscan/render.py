"""Readable text for a scan: the tiles, the groups and why, the score breakdown."""

from __future__ import annotations

from typing import Sequence

from .pipeline import LOW_CONFIDENCE, ScanResult
from ..scoring.messages import say
from ..scoring.numbers import number
from ..vision.layout import Layout, compact
from ..vision.types import PhotoRead, TileRead

_KIND_NAMES = {"concealed": ("concealed", "dicht"), "exposed": ("exposed", "open"),
               "concealed_kong": ("concealed kong", "dichte kong"), "bonus": ("bonus", "bloemen/seizoenen")}
_WORDS = {
    "en": {"tiles": "tiles", "groups": "groups", "hand": "hand", "score": "score", "base": "base points",
           "doublings": "doublings", "total": "total", "final": "final score", "invalid": "NOT A VALID HAND",
           "limit": "limit hand", "flag": "check", "alts": "closest valid hands", "missing": "missing",
           "warn": "note", "scored": "hand (scored)", "given": "hand (given)", "tiles_no": "tiles",
           "below": "confidence below", "would_be": "would be",
           "star": "* = the set the winning tile completed", "or": "or", "give": "give",
           "proposal": "PROPOSED READING (the most probable valid hand; confirm it or correct the tiles)",
           "accept": "accept with", "likely": "as likely as the reading as seen",
           "what": {}},
    "nl": {"tiles": "stenen", "groups": "groepen", "hand": "hand", "score": "score", "base": "basispunten",
           "doublings": "verdubbelingen", "total": "totaal", "final": "eindscore", "invalid": "GEEN GELDIGE HAND",
           "limit": "limiet", "flag": "controleer", "alts": "dichtstbijzijnde geldige handen",
           "missing": "ontbreekt", "warn": "let op", "scored": "hand (geteld)", "given": "hand (opgegeven)",
           "tiles_no": "stenen", "below": "zekerheid onder", "would_be": "zou zijn",
           "star": "* = de set die de winnende steen afmaakte", "or": "of", "give": "geef",
           "proposal": "VOORGESTELDE LEZING (de waarschijnlijkste geldige hand; bevestig of verbeter de stenen)",
           "accept": "overnemen met", "likely": "zo waarschijnlijk als de gelezen hand",
           "what": {"seat": "eigen wind", "wind": "ronde", "prevailing_wind": "ronde",
                    "winning_tile": "winnende steen", "win_type": "hoe gewonnen"}},
}


def _label(code: str, lang: str) -> str:
    """The engine's own label for a scoring code when it offers one, else the code itself."""
    try:
        from ..scoring import label as engine_label          # optional helper of the engine
        return engine_label(code, lang)
    except Exception:
        name, _, arg = code.partition(":")
        return name.replace("_", " ") + (f" {arg}" if arg else "")


def tiles_text(tiles: Sequence[TileRead], threshold: float = LOW_CONFIDENCE, lang: str = "en") -> list[str]:
    w = _WORDS.get(lang, _WORDS["en"])
    lines = []
    for i, t in enumerate(tiles):
        alts = "  ".join(f"{k} {p:.2f}" for k, p in t.alternatives[:3])
        mark = f"  <- {w['flag']}" if t.confidence < threshold else ""
        angle = f" {t.angle:>3}°" if t.angle else "     "
        lines.append(f"{i + 1:>3}  {t.kind:<3} {t.confidence:5.2f}{angle}  {(w['or'] + ' ' + alts) if alts else ''}"
                     f"{mark}".rstrip())
    return lines


def groups_text(layout: Layout, lang: str = "en") -> list[str]:
    li = 1 if lang == "nl" else 0
    tiles_word = _WORDS.get(lang, _WORDS["en"])["tiles_no"]
    lines = []
    for n, g in enumerate(layout.groups):
        nums = ",".join(str(i + 1) for i in g.indices)
        lines.append(f"{n + 1:>3}  {_KIND_NAMES[g.kind][li]:<15} {g.notation:<22} {tiles_word} {nums}  "
                     f"({g.confidence:.2f}: {say(g.reason, lang)})")
    return lines


def read_text(read: PhotoRead, layout: Layout, threshold: float = LOW_CONFIDENCE, lang: str = "en") -> str:
    w = _WORDS.get(lang, _WORDS["en"])
    out = [f"{read.image}: {len(layout.tiles)} {w['tiles']}"
           + (f" ({read.width}x{read.height})" if read.width else "")]
    out += tiles_text(layout.tiles, threshold, lang)
    out.append(f"{w['tiles']}: {compact([t.kind for t in layout.tiles])}")
    out.append(f"{w['groups']}:")
    out += groups_text(layout, lang)
    out.append(f"{w['hand']}: {layout.notation}")
    out += [f"{w['warn']}: {say(x, lang)}" for x in layout.warnings]
    return "\n".join(out)


def score_text(score: dict, lang: str = "en") -> list[str]:
    w = _WORDS.get(lang, _WORDS["en"])
    if not score.get("valid"):
        msg = score.get("message") or ""
        if lang == "nl":
            from ..scoring.messages import reason_text
            lines = [f"{w['invalid']}: {reason_text(str(score.get('reason', '?')), msg, lang)}"]
        else:
            lines = [f"{w['invalid']}: {score.get('reason', '?')}" + (f" ({msg})" if msg else "")]
        if score.get("base_points"):
            lines.append(f"  ({w['would_be']}: {number(score.get('base_total'), lang)} x 2^{score.get('doublings_total')})")
        return lines
    rows: list[tuple[str, str]] = []
    for code, pts in score.get("base_points", []):
        rows.append((_label(code, lang), f"{number(pts, lang):>5}"))
    if score.get("base_points"):
        rows.append((w["base"], f"{number(score.get('base_total', 0), lang):>5}"))
    for code, n in score.get("doublings", []):
        rows.append((_label(code, lang), f"x2^{n}".rjust(5)))
    if score.get("doublings"):
        rows.append((w["doublings"], f"{score.get('doublings_total', 0):>5}"))
    if score.get("total_before_limit") is not None and score.get("total_before_limit") != score.get("final"):
        rows.append((w["total"], f"{number(score['total_before_limit'], lang):>5}"))
    rows.append((w["final"], f"{number(score.get('final'), lang):>5}"))
    width = max(len(label) for label, _ in rows)
    lines = []
    if score.get("decomposition"):
        lines.append("  " + " ".join(score["decomposition"]))
        if any("*" in part for part in score["decomposition"]):
            lines.append(f"  {w['star']}")
    if score.get("limit_hand"):
        lines.append(f"  {w['limit']}: {_label(score['limit_hand'], lang)}")
    return lines + [f"  {label:<{width}}  {value}" for label, value in rows]


def result_text(res: ScanResult, threshold: float = LOW_CONFIDENCE, *, brief: bool = False) -> str:
    """The whole result; ``brief`` leaves out the tile list (the review prints it on ``tiles``)."""
    lang = res.context.lang
    w = _WORDS.get(lang, _WORDS["en"])
    if res.error:
        return f"{res.photo}: {'FOUT' if lang == 'nl' else 'ERROR'} {res.error}"
    if brief and res.layout:
        out = [f"{w['groups']}:"] + groups_text(res.layout, lang) + [f"{w['hand']}: {res.layout.notation}"]
        out += [f"{w['warn']}: {say(x, lang)}" for x in res.layout.warnings]
    else:
        out = [read_text(res.read or PhotoRead(res.photo, 0, 0), res.layout, threshold, lang)] if res.layout else []
    if res.hand_override:
        out.append(f"{w['given']}: {res.hand_override}")
    if res.notation and res.notation != (res.layout.notation if res.layout else None):
        out.append(f"{w['scored']}: {res.notation}")
    out += [f"{w['warn']}: {say(x, lang)}" for x in res.warnings if not res.layout or x not in res.layout.warnings]
    missing = [w["what"].get(f[len('missing_'):], f[len('missing_'):].replace('_', ' '))
               for f in res.flags if f.startswith("missing_")]
    if missing:
        out.append(f"{w['missing']}: {', '.join(missing)} ({w['give']} --seat / --wind / --winning-tile / "
                   f"--discard {w['or']} --self-drawn)")
    if res.score is not None:
        out.append(f"{w['score']} ({res.context.ruleset}):")
        out += score_text(res.score.to_json(), lang)
    if res.proposal is not None:
        p = res.proposal
        out.append(f"{w['proposal']}:")
        out += [f"  {p.notation}  = {number(p.final, lang)}  ({p.likelihood:.2f} x {w['likely']})"]
        out += [f"    - {say(c, lang)}" for c in p.changes]
        out.append(f"  {w['accept']}: --hand \"{p.notation}\"")
    others = [a for a in res.alternatives if a is not res.proposal]
    if others:
        out.append(f"{w['alts']}:")
        out += [f"  {a.notation}  = {number(a.final, lang)}  ({say(a.change, lang)})" for a in others]
    if res.low_confidence:
        out.append(f"{w['flag']}: {w['tiles_no']} {', '.join(map(str, res.low_confidence))} "
                   f"({w['below']} {threshold:.2f})")
    return "\n".join(out)
