// mjscore phone page: photo -> tiles (boxed, tap to correct) -> context -> score, optionally
// into a session. No build step; talks to the JSON API documented at /docs.
"use strict";

const KINDS = [..."123456789"].map(n => n + "m").concat([..."123456789"].map(n => n + "p"),
  [..."123456789"].map(n => n + "s"), ["E", "S", "W", "N", "R", "G", "Wh"], ["f1", "f2", "f3", "f4", "j1", "j2", "j3", "j4"]);

const T = {
  en: {
    take_photo: "Take or choose a photo", tap_hint: "Tap a tile to correct it or to mark it as the winning tile.",
    context: "Game", seat: "Seat wind", wind: "Prevailing wind", win_type: "Won by", self_drawn: "self-drawn",
    discard: "discard", robbed_kong: "robbed kong", winning_tile: "Winning tile", tap_winning: "tap it in the photo",
    ruleset: "Rules", specials: "Special moments", last_wall_tile: "last tile of the wall",
    kong_replacement: "kong replacement tile", kong_on_kong: "kong on kong", heavenly: "heavenly hand",
    earth: "earthly hand", edit_hand: "Type the hand instead", hand: "Hand", final: "Score",
    session: "Add to a session", session_pick: "Session", winner: "Winner", discarder: "Discarded by",
    add_game: "Add this hand", new_session: "New session", start: "Start", is_winning: "Winning tile",
    face_down: "Face down", close: "Close", scanning: "Reading the tiles…", found: n => `${n} tiles found.`,
    none_found: "No tiles found in this photo: try again closer, in good light, or type the hand.",
    tile: (n, k, p) => `Tile ${n}: read as ${k}` + (p != null ? ` (${p}%)` : ""),
    base: "base points", doublings: "doublings", total: "total", limit: "limit hand", invalid: "Not a valid hand",
    missing: "Still needed", m_seat: "seat wind", m_prevailing_wind: "prevailing wind", m_winning_tile: "winning tile",
    m_win_type: "how it was won", closest: "Closest valid hands", no_session: "— none —",
    pick_session: "Choose a session", scored_first: "Score a valid hand first.", added: n => `Game ${n} added.`,
    rank: "#", points: "points", players_hint: "Four names, East first, separated by commas.",
    needs_photo: "Take a photo or type the hand.", seat_of: (p, s) => `${p} sits ${s}`,
    recognizer_missing: "The tile recognizer model is not installed on this server: type the hand instead.",
    engine_missing: "The scoring engine is not installed on this server.",
  },
  nl: {
    take_photo: "Maak of kies een foto", tap_hint: "Tik op een steen om hem te verbeteren of als winnende steen te kiezen.",
    context: "Spel", seat: "Eigen wind", wind: "Windronde", win_type: "Gewonnen door", self_drawn: "zelf gepakt",
    discard: "afgooi", robbed_kong: "kong beroofd", winning_tile: "Winnende steen", tap_winning: "tik hem aan in de foto",
    ruleset: "Regels", specials: "Bijzondere momenten", last_wall_tile: "laatste steen van de muur",
    kong_replacement: "losse steen na kong", kong_on_kong: "kong op kong", heavenly: "hemelse hand",
    earth: "aardse hand", edit_hand: "Typ de hand zelf", hand: "Hand", final: "Score",
    session: "Toevoegen aan een sessie", session_pick: "Sessie", winner: "Winnaar", discarder: "Afgegooid door",
    add_game: "Hand toevoegen", new_session: "Nieuwe sessie", start: "Start", is_winning: "Winnende steen",
    face_down: "Dicht (rug)", close: "Sluiten", scanning: "Stenen lezen…", found: n => `${n} stenen gevonden.`,
    none_found: "Geen stenen gevonden: probeer dichterbij, met goed licht, of typ de hand.",
    tile: (n, k, p) => `Steen ${n}: gelezen als ${k}` + (p != null ? ` (${p}%)` : ""),
    base: "basispunten", doublings: "verdubbelingen", total: "totaal", limit: "limiethand", invalid: "Geen geldige hand",
    missing: "Nog nodig", m_seat: "eigen wind", m_prevailing_wind: "windronde", m_winning_tile: "winnende steen",
    m_win_type: "hoe gewonnen", closest: "Dichtstbijzijnde geldige handen", no_session: "— geen —",
    pick_session: "Kies een sessie", scored_first: "Tel eerst een geldige hand.", added: n => `Spel ${n} toegevoegd.`,
    rank: "#", points: "punten", players_hint: "Vier namen, Oost eerst, met komma's ertussen.",
    needs_photo: "Maak een foto of typ de hand.", seat_of: (p, s) => `${p} zit ${s}`,
    recognizer_missing: "Het herkenningsmodel is niet geïnstalleerd op deze server: typ de hand.",
    engine_missing: "De rekenmodule is niet geïnstalleerd op deze server.",
  },
};

const $ = sel => document.querySelector(sel);
const saved = JSON.parse(localStorage.getItem("mjscore") || "{}");
const S = {
  lang: saved.lang || ((navigator.language || "en").startsWith("nl") ? "nl" : "en"),
  tiles: [], read: [], low: 0.6, width: 0, height: 0, fixed: new Set(), win: null,
  seat: saved.seat || "E", wind: saved.wind || "E", winType: "discard", ruleset: saved.ruleset || "nts",
  special: new Set(), seq: 0, last: null, sessions: [], session: null, newRuleset: "nts",
};
const t = key => (T[S.lang][key] ?? T.en[key] ?? key);

function save() {
  localStorage.setItem("mjscore", JSON.stringify({ lang: S.lang, seat: S.seat, wind: S.wind, ruleset: S.ruleset }));
}

function kindClass(k) {
  if (/^[1-9]m$/.test(k)) return "k-m";
  if (/^[1-9]p$/.test(k)) return "k-p";
  if (/^[1-9]s$/.test(k)) return "k-s";
  if (/^[fj][1-4]$/.test(k)) return "k-b";
  return "k-h";
}

async function api(method, url, body) {
  const opts = { method, headers: {} };
  if (body instanceof FormData) opts.body = body;
  else if (body !== undefined) { opts.body = JSON.stringify(body); opts.headers["Content-Type"] = "application/json"; }
  const r = await fetch(url, opts);
  let data = null;
  try { data = await r.json(); } catch (_) { /* not JSON */ }
  if (!r.ok) {
    let msg = data && data.detail;
    if (Array.isArray(msg)) msg = msg.map(d => (d.loc || []).slice(1).join(".") + ": " + d.msg).join("; ");
    throw new Error(msg || `${r.status} ${r.statusText}`);
  }
  return data;
}

// ------------------------------------------------------------------ language and segmented buttons

function applyLang() {
  document.documentElement.lang = S.lang;
  document.querySelectorAll("[data-i18n]").forEach(el => {
    const v = t(el.dataset.i18n);
    if (typeof v === "string") el.textContent = v;
  });
  if (S.win === null) $("#winning-tile").textContent = t("tap_winning");
  $("#new-players").title = t("players_hint");
  setSeg("#lang", S.lang);
}

function setSeg(sel, value) {
  document.querySelectorAll(sel + " button").forEach(b => b.setAttribute("aria-pressed", String(b.dataset.v === value)));
}

function bindSeg(sel, apply) {
  document.querySelectorAll(sel + " button").forEach(b => b.addEventListener("click", () => { apply(b.dataset.v); setSeg(sel, b.dataset.v); }));
}

// ------------------------------------------------------------------ photo and tiles

async function onPhoto(file) {
  if (!file) return;
  const img = $("#photo-img");
  if (img.src) URL.revokeObjectURL(img.src);
  img.src = URL.createObjectURL(file);
  $("#stage").hidden = false;
  const status = $("#scan-status");
  status.className = "status"; status.textContent = t("scanning");
  S.tiles = []; S.fixed = new Set(); S.win = null; renderTiles(); showWinning();
  const form = new FormData();
  form.append("photo", file, "photo");
  try {
    const scan = await api("POST", "/api/scan", form);
    S.tiles = scan.tiles; S.width = scan.width; S.height = scan.height;
    S.low = scan.low_confidence_threshold ?? 0.6;
    S.read = scan.tiles.map(tl => ({ kind: tl.kind, alternatives: tl.alternatives || [] }));
    status.textContent = scan.tiles.length ? t("found")(scan.tiles.length) : t("none_found");
    $("#tap-hint").hidden = !scan.tiles.length;
    renderTiles();
    rescore();
  } catch (e) {
    status.className = "status error"; status.textContent = e.message;
  }
}

function tileState(i) {
  const tile = S.tiles[i];
  const cls = [];
  if (S.fixed.has(i)) cls.push("fixed");
  else if (tile.confidence < S.low) cls.push("low");
  if (S.win === i) cls.push("win");
  return cls;
}

function renderTiles() {
  const svg = $("#overlay");
  svg.setAttribute("viewBox", `0 0 ${S.width || 1} ${S.height || 1}`);
  const NS = "http://www.w3.org/2000/svg";
  svg.replaceChildren();
  const strip = $("#tile-strip");
  strip.replaceChildren();
  const fontSize = Math.max(12, Math.round((S.width || 600) / 32));
  S.tiles.forEach((tile, i) => {
    const [x1, y1, x2, y2] = tile.box;
    const g = document.createElementNS(NS, "g");
    g.setAttribute("class", ["tile-box", ...tileState(i)].join(" "));
    g.dataset.n = String(i + 1);
    const r = document.createElementNS(NS, "rect");
    r.setAttribute("x", x1); r.setAttribute("y", y1);
    r.setAttribute("width", Math.max(1, x2 - x1)); r.setAttribute("height", Math.max(1, y2 - y1));
    const label = document.createElementNS(NS, "text");
    label.setAttribute("x", (x1 + x2) / 2); label.setAttribute("y", Math.max(fontSize, y1 - 4));
    label.setAttribute("text-anchor", "middle"); label.setAttribute("font-size", fontSize);
    label.textContent = tile.kind;
    const title = document.createElementNS(NS, "title");
    title.textContent = `${i + 1}: ${tile.kind} ${Math.round(tile.confidence * 100)}%`;
    g.append(r, label, title);
    g.addEventListener("click", () => openSheet(i));
    svg.append(g);
    const chip = document.createElement("button");
    chip.type = "button";
    chip.className = ["tile-chip", kindClass(tile.kind), ...tileState(i)].join(" ");
    chip.dataset.n = String(i + 1);
    chip.innerHTML = `${tile.kind}<span class="n">${i + 1}</span>`;
    chip.addEventListener("click", () => openSheet(i));
    strip.append(chip);
  });
}

function openSheet(i) {
  const tile = S.tiles[i];
  const sheet = $("#tile-sheet");
  sheet.dataset.n = String(i + 1);
  const pct = S.fixed.has(i) ? null : Math.round(tile.confidence * 100);
  $("#sheet-title").textContent = t("tile")(i + 1, tile.kind, pct);
  // the recognizer's reading and runner-ups stay on offer after a correction
  const read = S.read[i] || { kind: tile.kind, alternatives: [] };
  const alts = [[read.kind, null], ...read.alternatives].filter(([k], j, all) =>
    k !== tile.kind && k !== "X" && all.findIndex(([x]) => x === k) === j && (j > 0 || S.fixed.has(i)));
  $("#sheet-alts").replaceChildren(...alts.map(([k, p]) => kindButton(i, k, p == null ? null : Math.round(p * 100), true)));
  $("#sheet-kinds").replaceChildren(...KINDS.filter(k => !alts.some(([a]) => a === k)).map(k => kindButton(i, k, null, false)));
  $("#sheet-win").onclick = () => { S.win = S.win === i ? null : i; closeSheet(); };
  $("#sheet-back").onclick = () => setKind(i, "X");
  if (typeof sheet.showModal === "function") sheet.showModal(); else sheet.setAttribute("open", "");
}

function kindButton(i, k, pct, isAlt) {
  const b = document.createElement("button");
  b.type = "button"; b.dataset.kind = k;
  b.className = kindClass(k) + (isAlt ? " alt" : "") + (S.tiles[i].kind === k ? " current" : "");
  b.innerHTML = k + (pct != null && !Number.isNaN(pct) ? `<span class="p">${pct}%</span>` : "");
  b.addEventListener("click", () => setKind(i, k));
  return b;
}

function setKind(i, k) {
  S.tiles[i] = { ...S.tiles[i], kind: k, confidence: 1, alternatives: [] };
  S.fixed.add(i);
  if (S.win === i && k === "X") S.win = null;
  closeSheet();
}

function closeSheet() {
  const sheet = $("#tile-sheet");
  if (sheet.open) sheet.close();
  renderTiles(); showWinning(); rescore();
}

function showWinning() {
  const el = $("#winning-tile");
  if (S.win === null || !S.tiles[S.win]) { el.textContent = t("tap_winning"); el.className = "chip"; return; }
  const k = S.tiles[S.win].kind;
  el.textContent = k; el.className = "chip " + kindClass(k);
}

// ------------------------------------------------------------------ score

function contextJson() {
  return {
    seat: S.seat, prevailing_wind: S.wind, win_type: S.winType, ruleset: S.ruleset, lang: S.lang,
    winning_tile: S.win !== null && S.tiles[S.win] ? S.tiles[S.win].kind : null,
    special: [...S.special],
  };
}

async function rescore() {
  const hand = $("#hand-input").value.trim();
  if (!S.tiles.length && !hand) { renderScore(null); return; }
  const seq = ++S.seq;
  try {
    const res = await api("POST", "/api/score", { tiles: S.tiles, hand: hand || null, context: contextJson() });
    if (seq !== S.seq) return;                  // a newer answer is on its way
    S.last = res; renderScore(res);
  } catch (e) {
    if (seq !== S.seq) return;
    S.last = null; renderScore(null, e.message);
  }
}

function row(label, value, cls) {
  const tr = document.createElement("tr");
  if (cls) tr.className = cls;
  const a = document.createElement("td"); a.textContent = label;
  const b = document.createElement("td"); b.className = "v"; b.textContent = value;
  tr.append(a, b);
  return tr;
}

function renderScore(res, error) {
  const note = $("#result-note"), body = $("#breakdown tbody"), warns = $("#warnings");
  note.className = "status"; note.textContent = ""; body.replaceChildren(); warns.replaceChildren();
  $("#breakdown").hidden = true;
  $("#final").textContent = "–";
  $("#bar-final").textContent = "–"; $("#bar-note").textContent = "";
  $("#hand").textContent = res ? (res.hand || "") : "";
  $("#result").dataset.state = "empty";
  if (error) { note.className = "status error"; note.textContent = error; $("#bar-note").textContent = error; $("#result").dataset.state = "error"; return; }
  if (!res) { note.textContent = t("needs_photo"); $("#bar-note").textContent = t("needs_photo"); return; }
  if (res.missing && res.missing.length) {
    note.textContent = t("missing") + ": " + res.missing.map(m => t("m_" + m.replace(/ /g, "_"))).join(", ");
    $("#bar-note").textContent = note.textContent;
    $("#result").dataset.state = "missing";
  }
  for (const w of res.warnings || []) { const li = document.createElement("li"); li.textContent = w; warns.append(li); }
  const bd = res.breakdown;
  if (!bd) return;
  if (!bd.valid) {
    note.className = "status error";
    note.textContent = `${t("invalid")}: ${bd.reason_label}` + (bd.message ? ` (${bd.message})` : "");
    $("#result").dataset.state = "invalid";
    $("#bar-note").textContent = t("invalid");
    for (const a of res.alternatives || []) {
      const li = document.createElement("li"); li.textContent = `${t("closest")}: ${a.notation} → ${a.final} (${a.change})`; warns.append(li);
    }
    return;
  }
  $("#final").textContent = String(bd.final);
  $("#bar-final").textContent = String(bd.final);
  $("#bar-note").textContent = res.hand || "";
  $("#result").dataset.state = "scored";
  if (bd.limit_hand) body.append(row(t("limit") + ": " + bd.limit_label, bd.final, "total"));
  else {
    for (const p of bd.base_points) body.append(row(p.label, p.points));
    body.append(row(t("base"), bd.base_total, "total"));
    for (const d of bd.doublings) body.append(row(d.label, "×2" + (d.doublings > 1 ? `^${d.doublings}` : "")));
    body.append(row(`${t("total")}: ${bd.base_total} × 2^${bd.doublings_total}`, bd.total_before_limit, "total"));
  }
  $("#breakdown").hidden = false;
  updateSessionGame();
}

// ------------------------------------------------------------------ sessions

async function loadSessions(selectId) {
  const sel = $("#session-select");
  try {
    S.sessions = (await api("GET", "/api/sessions")).filter(s => s.ruleset !== "riichi");
  } catch (e) { $("#session-status").textContent = e.message; return; }
  sel.replaceChildren(new Option(S.sessions.length ? t("pick_session") : t("no_session"), ""));
  for (const s of S.sessions) sel.append(new Option(`${s.name} (${s.ruleset}, ${s.games_played})`, String(s.id)));
  if (selectId) sel.value = String(selectId);
  pickSession();
}

function pickSession() {
  const id = Number($("#session-select").value);
  S.session = S.sessions.find(s => s.id === id) || null;
  $("#session-game").hidden = !S.session;
  if (!S.session) { renderStandings(null); return; }
  const winner = $("#winner-select");
  winner.replaceChildren(...S.session.players.map(p => new Option(t("seat_of")(p, S.session.seats[p]), p)));
  const atSeat = S.session.players.find(p => S.session.seats[p] === S.seat);
  if (atSeat) winner.value = atSeat;
  renderStandings(S.session);
  pickWinner();
}

function pickWinner() {
  if (!S.session) return;
  const s = S.session, w = $("#winner-select").value;
  // the hand is scored for the winner's seat and the session's prevailing wind
  S.seat = s.seats[w]; setSeg("#seat", S.seat);
  if (s.prevailing_wind) { S.wind = s.prevailing_wind; setSeg("#wind", S.wind); }
  if (s.ruleset !== S.ruleset) { S.ruleset = s.ruleset; setSeg("#ruleset", S.ruleset); }
  const others = s.players.filter(p => p !== w);
  $("#discarder-select").replaceChildren(new Option("—", ""), ...others.map(p => new Option(p, p)));
  $("#other-scores").replaceChildren(...others.map(p => {
    const div = document.createElement("div"); div.className = "row";
    const span = document.createElement("span"); span.textContent = `${p} (${t("points")})`;
    const inp = document.createElement("input"); inp.type = "number"; inp.min = "0"; inp.max = "2000"; inp.value = "0";
    inp.inputMode = "numeric"; inp.dataset.player = p;
    div.append(span, inp); return div;
  }));
  updateSessionGame(); save(); rescore();
}

function updateSessionGame() {
  $("#discarder-row").hidden = S.winType !== "discard";
}

function renderStandings(s) {
  const table = $("#standings"), body = table.querySelector("tbody");
  body.replaceChildren();
  table.hidden = !s;
  if (!s) return;
  for (const st of s.standings) body.append(row(`${st.rank}. ${st.player} (${s.seats[st.player]})`, st.total));
}

async function addGame() {
  const status = $("#session-status");
  status.className = "status";
  if (!S.session) return;
  if (!S.last || !S.last.valid) { status.className = "status error"; status.textContent = t("scored_first"); return; }
  const scores = {};
  document.querySelectorAll("#other-scores input").forEach(inp => { scores[inp.dataset.player] = Number(inp.value || 0); });
  const body = {
    winner: $("#winner-select").value, hand: S.last.hand, win_type: S.winType, seat: S.seat,
    prevailing_wind: S.wind, special: [...S.special], scores,
    discarder: S.winType === "discard" ? ($("#discarder-select").value || null) : null,
  };
  try {
    const res = await api("POST", `/api/sessions/${S.session.id}/games`, body);
    await loadSessions(res.session.id);
    status.textContent = t("added")(res.game.number);
  } catch (e) { status.className = "status error"; status.textContent = e.message; }
}

async function newSession() {
  const status = $("#session-status");
  const players = $("#new-players").value.split(",").map(p => p.trim()).filter(Boolean);
  try {
    const s = await api("POST", "/api/sessions", { players, ruleset: S.newRuleset });
    status.className = "status"; status.textContent = s.name;
    await loadSessions(s.id);
  } catch (e) { status.className = "status error"; status.textContent = e.message || t("players_hint"); }
}

// ------------------------------------------------------------------ wiring

function init() {
  applyLang();
  setSeg("#seat", S.seat); setSeg("#wind", S.wind); setSeg("#win-type", S.winType); setSeg("#ruleset", S.ruleset);
  bindSeg("#lang", v => { S.lang = v; save(); applyLang(); showWinning(); rescore(); if (S.session) pickSession(); });
  bindSeg("#seat", v => { S.seat = v; save(); rescore(); });
  bindSeg("#wind", v => { S.wind = v; save(); rescore(); });
  bindSeg("#win-type", v => { S.winType = v; updateSessionGame(); rescore(); });
  bindSeg("#ruleset", v => { S.ruleset = v; save(); rescore(); });
  bindSeg("#new-ruleset", v => { S.newRuleset = v; });
  document.querySelectorAll("#specials input").forEach(cb => cb.addEventListener("change", () => {
    if (cb.checked) S.special.add(cb.value); else S.special.delete(cb.value);
    rescore();
  }));
  let typing;
  $("#hand-input").addEventListener("input", () => { clearTimeout(typing); typing = setTimeout(rescore, 250); });
  $("#photo-input").addEventListener("change", e => onPhoto(e.target.files[0]));
  $("#tile-sheet").addEventListener("close", () => { renderTiles(); });
  $("#session-box").addEventListener("toggle", e => { if (e.target.open) loadSessions(); });
  $("#session-select").addEventListener("change", pickSession);
  $("#winner-select").addEventListener("change", pickWinner);
  $("#add-game").addEventListener("click", addGame);
  $("#new-session").addEventListener("click", newSession);
  renderScore(null);
  api("GET", "/api/health").then(h => {
    const msgs = [];
    if (!h.recognizer) msgs.push(t("recognizer_missing"));
    if (!h.engine) msgs.push(t("engine_missing"));
    $("#health").textContent = msgs.join(" ");
    $("#health").hidden = !msgs.length;
  }).catch(() => {});
}

init();
