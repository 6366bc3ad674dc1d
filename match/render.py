"""Plain-text tables for the table: standings, seats, and every game, in Dutch or English.

Kept free of any terminal library so that the text can be pasted into a chat or printed.
Numbers are right-aligned, deltas carry a sign, and every game row shows each player's
seat wind, own hand score (NTS) and settlement.
"""

from __future__ import annotations

from ..scoring.numbers import number
from ..scoring.words import WIN_TYPE_WORDS, WIND_NAMES
from .model import SessionView

LABELS = {
    "en": {
        "session": "Session", "ruleset": "ruleset", "created": "started",
        "game_of": "game {n} of {total}", "game_open": "game {n}",
        "finished": "finished", "stopped": "stopped early", "complete": "complete",
        "prevailing": "Prevailing wind", "next_game": "next game", "seats": "Seats",
        "thrown": "thrown {pips}", "standings": "Standings", "rank": "#", "player": "Player",
        "total": "Total", "games": "Games", "wind": "Wind", "result": "Result",
        "draw": "draw", "mahjong": "mahjong", **WIN_TYPE_WORDS["en"], "from": "from",
        "dead": "dead", "no_games": "no games yet", "dealer": "dealer",
        "honba": "counters", "pot": "riichi sticks", "ron": "ron", "tsumo": "tsumo",
        "chombo": "chombo", "tenpai": "tenpai", "noten": "all noten", "riichi": "riichi",
        "han": "han", "fu": "fu", "yakuman": "yakuman", "leftover": "leftover sticks to first place: {n}",
        "seat_dice": "Seats by dice", "start": "start",
        "sessions": "Sessions", "id": "id", "name": "name", "players": "players",
        "status": "status", "open": "open", "leader": "leader",
        "round": "{wind} {n}", "running": "Totals after each game", "no_sessions": "no sessions yet", "counted": "score counted at the table",
        "payments": "Payments", "pays": "{payer} pays {payee} {amount}", "nobody_pays": "nobody pays",
        "reopened": "the end of the session (it is open again)",
    },
    "nl": {
        "session": "Sessie", "ruleset": "spelregels", "created": "begonnen",
        "game_of": "spel {n} van {total}", "game_open": "spel {n}",
        "finished": "afgelopen", "stopped": "eerder gestopt", "complete": "uitgespeeld",
        "prevailing": "Heersende wind", "next_game": "volgend spel", "seats": "Winden",
        "thrown": "gegooid {pips}", "standings": "Stand", "rank": "#", "player": "Speler",
        "total": "Totaal", "games": "Spellen", "wind": "Wind", "result": "Uitslag",
        "draw": "remise", "mahjong": "mahjong", **WIN_TYPE_WORDS["nl"], "from": "van",
        "dead": "dood spel", "no_games": "nog geen spellen", "dealer": "dealer",
        "honba": "tellers", "pot": "riichi-stokjes", "ron": "ron", "tsumo": "tsumo",
        "chombo": "chombo", "tenpai": "tenpai", "noten": "niemand tenpai", "riichi": "riichi",
        "han": "han", "fu": "fu", "yakuman": "yakuman",
        "leftover": "overgebleven stokjes naar de eerste plaats: {n}",
        "seat_dice": "Winden gegooid", "start": "start",
        "sessions": "Sessies", "id": "id", "name": "naam", "players": "spelers",
        "status": "stand", "open": "bezig", "leader": "voorop",
        "round": "{wind} {n}", "running": "Stand na elk spel", "no_sessions": "nog geen sessies", "counted": "punten aan tafel geteld",
        "payments": "Betalingen", "pays": "{payer} betaalt {payee} {amount}", "nobody_pays": "niemand betaalt",
        "reopened": "het einde van de sessie (hij is weer open)",
    },
}


def labels(lang: str) -> dict:
    return LABELS.get(lang, LABELS["en"])


def signed(value: int | float, lang: str = "en") -> str:
    """A gain or loss: ``+1,536`` in the English tables, ``+1.536`` in Dutch
    (``scoring.numbers.number``, the one Dutch writing of numbers)."""
    if lang == "nl":
        return number(value, lang, signed=True)
    text = f"{value:+,.0f}" if float(value).is_integer() else f"{value:+,.2f}"
    return text if value else "0"


def plain(value: int | float, lang: str = "en") -> str:
    if lang == "nl":
        return number(value, lang)
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.2f}"


def table(header: list[str], rows: list[list[str]], right: set[int]) -> str:
    """Columns padded to their widest cell; columns in ``right`` are right-aligned."""
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]

    def line(cells: list[str]) -> str:
        out = [str(c).rjust(w) if i in right else str(c).ljust(w)
               for i, (c, w) in enumerate(zip(cells, widths))]
        return "  ".join(out).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(header), rule, *(line(r) for r in rows)])


def header_lines(view: SessionView, lang: str) -> list[str]:
    L, W = labels(lang), WIND_NAMES.get(lang, WIND_NAMES["en"])
    played = len(view.games)
    if view.ruleset in ("nts", "nts-app") and view.rounds:
        progress = L["game_of"].format(n=played, total=4 * view.rounds)
    else:
        progress = L["game_open"].format(n=played)
    status = ""
    if view.finished:
        reason = (view.end or {}).get("reason", "complete")
        status = f" · {L['finished']} ({L.get(reason, reason)})"
    lines = [f"{L['session']} {view.id} \"{view.name}\" · {L['ruleset']} {view.ruleset} · "
             f"{progress}{status}"]
    seats = "  ".join(f"{p} {W[view.seats[p]]}" for p in view.players)
    if not view.finished:
        wind = view.prevailing_wind
        extra = ""
        if view.ruleset == "nts-app" and view.state.next_wind_pips:
            extra = f" ({L['thrown'].format(pips=view.state.next_wind_pips)})"
        if view.ruleset == "riichi":
            wind_name, n = view.riichi_label()
            lines.append(f"{L['next_game']}: {L['round'].format(wind=W[wind_name], n=n)} · "
                         f"{L['honba']} {view.state.honba} · {L['pot']} {view.state.pot}")
        else:
            lines.append(f"{L['prevailing']} ({L['next_game']}): {W[wind]}{extra}")
        lines.append(f"{L['seats']}: {seats}")
    if view.setup.get("seat_throws"):
        throws = " / ".join(", ".join(f"{p} {t}" for p, t in r.items())
                            for r in view.setup["seat_throws"])
        lines.append(f"{L['seat_dice']}: {throws}")
    if view.end and view.end.get("pot_awarded"):
        lines.append(L["leftover"].format(n=view.end["pot_awarded"]))
    return lines


def standings_table(view: SessionView, lang: str) -> str:
    L = labels(lang)
    rows = [[str(rank), player, plain(total, lang)] for rank, player, total in view.standings()]
    return table([L["rank"], L["player"], L["total"]], rows, right={0, 2})


def game_result(game: dict, lang: str) -> str:
    """One line that says what happened in a game."""
    L = labels(lang)
    kind = game["kind"]
    if kind == "draw" and "tenpai" not in game:
        return L["draw"]
    if kind == "mahjong":
        winner = game["winners"][0]
        how = L.get(game.get("win_type") or "", "")
        text = f"{winner} {L['mahjong']} {game['hand_scores'][winner]} {how}".rstrip()
        if game.get("discarder"):
            text += f" {L['from']} {game['discarder']}"
        return text
    parts = []
    if kind == "ron":
        wins = ", ".join(f"{w['player']} {_riichi_value(w, L)}" for w in game["wins"])
        parts.append(f"{L['ron']} {wins} {L['from']} {game['discarder']}")
    elif kind == "tsumo":
        w = game["wins"][0]
        parts.append(f"{L['tsumo']} {w['player']} {_riichi_value(w, L)}")
    elif kind == "draw":
        parts.append(f"{L['draw']}, {L['tenpai']}: " + (", ".join(game["tenpai"]) or "-"))
    elif kind == "chombo":
        parts.append(f"{L['chombo']} {game['chombo']}")
    if game.get("riichi"):
        parts.append(f"{L['riichi']} " + ", ".join(game["riichi"]))
    return "; ".join(parts)


def _riichi_value(win: dict, L: dict) -> str:
    if win.get("yakuman"):
        return L["yakuman"]
    text = f"{win['han']} {L['han']}"
    if win.get("fu"):
        text += f" {win['fu']} {L['fu']}"
    return text


def games_table(view: SessionView, lang: str) -> str:
    """Game by game: each player's seat wind, own hand score (NTS) and settlement."""
    L = labels(lang)
    if not view.games:
        return L["no_games"]
    riichi = view.ruleset == "riichi"
    header = ["#", L["wind"]] + ([L["honba"], L["pot"]] if riichi else []) + view.players
    header.append(L["result"])
    fixed = 4 if riichi else 2
    rows = []
    for game in view.games:
        if riichi:
            wind, n = game["round"]
            row = [str(game["number"]), f"{wind}{n}", str(game["honba_before"]),
                   str(game["pot_before"])]
        else:
            row = [str(game["number"]), game["prevailing_wind"]]
        for player in view.players:
            cell = game["seats"][player]
            if not riichi:
                score = (game.get("hand_scores") or {}).get(player)
                dead = player in game.get("dead", [])
                cell += " " + ("\u20200" if dead else str(score if score is not None else "")).rjust(4)
            cell += " " + signed(game["deltas"][player], lang).rjust(7)
            row.append(cell)
        row.append(game_result(game, lang))
        rows.append(row)
    return table(header, rows, right={0, *range(fixed, fixed + len(view.players))})


def running_table(view: SessionView, lang: str) -> str:
    """Totals after every game: the score sheet of seed 1's "puntenteller"."""
    L = labels(lang)
    rows = [[L["start"]] + [plain(view.start_points, lang) for _ in view.players]]
    for game, after in zip(view.games, view.running):
        rows.append([str(game["number"])] + [plain(after[p], lang) for p in view.players])
    if view.end and view.end.get("final_scores"):
        rows.append([L["finished"]] + [plain(view.totals[p], lang) for p in view.players])
    return table(["#", *view.players], rows, right=set(range(len(view.players) + 1)))


def show(view: SessionView, lang: str = "en") -> str:
    L = labels(lang)
    parts = ["\n".join(header_lines(view, lang)), "",
             f"{L['standings']}", standings_table(view, lang), "",
             f"{L['games']}", games_table(view, lang)]
    if view.games:
        parts += ["", L["running"], running_table(view, lang)]
    if any(g.get("dead") for g in view.games):
        parts.append(f"† = {L['dead']}")
    return "\n".join(parts)


def _breakdowns(game: dict) -> dict[str, dict]:
    """Each player's scoring lines as the engine returned them, by player name."""
    name_of = {seat: name for name, seat in game["seats"].items()}
    out: dict[str, dict] = {}
    for exchange in game.get("exchanges", []):
        answer, request = exchange.get("answer") or {}, exchange.get("request") or {}
        for seat, entry in (answer.get("scores") or {}).items():
            out[name_of[seat]] = entry
        if "hand" in request and "final" in answer:
            out[name_of[request["hand"]["seat_wind"]]] = answer
    return out


def _label(code: str, lang: str) -> str:
    from ..scoring import label

    return label(code, lang)


def game_detail(view: SessionView, number: int, lang: str = "en") -> str:
    """One game in full: every player's hand or counted score, lines and settlement."""
    L, W = labels(lang), WIND_NAMES.get(lang, WIND_NAMES["en"])
    if not 1 <= number <= len(view.games):
        from .model import SessionError

        raise SessionError(f"session {view.id} has no game {number} "
                           f"(games 1 to {len(view.games)})")
    game = view.games[number - 1]
    wind = game.get("prevailing_wind")
    head = f"{L['game_open'].format(n=number)} · {L['prevailing']} {W.get(wind, wind)}"
    if view.ruleset == "riichi":
        w, n = game["round"]
        head = (f"{L['game_open'].format(n=number)} · {L['round'].format(wind=W[w], n=n)} · "
                f"{L['honba']} {game['honba_before']} · {L['pot']} {game['pot_before']}")
    lines = [head, game_result(game, lang), ""]
    breakdowns = _breakdowns(game)
    hands = game.get("hands") or {}
    given = game.get("given_scores") or {}
    for player in view.players:
        seat = game["seats"][player]
        what = hands.get(player) or (f"({L['counted']})" if player in given else "")
        if player in game.get("dead", []):
            what = f"{what} ({L['dead']})".strip()
        if view.ruleset == "riichi":
            win = next((w for w in game.get("wins", []) if w["player"] == player), None)
            what = (f"{win.get('hand', '')} {_riichi_value(win, L)} "
                    + " ".join(win.get("yaku", []))).strip() if win else ""
        score = (game.get("hand_scores") or {}).get(player)
        score_text = "" if score is None or view.ruleset == "riichi" else str(score)
        lines.append(f"{player} ({W[seat]})" + (f": {what}" if what else "") +
                     (f" = {score_text}" if score_text else "") +
                     f" · {signed(game['deltas'][player], lang)}")
        entry = breakdowns.get(player)
        if entry and (entry.get("base_points") or entry.get("limit_hand")):
            for code, points in entry.get("base_points", []):
                lines.append(f"    {points:>4}  {_label(code, lang)}")
            for code, times in entry.get("doublings", []):
                lines.append(f"    x2^{times:<2} {_label(code, lang)}")
            if entry.get("limit_hand"):
                lines.append(f"    {_label(entry['limit_hand'], lang)}")
    if view.ruleset == "riichi":
        explanation = riichi_explanation(game, lang)
        if explanation:
            lines += [""] + explanation
    else:
        lines += ["", L["payments"]] + ["    " + text for text in payment_texts(view, game, lang)]
    return "\n".join(lines)


def payment_texts(view: SessionView, game: dict, lang: str = "en") -> list[str]:
    """``Anna pays Cor 96`` for every payment of an NTS game (``payments.payment_lines``)."""
    from .payments import payment_lines

    L = labels(lang)
    lines = payment_lines(game, view.ruleset, view.players)
    return [L["pays"].format(payer=p.payer, payee=p.payee, amount=plain(p.amount, lang))
            for p in lines] or [L["nobody_pays"]]


def riichi_explanation(game: dict, lang: str) -> list[str]:
    """The engine's sentences about this hand, with player names next to the seats."""
    import re

    try:
        from ..scoring.riichi import settlement_lines
        request = dict(game["exchanges"][0]["request"])
        request.pop("ruleset", None)
        sentences = settlement_lines(request, lang)
    except Exception:          # an older record or an engine without explanations: skip it
        return []
    W = WIND_NAMES.get(lang, WIND_NAMES["en"])
    name_of = {W[seat]: name for name, seat in game["seats"].items()}
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, name_of)) + r")\b")
    return [pattern.sub(lambda m: f"{name_of[m.group(1)]} ({m.group(1)})", line)
            for line in sentences]


def sessions_table(views: list[SessionView], lang: str = "en") -> str:
    L = labels(lang)
    rows = []
    for v in views:
        status = (L["finished"] if v.finished else L["open"])
        leader = v.standings()[0][1] if v.games else "-"
        rows.append([str(v.id), v.name, v.ruleset, ", ".join(v.players), str(len(v.games)),
                     status, leader])
    return table([L["id"], L["name"], L["ruleset"], L["players"], L["games"], L["status"],
                  L["leader"]], rows, right={0, 4})


def undone_text(undone: str, lang: str = "en") -> str:
    """What ``MatchBook.undo`` took back (``game 3`` or ``reopened``), in ``lang``."""
    L = labels(lang)
    if undone == "reopened":
        return L["reopened"]
    number = undone.rsplit(" ", 1)[-1]
    return L["game_open"].format(n=number) if number.isdigit() else undone


def game_summary(view: SessionView, record: dict, lang: str = "en") -> str:
    """What `session hand` prints after storing a game."""
    L = labels(lang)
    deltas = "  ".join(f"{p} {signed(record['deltas'][p], lang)}" for p in view.players)
    totals = "  ".join(f"{p} {plain(view.running[-1][p], lang)}" for p in view.players)
    lines = [f"{L['game_open'].format(n=record['number'])}: {game_result(record, lang)}", deltas,
             f"{L['total']}: {totals}"]
    if not view.finished:
        lines.append(next_game_line(view, lang))
    return "\n".join(lines)


def next_game_line(view: SessionView, lang: str = "en") -> str:
    """Who is East and what the prevailing wind is for the coming game."""
    L, W = labels(lang), WIND_NAMES.get(lang, WIND_NAMES["en"])
    east = next(p for p, seat in view.seats.items() if seat == "E")
    if view.ruleset == "riichi":
        wind, n = view.riichi_label()
        return (f"{L['next_game']}: {L['round'].format(wind=W[wind], n=n)} · {L['dealer']} "
                f"{east} · {L['honba']} {view.state.honba} · {L['pot']} {view.state.pot}")
    return (f"{L['next_game']}: {L['game_open'].format(n=len(view.games) + 1)} · "
            f"{L['prevailing']} {W[view.prevailing_wind]} · {W['E']}: {east}")
