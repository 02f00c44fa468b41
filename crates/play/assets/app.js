// The page of `cargo xtask play`: draws the board from the API's state,
// turns clicks into moves, shows what the engine thought. No framework, no
// build step, nothing loaded from elsewhere.
"use strict";

const $ = (id) => document.getElementById(id);

const ui = {
  info: null,        // GET /api/info
  state: null,       // the session's state
  flipped: false,
  selected: null,    // chess: the selected origin square
  pending: null,     // chess: moves waiting for a promotion choice
  busy: false,
};

// Solid glyphs, coloured by CSS; U+FE0E asks for text, not emoji, presentation.
const GLYPHS = { k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟" };
const WIN = 900000;

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers["content-type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const resp = await fetch(path, opts);
  let data = null;
  try { data = await resp.json(); } catch (_) { data = { error: `HTTP ${resp.status}` }; }
  if (!resp.ok) {
    const err = new Error(data && data.error ? data.error : `HTTP ${resp.status}`);
    err.status = resp.status;
    throw err;
  }
  return data;
}

function showError(msg) {
  const e = $("error");
  if (msg) { e.textContent = msg; e.hidden = false; } else { e.hidden = true; e.textContent = ""; }
}

function gameInfo(name) {
  return ui.info ? ui.info.games.find((g) => g.name === name) : null;
}

function fillPresets() {
  const g = gameInfo($("game-select").value);
  const sel = $("preset");
  sel.innerHTML = "";
  if (!g) return;
  for (const p of g.presets) {
    const o = document.createElement("option");
    o.value = p.spec;
    o.textContent = p.label;
    sel.appendChild(o);
  }
  const custom = document.createElement("option");
  custom.value = "";
  custom.textContent = "other (type a spec below)";
  sel.appendChild(custom);
  $("opponent").value = g.default;
  sel.value = g.default;
  $("dial-range").textContent = g.dial
    ? `Strength dial (elo:X) calibrated from ${Math.round(g.dial[0])} to ${Math.round(g.dial[1])}.`
    : "No calibration: elo:X is not available for this game.";
  const kinds = $("kinds");
  kinds.innerHTML = "";
  for (const [syn, desc] of g.kinds) {
    const li = document.createElement("li");
    const code = document.createElement("code");
    code.textContent = syn;
    li.appendChild(code);
    li.appendChild(document.createTextNode(" – " + desc));
    kinds.appendChild(li);
  }
  const side = $("side");
  const names = $("game-select").value === "chess" ? ["White (first)", "Black (second)"]
    : $("game-select").value === "tictactoe" ? ["X (first)", "O (second)"]
    : ["first", "second"];
  side.options[0].textContent = names[0];
  side.options[1].textContent = names[1];
}

async function newGame(extra) {
  showError(null);
  const body = {
    game: $("game-select").value,
    opponent: $("opponent").value.trim(),
    human: $("side").value,
  };
  const seed = $("seed").value.trim();
  if (seed !== "") body.seed = Number(seed);
  // A learning opponent (online, adaptive) keeps what it learnt about you
  // from one game to the next: a series, while game and opponent stay.
  const prev = ui.state;
  if (prev && prev.memory && prev.game === body.game && prev.opponent === body.opponent) body.after = prev.id;
  Object.assign(body, extra || {});
  ui.selected = null;
  ui.pending = null;
  ui.flipped = body.game === "chess" && body.human === "second";
  $("promotion").hidden = true;
  $("export-text").hidden = true;
  $("download").hidden = true;
  setBusy(true, "Starting…");
  try {
    const st = await api("POST", "/api/games", body);
    setState(st);
    history.replaceState(null, "", "#" + st.id);
  } catch (e) {
    showError(e.message);
  } finally {
    setBusy(false);
  }
}

async function sendMove(mv) {
  if (!ui.state || ui.busy) return;
  showError(null);
  ui.selected = null;
  ui.pending = null;
  $("promotion").hidden = true;
  setBusy(true, "Engine thinking…");
  try {
    setState(await api("POST", `/api/games/${ui.state.id}/moves`, { move: mv }));
  } catch (e) {
    showError(e.message);
    render();
  } finally {
    setBusy(false);
  }
}

async function undo() {
  if (!ui.state || ui.busy) return;
  showError(null);
  try {
    setState(await api("POST", `/api/games/${ui.state.id}/undo`));
  } catch (e) {
    showError(e.message);
  }
}

async function exportGame() {
  if (!ui.state) return;
  try {
    const x = await api("GET", `/api/games/${ui.state.id}/export`);
    const ta = $("export-text");
    ta.value = x.text;
    ta.hidden = false;
    const a = $("download");
    a.href = URL.createObjectURL(new Blob([x.text], { type: "text/plain" }));
    a.download = x.format === "pgn" ? "game.pgn" : `${x.game}.txt`;
    a.textContent = `Download ${a.download}`;
    a.hidden = false;
  } catch (e) {
    showError(e.message);
  }
}

function setBusy(busy, text) {
  ui.busy = busy;
  for (const id of ["new-game", "undo", "import"]) $(id).disabled = busy;
  const s = $("status");
  if (busy) {
    s.textContent = text || "…";
    s.classList.add("thinking");
  } else {
    s.classList.remove("thinking");
    renderStatus();
  }
}

function setState(st) {
  ui.state = st;
  render();
}

function statusText(st) {
  const detail = st.detail ? ` (${st.detail})` : "";
  switch (st.status) {
    case "human_won": return "You won" + detail;
    case "engine_won": return "The engine won" + detail;
    case "draw": return "Draw" + detail;
    default:
      if (st.thinking) return "Engine thinking…";
      return (st.to_move === "human" ? "Your move" : "Engine to move") + (st.board.check ? " – check!" : "");
  }
}

function renderStatus() {
  if (ui.state) $("status").textContent = statusText(ui.state);
}

// The model coordinates (row from the top, column from the left) shown at
// display position (i, j).
function model(i, j, b) {
  return ui.flipped ? [b.height - 1 - i, b.width - 1 - j] : [i, j];
}

function heatColour(p) {
  const a = p <= 0 ? 0 : Math.min(0.85, 0.15 + 0.7 * Math.sqrt(p));
  return `rgba(230, 70, 20, ${a.toFixed(3)})`;
}

// Probability by cell name (or column label, or chess destination square).
function heatMap(st) {
  const out = new Map();
  if (!st.reply || !$("show-heat").checked) return out;
  for (const d of st.reply.distribution) {
    const key = st.board.input === "from-to" ? d.move.slice(2, 4) : d.move;
    out.set(key, (out.get(key) || 0) + d.p);
  }
  return out;
}

function render() {
  const st = ui.state;
  if (!st) return;
  const b = st.board;
  const board = $("board");
  board.className = "board " + st.game;
  board.innerHTML = "";
  const heat = heatMap(st);
  const legal = new Set(st.legal);
  const myTurn = st.status === "ongoing" && st.to_move === "human" && !st.thinking;
  const last = st.last_move;
  let lastSquares = [];
  if (last && b.input === "from-to") lastSquares = [last.slice(0, 2), last.slice(2, 4)];
  // Chess: the squares the selected piece can go to.
  const targets = new Map();
  if (b.input === "from-to" && ui.selected) {
    for (const m of st.legal) if (m.startsWith(ui.selected)) {
      const to = m.slice(2, 4);
      if (!targets.has(to)) targets.set(to, []);
      targets.get(to).push(m);
    }
  }
  const origins = new Set(b.input === "from-to" ? st.legal.map((m) => m.slice(0, 2)) : []);
  const columnHeat = $("column-heat");
  columnHeat.innerHTML = "";
  columnHeat.hidden = b.input !== "column";
  for (let i = 0; i < b.height; i++) {
    for (let j = 0; j < b.width; j++) {
      const [r, c] = model(i, j, b);
      const content = b.rows[r][c];
      const name = b.files[c] + b.ranks[r];
      const cell = document.createElement("div");
      cell.className = "cell";
      cell.dataset.cell = name;
      cell.dataset.col = b.files[c];
      if (b.input === "from-to") {
        cell.classList.add((r + c) % 2 === 0 ? "light" : "dark");
        if (content) {
          const span = document.createElement("span");
          const white = content === content.toUpperCase();
          span.className = "piece " + (white ? "white" : "black");
          span.textContent = GLYPHS[content.toLowerCase()] + "\uFE0E";
          cell.appendChild(span);
          cell.classList.add("occupied");
          if (b.check && content.toLowerCase() === "k" && white === (b.fen.split(" ")[1] === "w")) cell.classList.add("check");
        }
        if (lastSquares.includes(name)) cell.classList.add("last");
        if (ui.selected === name) cell.classList.add("selected");
        if (targets.has(name)) cell.classList.add("target");
        if (myTurn && (origins.has(name) || targets.has(name))) cell.classList.add("clickable");
        if (i === b.height - 1) addLabel(cell, "file", b.files[c]);
        if (j === 0) addLabel(cell, "rank", b.ranks[r]);
      } else {
        if (content === "X") cell.classList.add("x");
        if (content === "O") cell.classList.add("o");
        if (b.input === "cell") {
          if (st.game === "tictactoe") cell.textContent = content;
          if (legal.has(name)) cell.classList.add("legal");
          if (myTurn && legal.has(name)) cell.classList.add("clickable");
          if (last === name) cell.classList.add("last");
          if (st.game === "gobang") {
            if (i === b.height - 1) addLabel(cell, "file", b.files[c]);
            if (j === 0) addLabel(cell, "rank", b.ranks[r]);
          }
        } else {
          if (myTurn && legal.has(b.files[c])) cell.classList.add("clickable");
        }
      }
      const p = b.input === "column" ? 0 : heat.get(name) || 0;
      if (p > 0) {
        const h = document.createElement("div");
        h.className = "heat";
        h.style.background = heatColour(p);
        cell.appendChild(h);
        const pct = document.createElement("span");
        pct.className = "pct";
        pct.textContent = p >= 0.995 ? "100" : (100 * p).toFixed(p < 0.1 ? 1 : 0);
        cell.appendChild(pct);
      }
      cell.addEventListener("click", () => onCell(name, b.files[c]));
      board.appendChild(cell);
    }
  }
  if (b.input === "column") {
    for (let j = 0; j < b.width; j++) {
      const [, c] = model(0, j, b);
      const p = heat.get(b.files[c]) || 0;
      const d = document.createElement("div");
      d.dataset.col = b.files[c];
      d.style.background = heatColour(p);
      d.textContent = p > 0 ? (100 * p).toFixed(0) + "%" : b.files[c];
      columnHeat.appendChild(d);
    }
  }
  renderStatus();
  renderThought(st);
  renderLog(st);
  $("undo").disabled = ui.busy;
}

function addLabel(cell, kind, text) {
  const l = document.createElement("span");
  l.className = "label " + kind;
  l.textContent = text;
  cell.appendChild(l);
}

function onCell(name, column) {
  const st = ui.state;
  if (!st || ui.busy || st.status !== "ongoing" || st.to_move !== "human") return;
  const input = st.board.input;
  if (input === "cell") {
    if (st.legal.includes(name)) sendMove(name);
    return;
  }
  if (input === "column") {
    if (st.legal.includes(column)) sendMove(column);
    return;
  }
  // Chess: select a piece, then a destination.
  if (ui.selected) {
    const moves = st.legal.filter((m) => m.startsWith(ui.selected) && m.slice(2, 4) === name);
    if (moves.length === 1) return sendMove(moves[0]);
    if (moves.length > 1) {
      ui.pending = moves;
      $("promotion").hidden = false;
      return;
    }
  }
  ui.selected = st.legal.some((m) => m.startsWith(name)) && ui.selected !== name ? name : null;
  ui.pending = null;
  $("promotion").hidden = true;
  render();
}

function formatValue(v) {
  if (v === null || v === undefined) return "–";
  if (v >= WIN) return `winning (${v.toFixed(0)})`;
  if (v <= -WIN) return `losing (${v.toFixed(0)})`;
  return (v > 0 ? "+" : "") + (Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(2));
}

function renderThought(st) {
  const r = st.reply;
  $("reply-move").textContent = r ? r.move : "–";
  $("reply-value").textContent = r ? formatValue(r.value) + " (engine's side)" : "–";
  $("reply-pv").textContent = r && r.pv.length ? r.pv.join(" ") : "–";
  $("reply-nodes").textContent = r ? r.nodes.toLocaleString("en") : "–";
  $("reply-depth").textContent = r ? String(r.depth) : "–";
  $("reply-ms").textContent = r ? `${r.ms.toFixed(1)} ms` : "–";
  $("reply-note").textContent = r && r.note ? r.note : "";
  const ol = $("distribution");
  ol.innerHTML = "";
  if (!r) return;
  for (const d of r.distribution.slice(0, 12)) {
    const li = document.createElement("li");
    const m = document.createElement("span");
    m.textContent = d.move;
    const bar = document.createElement("div");
    bar.className = "bar";
    bar.style.width = `${Math.max(1, 100 * d.p)}%`;
    const p = document.createElement("span");
    p.textContent = (100 * d.p).toFixed(1) + "%";
    li.append(m, bar, p);
    ol.appendChild(li);
  }
  if (r.distribution.length > 12) {
    const li = document.createElement("li");
    li.textContent = `… ${r.distribution.length - 12} more`;
    ol.appendChild(li);
  }
}

function renderLog(st) {
  $("engine-spec").textContent = `Engine: ${st.spec}` + (st.spec !== st.opponent ? ` (asked: ${st.opponent})` : "") + `, seed ${st.seed}`
    + (st.memory ? `; it learns from your moves (${st.memory.games} earlier game${st.memory.games === 1 ? "" : "s"})` : "");
  const ol = $("log");
  ol.innerHTML = "";
  // Sides alternate: the last move was made by the side not to move now.
  const n = st.moves.length;
  const humanToMove = st.to_move === "human";
  st.moves.forEach((m, k) => {
    const byHuman = (n - 1 - k) % 2 === 0 ? !humanToMove : humanToMove;
    const li = document.createElement("li");
    li.textContent = m;
    li.className = byHuman ? "human" : "engine";
    ol.appendChild(li);
  });
  ol.scrollTop = ol.scrollHeight;
}

function choosePromotion(letter) {
  const moves = ui.pending || [];
  $("promotion").hidden = true;
  ui.pending = null;
  const mv = moves.find((m) => m.length === 5 && m[4] === letter);
  if (mv) sendMove(mv); else { ui.selected = null; render(); }
}

// Shows the preset matching the typed spec, or "other".
function syncPreset() {
  const spec = $("opponent").value.trim();
  const sel = $("preset");
  sel.value = [...sel.options].some((o) => o.value === spec) ? spec : "";
}

async function resume(id) {
  try {
    const st = await api("GET", `/api/games/${id}`);
    $("game-select").value = st.game;
    fillPresets();
    $("opponent").value = st.opponent;
    syncPreset();
    $("side").value = st.human;
    ui.flipped = st.game === "chess" && st.human === "second";
    setState(st);
    return true;
  } catch (_) {
    return false;
  }
}

async function start() {
  try {
    ui.info = await api("GET", "/api/info");
  } catch (e) {
    showError("cannot reach the server: " + e.message);
    return;
  }
  fillPresets();
  $("game-select").addEventListener("change", () => { fillPresets(); newGame(); });
  $("preset").addEventListener("change", () => { if ($("preset").value) $("opponent").value = $("preset").value; });
  $("opponent").addEventListener("input", syncPreset);
  $("new-game").addEventListener("click", () => newGame());
  $("undo").addEventListener("click", undo);
  $("flip").addEventListener("click", () => { ui.flipped = !ui.flipped; render(); });
  $("export").addEventListener("click", exportGame);
  $("show-heat").addEventListener("change", render);
  $("import").addEventListener("click", () => {
    const extra = {};
    const fen = $("import-fen").value.trim();
    const moves = $("import-moves").value.trim();
    if (fen) extra.position = fen;
    if (moves) extra.moves = moves;
    newGame(extra);
  });
  for (const b of document.querySelectorAll("#promotion button")) {
    b.addEventListener("click", () => choosePromotion(b.dataset.promo));
  }
  const id = location.hash.slice(1);
  if (!(id && await resume(id))) await newGame();
}

start();
