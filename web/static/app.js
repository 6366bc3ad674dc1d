// mjscore phone page: photo -> tiles and sets (tap to correct and regroup) -> context -> score,
// then into a session. No build step; talks to the JSON API documented at /docs. The page keeps
// no words and no grouping logic: words come from /api/words, every set edit is /api/regroup
// (the review's own commands on the server), every score /api/score.
"use strict";

// tile tokens (notation, the same in every language) come with the words: W.kinds, X last
const KINDS = () => W.kinds.filter(k => k !== "X");

const $ = sel => document.querySelector(sel);
const el = (tag, cls, text) => { const e = document.createElement(tag); if (cls) e.className = cls; if (text != null) e.textContent = text; return e; };
const saved = JSON.parse(localStorage.getItem("mjscore") || "{}");
const S = {
  lang: saved.lang || ((navigator.language || "en").startsWith("nl") ? "nl" : "en"),
  tiles: [], groups: [], sets: [], low: 0.6, width: 0, height: 0, win: null, photo: null,
  seat: saved.seat || null, wind: saved.wind || null, winType: null, ruleset: saved.ruleset || "nts",
  remembered: new Set(["seat", "wind", "ruleset"].filter(k => saved[k])),
  special: new Set(), seq: 0, last: null, sessions: [], session: null, newRuleset: "nts",
  riichiOutcome: "ron", words: {}, tileSet: saved.tileSet ?? null, split: new Set(), pickerTo: "concealed",
};
let W = null;                          // the words of the current language (GET /api/words)

function t(key, vars) {
  let s = (W && W.words[key]) ?? key;
  if (vars) s = s.replace(/\{(\w+)\}/g, (m, k) => (vars[k] ?? m));
  return s;
}

// numbers as the language writes them: 7,394 in English, 7.394 in Dutch
function num(n) {
  if (n == null || n === "") return "";
  const sep = W ? W.number.thousands : ",";
  const body = String(Math.abs(Math.round(Number(n)))).replace(/\B(?=(\d{3})+(?!\d))/g, sep);
  return (n < 0 ? "-" : "") + body;
}
const signed = n => (n > 0 ? "+" : "") + num(n);
const windName = c => (W ? W.winds[c] : c) || c;

function save() {
  localStorage.setItem("mjscore", JSON.stringify({ lang: S.lang, seat: S.seat, wind: S.wind, ruleset: S.ruleset,
    tileSet: S.tileSet }));
}

function kindClass(k) {
  if (/^[1-9]m$/.test(k)) return "k-m";
  if (/^[1-9]p$/.test(k)) return "k-p";
  if (/^[1-9]s$/.test(k)) return "k-s";
  if (/^[fj][1-4]$/.test(k)) return "k-b";
  return "k-h";
}

async function api(method, url, body) {
  const opts = { method, headers: { "Accept-Language": S.lang } };
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

async function loadWords(lang) {
  if (!S.words[lang]) S.words[lang] = await api("GET", `/api/words?lang=${lang}`);
  W = S.words[lang];
}

function applyLang() {
  document.documentElement.lang = S.lang;
  document.querySelectorAll("[data-i18n]").forEach(e => { e.textContent = t(e.dataset.i18n); });
  document.querySelectorAll(".seg.winds button").forEach(b => { b.textContent = W.wind_letters[b.dataset.v]; b.title = W.winds[b.dataset.v]; });
  $("#new-players").title = t("players_hint");
  $("#size-hint").textContent = W.max_upload_text ? `≤ ${W.max_upload_text}` : "";
  setSeg("#lang", S.lang);
}

function setSeg(sel, value) {
  document.querySelectorAll(sel + " button").forEach(b => b.setAttribute("aria-pressed", String(b.dataset.v === value)));
}

function bindSeg(sel, apply) {
  document.querySelectorAll(sel + " button").forEach(b => b.addEventListener("click", () => { apply(b.dataset.v); setSeg(sel, b.dataset.v); }));
}

// ------------------------------------------------------------------ photo, tiles and sets

function tileFromScan(tl) {
  return { ...tl, fixed: false, read: { kind: tl.kind, alternatives: tl.alternatives || [] } };
}

async function onPhoto(file) {
  if (!file) return;
  const img = $("#photo-img");
  if (img.src) URL.revokeObjectURL(img.src);
  img.src = URL.createObjectURL(file);
  S.photo = file;
  $("#stage").hidden = false;
  const status = $("#scan-status");
  status.className = "status"; status.textContent = t("scanning");
  S.tiles = []; S.groups = []; S.sets = []; S.win = null; renderTiles(); showWinning();
  const form = new FormData();
  form.append("photo", file, "photo");
  if (S.tileSet !== null) form.append("tile_set", S.tileSet || "-");      // "-": the general reader
  try {
    const scan = await api("POST", "/api/scan", form);
    S.tiles = scan.tiles.map(tileFromScan); S.width = scan.width; S.height = scan.height;
    S.groups = scan.layout.groups;
    S.low = scan.low_confidence_threshold ?? 0.6;
    status.textContent = scan.tiles.length ? t("found", { n: scan.tiles.length }) : t("none_found");
    renderTiles();
    rescore();
  } catch (e) {
    status.className = "status error"; status.textContent = e.message;
  }
}

function startWithoutPhoto() {
  const img = $("#photo-img");
  if (img.src) URL.revokeObjectURL(img.src);
  img.removeAttribute("src");
  S.photo = null; S.tiles = []; S.groups = []; S.sets = []; S.win = null; S.width = S.height = 0;
  $("#stage").hidden = true;
  $("#scan-status").textContent = "";
  renderTiles(); showWinning(); rescore();
  openPicker(true);
}

const onPhotoTile = tile => tile.box && tile.box[2] > tile.box[0] && tile.box[3] > tile.box[1];

function tileState(i) {
  const tile = S.tiles[i];
  const cls = [];
  if (tile.fixed) cls.push("fixed");
  else if (tile.confidence < S.low) cls.push("low");
  if (S.win === i) cls.push("win");
  return cls;
}

function groupOf(i) { return S.groups.findIndex(g => g.tiles.includes(i + 1)); }

function boundsOf(numbers) {
  const boxes = numbers.map(n => S.tiles[n - 1]).filter(tl => tl && onPhotoTile(tl)).map(tl => tl.box);
  if (!boxes.length) return null;
  return [Math.min(...boxes.map(b => b[0])), Math.min(...boxes.map(b => b[1])),
    Math.max(...boxes.map(b => b[2])), Math.max(...boxes.map(b => b[3]))];
}

function outline(svg, box, cls, label, onTap) {
  const NS = "http://www.w3.org/2000/svg";
  const pad = Math.max(3, (S.width || 600) / 150);
  const g = document.createElementNS(NS, "g");
  g.setAttribute("class", "set-outline " + cls);
  const r = document.createElementNS(NS, "rect");
  r.setAttribute("x", box[0] - pad); r.setAttribute("y", box[1] - pad);
  r.setAttribute("width", box[2] - box[0] + 2 * pad); r.setAttribute("height", box[3] - box[1] + 2 * pad);
  r.setAttribute("rx", pad);
  const fontSize = Math.max(12, Math.round((S.width || 600) / 36));
  const text = document.createElementNS(NS, "text");
  text.setAttribute("x", box[0] - pad); text.setAttribute("y", Math.min((S.height || 600) - 2, box[3] + pad + fontSize));
  text.setAttribute("font-size", fontSize);
  text.textContent = label;
  g.append(r, text);
  g.addEventListener("click", onTap);
  svg.append(g);
}

function renderTiles() {
  const svg = $("#overlay");
  svg.setAttribute("viewBox", `0 0 ${S.width || 1} ${S.height || 1}`);
  const NS = "http://www.w3.org/2000/svg";
  svg.replaceChildren();
  // sets first (behind the tiles): the layout's open sets, kongs and bonus tiles, and inside the
  // concealed part the sets the engine chose
  S.groups.forEach((grp, gi) => {
    const label = `${gi + 1} ${t("kind_" + grp.kind)}`;
    if (grp.kind === "concealed" && S.sets.some(s => s.kind === "concealed" && s.tiles.length)) {
      for (const set of S.sets.filter(s => s.kind === "concealed")) {
        const b = boundsOf(set.tiles);
        if (b) outline(svg, b, "kind-concealed engine" + (set.winning ? " winning" : ""), set.notation + (set.winning ? "*" : ""), () => openGroup(gi));
      }
      return;
    }
    const b = boundsOf(grp.tiles);
    if (b) outline(svg, b, "kind-" + grp.kind, label, () => openGroup(gi));
  });
  const strip = $("#tile-strip");
  strip.replaceChildren();
  const fontSize = Math.max(12, Math.round((S.width || 600) / 32));
  S.tiles.forEach((tile, i) => {
    if (onPhotoTile(tile)) {
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
    }
    const chip = el("button", ["tile-chip", kindClass(tile.kind), ...tileState(i)].join(" "));
    chip.type = "button";
    chip.dataset.n = String(i + 1);
    chip.innerHTML = `${tile.kind}<span class="n">${i + 1}</span>`;
    chip.addEventListener("click", () => openSheet(i));
    strip.append(chip);
  });
  $("#tap-hint").hidden = !S.tiles.length;
  $("#add-tile").hidden = !S.tiles.length && !S.photo;
  renderGroups();
}

function renderGroups() {
  const list = $("#group-list");
  list.replaceChildren();
  $("#sets-section").hidden = !S.groups.length;
  S.groups.forEach((grp, gi) => {
    const b = el("button", "group-chip kind-" + grp.kind);
    b.type = "button"; b.dataset.g = String(gi + 1); b.dataset.kind = grp.kind;
    b.append(el("span", "gn", String(gi + 1)), el("span", "gk", t("kind_" + grp.kind)), el("code", "", grp.notation));
    if (grp.reason) b.append(el("span", "why", grp.reason));
    b.addEventListener("click", () => openGroup(gi));
    list.append(b);
  });
}

function openDialog(d) { if (typeof d.showModal === "function") d.showModal(); else d.setAttribute("open", ""); }

function openSheet(i) {
  const tile = S.tiles[i];
  const sheet = $("#tile-sheet");
  sheet.dataset.n = String(i + 1);
  $("#sheet-title").textContent = tile.fixed ? t("tile", { n: i + 1, kind: tile.kind })
    : t("tile_pct", { n: i + 1, kind: tile.kind, pct: Math.round(tile.confidence * 100) });
  // the recognizer's reading and runner-ups stay on offer after a correction
  const read = tile.read || { kind: tile.kind, alternatives: [] };
  const alts = [[read.kind, null], ...read.alternatives].filter(([k], j, all) =>
    k !== tile.kind && k !== "X" && all.findIndex(([x]) => x === k) === j && (j > 0 || tile.fixed));
  $("#sheet-alts").replaceChildren(...alts.map(([k, p]) => kindButton(i, k, p == null ? null : Math.round(p * 100), true)));
  $("#sheet-kinds").replaceChildren(...KINDS().filter(k => !alts.some(([a]) => a === k)).map(k => kindButton(i, k, null, false)));
  const here = groupOf(i);
  const moves = S.groups.map((g, gi) => [gi + 1, `${gi + 1} ${g.notation}`]).filter(([n]) => n !== here + 1);
  moves.push(["new", t("new_set")]);
  $("#sheet-move").replaceChildren(...moves.map(([to, text]) => {
    const b = el("button", "", text); b.type = "button"; b.dataset.to = String(to);
    b.addEventListener("click", () => { closeDialog(sheet); edit({ op: "move", tile: i + 1, to }); });
    return b;
  }));
  $("#sheet-win").onclick = () => { S.win = S.win === i ? null : i; closeSheet(); };
  $("#sheet-back").onclick = () => setKind(i, "X");
  $("#sheet-remove").onclick = () => { closeDialog(sheet); edit({ op: "remove", tile: i + 1 }); };
  openDialog(sheet);
}

function kindButton(i, k, pct, isAlt) {
  const b = el("button", kindClass(k) + (isAlt ? " alt" : "") + (S.tiles[i].kind === k ? " current" : ""));
  b.type = "button"; b.dataset.kind = k;
  b.innerHTML = k + (pct != null && !Number.isNaN(pct) ? `<span class="p">${pct}%</span>` : "");
  b.addEventListener("click", () => setKind(i, k));
  return b;
}

function setKind(i, k) {
  // a kind fix keeps the grouping (the CLI's --fix does the same); no server round trip needed
  S.tiles[i] = { ...S.tiles[i], kind: k, confidence: 1, alternatives: [], fixed: true };
  if (S.win === i && k === "X") S.win = null;
  closeSheet();
}

function closeDialog(d) { if (d.open) d.close(); }

function closeSheet() {
  closeDialog($("#tile-sheet"));
  renderTiles(); showWinning(); rescore();
}

function openGroup(gi) {
  const grp = S.groups[gi];
  if (!grp) return;
  const sheet = $("#group-sheet");
  sheet.dataset.g = String(gi + 1);
  S.split = new Set();
  $("#group-title").textContent = t("set_sheet", { n: gi + 1, notation: grp.notation });
  document.querySelectorAll("#group-kinds button").forEach(b => {
    b.setAttribute("aria-pressed", String(b.dataset.kind === grp.kind));
    b.onclick = () => { closeDialog(sheet); if (b.dataset.kind !== grp.kind) edit({ op: "kind", group: gi + 1, kind: b.dataset.kind }); };
  });
  $("#group-tiles").replaceChildren(...grp.tiles.map(n => {
    const tl = S.tiles[n - 1];
    const b = el("button", "tile-chip " + kindClass(tl.kind)); b.type = "button"; b.dataset.n = String(n);
    b.innerHTML = `${tl.kind}<span class="n">${n}</span>`;
    b.setAttribute("aria-pressed", "false");
    b.addEventListener("click", () => {
      if (S.split.has(n)) S.split.delete(n); else S.split.add(n);
      b.setAttribute("aria-pressed", String(S.split.has(n)));
      $("#group-split").disabled = !S.split.size || S.split.size === grp.tiles.length;
    });
    return b;
  }));
  $("#group-split").disabled = true;
  $("#group-split").onclick = () => { closeDialog(sheet); edit({ op: "split", group: gi + 1, tiles: [...S.split] }); };
  $("#group-merge").replaceChildren(...S.groups.map((g, gj) => [g, gj]).filter(([, gj]) => gj !== gi).map(([g, gj]) => {
    const b = el("button", "", `${gj + 1} ${g.notation}`); b.type = "button"; b.dataset.to = String(gj + 1);
    b.addEventListener("click", () => { closeDialog(sheet); edit({ op: "merge", group: gi + 1, to: gj + 1 }); });
    return b;
  }));
  openDialog(sheet);
}

// one set edit, done by the server (the review's commands); tiles keep what the page knows of them
async function edit(e) {
  const status = $("#scan-status");
  try {
    const res = await api("POST", "/api/regroup", { tiles: S.tiles, groups: S.groups, edit: e, lang: S.lang });
    const before = res.before;
    S.tiles = res.tiles.map((tl, i) => {
      const old = before[i] ? S.tiles[before[i] - 1] : null;
      return { ...tl, fixed: old ? old.fixed : true, read: old ? old.read : { kind: tl.kind, alternatives: [] } };
    });
    if (S.win !== null) { const j = before.indexOf(S.win + 1); S.win = j < 0 ? null : j; }
    S.groups = res.layout.groups;
    S.sets = [];
    renderTiles(); showWinning(); await rescore();
    return true;
  } catch (err) {
    status.className = "status error"; status.textContent = err.message;
    return false;
  }
}

// ------------------------------------------------------------------ tile picker

function openPicker(wholeHand) {
  const d = $("#picker");
  $("#picker-title").textContent = t(wholeHand ? "picker_hand" : "picker_title");
  S.pickerTo = "concealed";
  const targets = [["concealed", t("kind_concealed")], ...S.groups.map((g, gi) => [gi + 1, `${gi + 1} ${g.notation}`])
    .filter(([n]) => S.groups[n - 1].kind !== "concealed")];
  $("#picker-to").replaceChildren(...targets.map(([to, text]) => {
    const b = el("button", "", text); b.type = "button"; b.dataset.to = String(to);
    b.setAttribute("aria-pressed", String(to === S.pickerTo));
    b.addEventListener("click", () => { S.pickerTo = to; document.querySelectorAll("#picker-to button").forEach(x => x.setAttribute("aria-pressed", String(x === b))); });
    return b;
  }));
  const added = [];
  $("#picker-added").textContent = "";
  $("#picker-kinds").replaceChildren(...W.kinds.map(k => {
    const b = el("button", kindClass(k), k); b.type = "button"; b.dataset.kind = k;
    b.addEventListener("click", async () => {
      if (await edit({ op: "add", kind: k, to: S.pickerTo })) {
        added.push(k);
        $("#picker-added").textContent = t("picker_added", { tiles: added.join(" ") });
      }
    });
    return b;
  }));
  openDialog(d);
}

function showWinning() {
  const e = $("#winning-tile");
  if (S.win === null || !S.tiles[S.win]) { e.textContent = t("tap_winning"); e.className = "chip"; return; }
  const k = S.tiles[S.win].kind;
  e.textContent = k; e.className = "chip " + kindClass(k);
}

// ------------------------------------------------------------------ context and score

function contextJson() {
  return {
    seat: S.seat, prevailing_wind: S.wind, win_type: S.winType, ruleset: S.ruleset, lang: S.lang,
    winning_tile: S.win !== null && S.tiles[S.win] ? S.tiles[S.win].kind : null,
    special: [...S.special],
  };
}

// what the score is computed with, always shown next to it (remembered values say so)
function renderContext() {
  const parts = [];
  const mark = k => (S.remembered.has(k) ? " *" : "");
  parts.push(`${t("seat")} ${S.seat ? windName(S.seat) : t("not_set")}${mark("seat")}`);
  parts.push(`${t("wind")} ${S.wind ? windName(S.wind) : t("not_set")}${mark("wind")}`);
  if (S.winType) parts.push(W.win_types[S.winType]);
  parts.push(W.rulesets[S.ruleset] + mark("ruleset"));
  let text = parts.join(" · ");
  if (S.remembered.size) text += ` (* ${t("remembered")})`;
  $("#context-text").textContent = text;
  const letters = [S.seat, S.wind].map(c => (c ? W.wind_letters[c] : "?")).join("/");
  $("#bar-context").textContent = `${letters} ${W.rulesets[S.ruleset]}`;
  $("#context-line").dataset.remembered = String(S.remembered.size > 0);
}

function resetContext() {
  S.seat = null; S.wind = null; S.winType = null; S.ruleset = "nts"; S.remembered = new Set();
  S.special = new Set();
  document.querySelectorAll("#specials input").forEach(cb => { cb.checked = false; });
  setSeg("#seat", null); setSeg("#wind", null); setSeg("#win-type", null); setSeg("#ruleset", "nts");
  save();
  $("#result-note").textContent = t("context_reset");
  rescore();
}

function chose(key) { S.remembered.delete(key); }

async function rescore() {
  renderContext();
  const hand = $("#hand-input").value.trim();
  if (!S.tiles.length && !hand) { S.last = null; renderScore(null); return; }
  const seq = ++S.seq;
  try {
    const res = await api("POST", "/api/score", { tiles: S.tiles, groups: S.groups, hand: hand || null, context: contextJson() });
    if (seq !== S.seq) return;                  // a newer answer is on its way
    S.last = res;
    if (res.layout) S.groups = res.layout.groups;
    S.sets = res.sets || [];
    renderTiles(); renderScore(res);
  } catch (e) {
    if (seq !== S.seq) return;
    S.last = null; renderScore(null, e.message);
  }
}

function row(label, value, cls) {
  const tr = el("tr", cls || "");
  tr.append(el("td", "", label), el("td", "v", value));
  return tr;
}

function renderScore(res, error) {
  const note = $("#result-note"), body = $("#breakdown tbody"), warns = $("#warnings");
  note.className = "status"; note.textContent = ""; body.replaceChildren(); warns.replaceChildren();
  $("#breakdown").hidden = true;
  $("#arrangement-box").hidden = true;
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
  for (const w of res.warnings || []) warns.append(el("li", "", w));
  const bd = res.breakdown;
  if (!bd) return;
  if (!bd.valid) {
    note.className = "status error";
    note.textContent = `${t("invalid")}: ${bd.reason_label}` + (bd.message ? ` (${bd.message})` : "");
    $("#result").dataset.state = "invalid";
    $("#bar-note").textContent = t("invalid");
    const p = res.proposal;
    if (p) {
      // the most probable valid reading (handscan.alternatives): one tap types it as the hand
      const li = el("li", "proposal", `${t("proposal")}: ${p.notation} → ${num(p.final)} (${p.change})`);
      const use = el("button", "", t("use_proposal")); use.type = "button"; use.id = "use-proposal";
      use.addEventListener("click", () => { $("#hand-input").value = p.notation; rescore(); });
      li.append(" ", use);
      warns.append(li);
    }
    for (const a of (res.alternatives || []).filter(a => !p || a.notation !== p.notation))
      warns.append(el("li", "", `${t("closest")}: ${a.notation} → ${num(a.final)} (${a.change})`));
    return;
  }
  $("#final").textContent = num(bd.final);
  $("#bar-final").textContent = num(bd.final);
  $("#bar-note").textContent = res.hand || "";
  $("#result").dataset.state = "scored";
  if (bd.decomposition && bd.decomposition.length) {
    $("#arrangement").replaceChildren(...bd.decomposition.map(p => el("code", "set" + (p.endsWith("*") ? " winning" : ""), p)));
    $("#star-legend").hidden = !bd.decomposition.some(p => p.endsWith("*"));
    $("#arrangement-box").hidden = false;
  }
  if (bd.limit_hand) body.append(row(t("limit") + ": " + bd.limit_label, num(bd.final), "total"));
  else {
    for (const p of bd.base_points) body.append(row(p.label, num(p.points)));
    body.append(row(t("base"), num(bd.base_total), "total"));
    for (const d of bd.doublings) body.append(row(d.label, "×2" + (d.doublings > 1 ? `^${d.doublings}` : "")));
    body.append(row(`${t("total")}: ${num(bd.base_total)} × 2^${bd.doublings_total}`, num(bd.total_before_limit), "total"));
    if (bd.final !== bd.total_before_limit) body.append(row(t("final"), num(bd.final), "total"));
  }
  $("#breakdown").hidden = false;
}

// ------------------------------------------------------------------ sessions

async function loadSessions(selectId) {
  const sel = $("#session-select");
  try { S.sessions = await api("GET", `/api/sessions?lang=${S.lang}`); } catch (e) { $("#session-status").textContent = e.message; return; }
  sel.replaceChildren(el("option", "", t("no_session")));
  sel.firstChild.value = "";
  for (const s of S.sessions) {
    const o = el("option", "", `${s.name} (${W.rulesets[s.ruleset]}, ${s.games_played})`);
    o.value = String(s.id); sel.append(o);
  }
  const want = selectId ?? (S.session && S.session.id);
  if (want && S.sessions.some(s => s.id === want)) sel.value = String(want);
  else if (S.sessions.length === 1) sel.value = String(S.sessions[0].id);
  await pickSession();
}

function fillSelect(sel, names, withEmpty) {
  sel.replaceChildren();
  if (withEmpty) { const o = el("option", "", "–"); o.value = ""; sel.append(o); }
  for (const p of names) { const o = el("option", "", `${p} (${windName(S.session.seats[p])})`); o.value = p; sel.append(o); }
}

function checks(box, names, cls) {
  box.replaceChildren(...names.map(p => {
    const l = el("label", cls);
    const cb = el("input"); cb.type = "checkbox"; cb.value = p;
    l.append(cb, document.createTextNode(" " + p));
    return l;
  }));
}

async function pickSession() {
  const id = Number($("#session-select").value);
  S.session = S.sessions.find(s => s.id === id) || null;
  const s = S.session;
  $("#nts-form").hidden = !s || s.finished || s.ruleset === "riichi";
  $("#riichi-form").hidden = !s || s.finished || s.ruleset !== "riichi";
  $("#session-actions").hidden = !s;
  $("#end-session").hidden = !s || s.finished;
  renderSession();
  if (!s) return;
  if (s.ruleset === "riichi") {
    fillSelect($("#r-winner"), s.players); fillSelect($("#r-from"), s.players);
    checks($("#r-riichi"), s.players, "riichi"); checks($("#r-tenpai"), s.players, "tenpai");
    setRiichiOutcome(S.riichiOutcome);
    return;
  }
  const winnerSel = $("#winner-select");
  fillSelect(winnerSel, s.players);
  const atSeat = s.players.find(p => s.seats[p] === S.seat);
  winnerSel.value = atSeat || s.players[0];
  pickWinner();
}

function pickWinner() {
  const s = S.session;
  if (!s || s.ruleset === "riichi") return;
  const winner = $("#winner-select").value;
  // the hand is scored for the winner's seat and the session's wind: set both where they show
  S.seat = s.seats[winner]; chose("seat"); setSeg("#seat", S.seat);
  if (s.prevailing_wind) { S.wind = s.prevailing_wind; chose("wind"); setSeg("#wind", S.wind); }
  S.ruleset = s.ruleset; chose("ruleset"); setSeg("#ruleset", S.ruleset);
  save();
  const others = s.players.filter(p => p !== winner);
  fillSelect($("#discarder-select"), others, true);
  const box = $("#other-players");
  box.replaceChildren(...others.map(p => {
    const r = el("div", "other");
    r.dataset.player = p;
    const name = el("span", "name", `${p} (${windName(s.seats[p])})`);
    const score = el("input"); score.type = "number"; score.min = "0"; score.max = "2000"; score.inputMode = "numeric";
    score.className = "score"; score.placeholder = t("score_of"); score.dataset.player = p;
    const hand = el("input"); hand.type = "text"; hand.className = "hand"; hand.placeholder = t("hand_of");
    hand.autocomplete = "off"; hand.autocapitalize = "off"; hand.spellcheck = false; hand.dataset.player = p;
    const dead = el("label", "dead");
    const cb = el("input"); cb.type = "checkbox"; cb.dataset.player = p;
    dead.append(cb, document.createTextNode(" " + t("dead")));
    r.append(name, score, hand, dead);
    return r;
  }));
  updateSessionGame();
  rescore();
}

function updateSessionGame() {
  $("#discarder-row").hidden = S.winType !== "discard";
}

function renderSession() {
  const s = S.session;
  const body = $("#standings tbody");
  body.replaceChildren();
  $("#standings").hidden = $("#standings-title").hidden = !s;
  $("#history").replaceChildren();
  $("#history-title").hidden = !s || !s.games.length;
  $("#session-next").textContent = "";
  if (!s) return;
  let next = s.finished ? t("ended") : (s.next || "");
  if (s.ruleset === "riichi") next += " · " + t("counters", { honba: s.state.honba, pot: s.state.pot });
  $("#session-next").textContent = next;
  for (const st of s.standings) body.append(row(`${st.rank}. ${st.player} (${W.wind_letters[s.seats[st.player]]})`, num(st.total)));
  for (const g of [...s.games].reverse()) {
    const li = el("li", "game");
    li.value = g.number;
    li.append(el("div", "result", `${g.number}. ${g.result}`));
    li.append(el("div", "deltas", s.players.map(p => `${p} ${signed(g.deltas[p])}`).join(" · ")));
    const lines = s.ruleset === "riichi" ? (g.explanation || [])
      : (g.payments.length ? g.payments.map(p => W.session.pays.replace("{payer}", p.payer).replace("{payee}", p.payee).replace("{amount}", num(p.amount)))
        : [W.session.nobody_pays]);
    const ul = el("ul", "payments");
    for (const line of lines) ul.append(el("li", "", line));
    li.append(ul);
    $("#history").append(li);
  }
}

function sessionStatus(text, isError) {
  const status = $("#session-status");
  status.className = "status" + (isError ? " error" : "");
  status.textContent = text;
}

async function afterGame(res) {
  await loadSessions(res.session.id);
  sessionStatus(t("added", { n: res.game.number }));
}

async function addGame() {
  const s = S.session;
  if (!s) return;
  const winner = $("#winner-select").value;
  const winnerScore = $("#winner-score").value;
  const hasHand = S.last && S.last.valid;
  if (!hasHand && winnerScore === "") { sessionStatus(t("scored_first"), true); return; }
  const scores = {}, hands = {}, dead = [];
  document.querySelectorAll("#other-players .other").forEach(r => {
    const p = r.dataset.player;
    const score = r.querySelector(".score").value, hand = r.querySelector(".hand").value.trim();
    if (r.querySelector(".dead input").checked) dead.push(p);
    if (hand) hands[p] = hand; else if (score !== "") scores[p] = Number(score);
    else if (!r.querySelector(".dead input").checked) scores[p] = 0;
  });
  if (!hasHand) scores[winner] = Number(winnerScore);
  const body = {
    winner, hand: hasHand ? S.last.hand : null, win_type: S.winType || "discard", seat: S.seat,
    prevailing_wind: S.wind, special: [...S.special], scores, hands, dead, lang: S.lang,
    discarder: S.winType === "discard" ? ($("#discarder-select").value || null) : null,
  };
  try { await afterGame(await api("POST", `/api/sessions/${s.id}/games`, body)); } catch (e) { sessionStatus(e.message, true); }
}

async function addDraw() {
  const s = S.session;
  if (!s) return;
  const body = { draw: true, lang: S.lang, prevailing_wind: s.ruleset === "nts-app" ? S.wind : null };
  try { await afterGame(await api("POST", `/api/sessions/${s.id}/games`, body)); } catch (e) { sessionStatus(e.message, true); }
}

function setRiichiOutcome(v) {
  S.riichiOutcome = v; setSeg("#riichi-outcome", v);
  $("#r-winner-row").hidden = v === "draw";
  $("#r-value-row").hidden = v === "draw" || v === "chombo";
  $("#r-from-row").hidden = v !== "ron";
  $("#r-tenpai-box").hidden = v !== "draw";
}

async function addRiichi() {
  const s = S.session;
  if (!s) return;
  const picked = box => [...document.querySelectorAll(box + " input:checked")].map(cb => cb.value);
  const o = S.riichiOutcome;
  const body = { outcome: o, riichi: picked("#r-riichi"), lang: S.lang };
  if (o === "ron" || o === "tsumo") {
    const yakuman = $("#r-yakuman").checked;
    const han = Number($("#r-han").value) || null, fu = Number($("#r-fu").value) || null;
    body.wins = [{ player: $("#r-winner").value, han: yakuman ? 13 : han, fu: yakuman ? null : fu, yakuman }];
  }
  if (o === "ron") body.discarder = $("#r-from").value;
  if (o === "draw") body.tenpai = picked("#r-tenpai");
  if (o === "chombo") body.chombo = $("#r-winner").value;
  try { await afterGame(await api("POST", `/api/sessions/${s.id}/riichi`, body)); } catch (e) { sessionStatus(e.message, true); }
}

async function undoGame() {
  const s = S.session;
  if (!s) return;
  try {
    const res = await api("POST", `/api/sessions/${s.id}/undo?lang=${S.lang}`);
    await loadSessions(s.id);
    sessionStatus(t("undone", { what: res.undone_text }));
  } catch (e) { sessionStatus(e.message, true); }
}

async function endSession() {
  const s = S.session;
  if (!s) return;
  try { await api("POST", `/api/sessions/${s.id}/end?lang=${S.lang}`); await loadSessions(s.id); sessionStatus(t("ended")); }
  catch (e) { sessionStatus(e.message, true); }
}

async function newSession() {
  const players = $("#new-players").value.split(",").map(p => p.trim()).filter(Boolean);
  try {
    const s = await api("POST", "/api/sessions", { players, ruleset: S.newRuleset, lang: S.lang });
    sessionStatus(s.name);
    await loadSessions(s.id);
  } catch (e) { sessionStatus(e.message || t("players_hint"), true); }
}

// ------------------------------------------------------------------ teaching the player's own set

async function loadSets() {
  try {
    const info = await api("GET", "/api/sets");
    const sel = $("#teach-select");
    sel.replaceChildren(...info.sets.map(n => { const o = el("option", "", n); o.value = n; return o; }));
    const none = el("option", "", t("teach_none")); none.value = ""; sel.prepend(none);
    const reading = S.tileSet !== null && (S.tileSet === "" || info.sets.includes(S.tileSet)) ? S.tileSet : (info.reading || "");
    sel.value = reading;
    $("#teach-reading").textContent = reading ? t("teach_reading", { name: reading }) : "";
  } catch (e) { $("#teach-status").textContent = e.message; }
}

async function teachPhoto() {
  const status = $("#teach-status");
  status.className = "status";
  const name = $("#teach-name").value.trim() || $("#teach-select").value;
  if (!S.photo || !S.tiles.length) { status.className = "status error"; status.textContent = t("needs_photo"); return; }
  const form = new FormData();
  form.append("photo", S.photo, "photo");
  form.append("tiles", JSON.stringify(S.tiles.filter(onPhotoTile).map(tl => ({ kind: tl.kind, box: tl.box }))));
  try {
    const res = await api("POST", `/api/sets/${encodeURIComponent(name)}/photos`, form);
    S.tileSet = res.name; save();              // the next photos are read with the set just taught
    await loadSets();
    status.textContent = t("teach_added", { name: res.name, tiles: num(res.tiles), kinds: res.kinds });
  } catch (e) { status.className = "status error"; status.textContent = e.message; }
}

// ------------------------------------------------------------------ wiring

async function switchLang(v) {
  S.lang = v; save();
  await loadWords(v);
  applyLang(); showWinning(); renderTiles();
  await rescore();
  if (S.session) await loadSessions(S.session.id);
}

async function init() {
  await loadWords(S.lang);
  applyLang();
  setSeg("#seat", S.seat); setSeg("#wind", S.wind); setSeg("#win-type", S.winType); setSeg("#ruleset", S.ruleset);
  bindSeg("#lang", v => { switchLang(v); });
  bindSeg("#seat", v => { S.seat = v; chose("seat"); save(); rescore(); });
  bindSeg("#wind", v => { S.wind = v; chose("wind"); save(); rescore(); });
  bindSeg("#win-type", v => { S.winType = v; updateSessionGame(); rescore(); });
  bindSeg("#ruleset", v => { S.ruleset = v; chose("ruleset"); save(); rescore(); });
  bindSeg("#new-ruleset", v => { S.newRuleset = v; });
  bindSeg("#riichi-outcome", v => setRiichiOutcome(v));
  document.querySelectorAll("#specials input").forEach(cb => cb.addEventListener("change", () => {
    if (cb.checked) S.special.add(cb.value); else S.special.delete(cb.value);
    rescore();
  }));
  let typing;
  $("#hand-input").addEventListener("input", () => { clearTimeout(typing); typing = setTimeout(rescore, 250); });
  $("#photo-input").addEventListener("change", e => onPhoto(e.target.files[0]));
  $("#no-photo").addEventListener("click", startWithoutPhoto);
  $("#add-tile").addEventListener("click", () => openPicker(false));
  $("#picker").addEventListener("close", () => renderTiles());
  $("#tile-sheet").addEventListener("close", () => renderTiles());
  $("#context-reset").addEventListener("click", resetContext);
  $("#session-box").addEventListener("toggle", e => { if (e.target.open) loadSessions(); });
  $("#teach-box").addEventListener("toggle", e => { if (e.target.open) loadSets(); });
  $("#session-select").addEventListener("change", pickSession);
  $("#winner-select").addEventListener("change", pickWinner);
  $("#add-game").addEventListener("click", addGame);
  $("#add-draw").addEventListener("click", addDraw);
  $("#add-riichi").addEventListener("click", addRiichi);
  $("#undo-game").addEventListener("click", undoGame);
  $("#end-session").addEventListener("click", endSession);
  $("#new-session").addEventListener("click", newSession);
  $("#teach-add").addEventListener("click", teachPhoto);
  $("#teach-select").addEventListener("change", e => { S.tileSet = e.target.value; save(); loadSets(); });
  renderContext();
  renderScore(null);
  document.body.dataset.ready = "true";
  api("GET", "/api/health").then(h => {
    const msgs = [];
    if (!h.recognizer) msgs.push(t("recognizer_missing"));
    if (!h.engine) msgs.push(t("engine_missing"));
    $("#health").textContent = msgs.join(" ");
    $("#health").hidden = !msgs.length;
  }).catch(() => {});
}

init();
