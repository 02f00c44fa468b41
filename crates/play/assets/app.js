// The page of `cargo xtask play`: draws the board from the API's state,
// turns clicks (and, in chess, drags) into moves, shows what the engine
// thought. No framework, no build step, nothing loaded from elsewhere.
"use strict";

const $ = (id) => document.getElementById(id);

const ui = {
  info: null,        // GET /api/info
  state: null,       // the session's state
  flipped: false,
  selected: null,    // chess: the selected origin square
  pending: null,     // chess: moves waiting for a promotion choice
  drag: null,        // chess: a piece being dragged {from, ghost, moved}
  busy: false,
  notice: "",        // a line about the last change of opponent
};

// Solid glyphs, coloured by CSS; U+FE0E asks for text, not emoji, presentation.
const GLYPHS = { k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟" };
// A move's share of the distribution that the heat map labels (1%).
const VISIBLE_SHARE = 0.01;

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

// The scales of the ratings the menu offers, named once.
function scaleText(g) {
  const parts = [];
  if (g.dial) {
    const [lo, hi] = g.dial;
    parts.push(`Strength dial elo:X: ${g.scale}, from ${lo} to ${hi}` +
      (lo === 0 ? " (0 is its weakest setting)." : "."));
  } else {
    parts.push("No calibration: elo:X is not available for this game.");
  }
  if (g.human) {
    parts.push(`human:X plays like a Lichess player rated X (${g.human[0]} to ${g.human[1]}): ` +
      "a Lichess rating, another scale than the dial's Elo.");
  }
  return parts.join(" ");
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
  $("dial-range").textContent = scaleText(g);
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

function resetMoveInput() {
  ui.selected = null;
  ui.pending = null;
  $("promotion").hidden = true;
}

async function newGame(extra) {
  showError(null);
  ui.notice = "";
  const body = {
    game: $("game-select").value,
    opponent: $("opponent").value.trim(),
    human: $("side").value,
  };
  // Seeds travel as strings: a 64-bit seed does not fit a JavaScript number.
  const seed = $("seed").value.trim();
  if (seed !== "") body.seed = seed;
  // A learning opponent (online, adaptive) keeps what it learnt about you
  // from one game to the next: a series, while game and opponent stay.
  const prev = ui.state;
  if (prev && prev.memory && prev.game === body.game && prev.opponent === body.opponent) body.after = prev.id;
  Object.assign(body, extra || {});
  resetMoveInput();
  ui.flipped = body.game === "chess" && body.human === "second";
  $("export-text").hidden = true;
  $("download").hidden = true;
  setBusy(true, "Starting…");
  try {
    const st = await api("POST", "/api/games", body);
    setState(st);
    history.replaceState(null, "", "#" + st.id);
  } catch (e) {
    showError(e.message);
    showOpponent();
  } finally {
    setBusy(false);
  }
}

// A new opponent chosen during a game: the game goes on against it from
// the current position (a new session replaying the moves with the same
// seed). Refused, the old opponent stays and the page says so.
async function changeOpponent() {
  const st = ui.state;
  const spec = $("opponent").value.trim();
  if (!st || spec === "" || spec === st.opponent) return;
  if (ui.busy) return;
  if (st.status !== "ongoing") {
    renderOpponentHint();
    return;
  }
  showError(null);
  resetMoveInput();
  const body = { game: st.game, opponent: spec, human: st.human, seed: st.seed, moves: st.moves.join(" ") };
  if (st.start_fen) body.position = st.start_fen;
  setBusy(true, "Changing the opponent…");
  try {
    const next = await api("POST", "/api/games", body);
    ui.notice = `Opponent changed to ${next.opponent} at move ${st.moves.length + 1}; it plays from here on.`;
    setState(next);
    history.replaceState(null, "", "#" + next.id);
    // The old session goes once the page's address names the new one.
    api("DELETE", `/api/games/${st.id}`).catch(() => {});
  } catch (e) {
    showError(`${spec} was not applied: ${e.message}. Still playing ${st.opponent}.`);
    showOpponent();
  } finally {
    setBusy(false);
  }
}

// The controls show the opponent of the game in force.
function showOpponent() {
  if (!ui.state) return;
  $("opponent").value = ui.state.opponent;
  syncPreset();
  renderOpponentHint();
}

// A typed spec applies when asked: the page says when.
function renderOpponentHint() {
  const st = ui.state;
  const spec = $("opponent").value.trim();
  const hint = $("opponent-hint");
  if (!st || spec === "" || spec === st.opponent) {
    hint.textContent = "";
    hint.hidden = true;
    return;
  }
  hint.textContent = st.status === "ongoing"
    ? `Not applied yet: Enter plays ${spec} from this move on; New game starts a game against it.`
    : `${spec} will play the next game (New game).`;
  hint.hidden = false;
}

async function sendMove(mv) {
  if (!ui.state || ui.busy) return;
  showError(null);
  resetMoveInput();
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
  resetMoveInput();
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
  for (const id of ["new-game", "undo", "import", "preset", "opponent"]) $(id).disabled = busy;
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
  showOpponent();
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

function percent(p) {
  return String(Math.round(100 * p));
}

// The side to move in chess: "white" or "black".
function chessMover(b) {
  return b.fen && b.fen.split(" ")[1] === "b" ? "black" : "white";
}

function render() {
  const st = ui.state;
  if (!st) return;
  const b = st.board;
  const board = $("board");
  board.className = "board " + st.game;
  board.innerHTML = "";
  $("board-wrap").className = st.game;
  const heat = heatMap(st);
  const legal = new Set(st.legal);
  const myTurn = st.status === "ongoing" && st.to_move === "human" && !st.thinking;
  const last = new Set(st.last_cells || []);
  const line = new Set(st.winning_line || []);
  const chess = b.input === "from-to";
  // Chess: the squares the selected piece can go to.
  const targets = chessTargets(st);
  const origins = new Set(chess ? st.legal.map((m) => m.slice(0, 2)) : []);
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
      if (last.has(name)) cell.classList.add("last");
      if (line.has(name)) cell.classList.add("win");
      if (chess) {
        cell.classList.add((r + c) % 2 === 0 ? "light" : "dark");
        if (content) {
          const span = document.createElement("span");
          const white = content === content.toUpperCase();
          span.className = "piece " + (white ? "white" : "black");
          span.textContent = GLYPHS[content.toLowerCase()] + "\uFE0E";
          cell.appendChild(span);
          cell.classList.add("occupied");
          if (b.check && content.toLowerCase() === "k" && white === (chessMover(b) === "white")) cell.classList.add("check");
        }
        if (ui.selected === name) cell.classList.add("selected");
        if (targets.has(name)) cell.classList.add("target");
        if (myTurn && (origins.has(name) || targets.has(name))) cell.classList.add("clickable");
        if (myTurn && origins.has(name)) cell.classList.add("draggable");
        if (i === b.height - 1) addLabel(cell, "file", b.files[c]);
        if (j === 0) addLabel(cell, "rank", b.ranks[r]);
      } else {
        if (content === "X") cell.classList.add("x");
        if (content === "O") cell.classList.add("o");
        if (b.input === "cell") {
          if (st.game === "tictactoe") {
            const m = document.createElement("span");
            m.className = "mark";
            m.textContent = content;
            cell.appendChild(m);
          }
          if (legal.has(name)) cell.classList.add("legal");
          if (myTurn && legal.has(name)) cell.classList.add("clickable");
        } else if (myTurn && legal.has(b.files[c])) {
          cell.classList.add("clickable");
        }
      }
      const p = b.input === "column" ? 0 : heat.get(name) || 0;
      if (p >= VISIBLE_SHARE / 2) {
        const h = document.createElement("div");
        h.className = "heat";
        h.style.background = heatColour(p);
        cell.appendChild(h);
      }
      // Only moves with a visible share are labelled.
      if (p >= VISIBLE_SHARE) {
        const pct = document.createElement("span");
        pct.className = "pct";
        pct.textContent = percent(p);
        cell.appendChild(pct);
      }
      if (!chess) cell.addEventListener("click", () => onCell(name, b.files[c]));
      board.appendChild(cell);
    }
  }
  if (b.input === "column") {
    for (let j = 0; j < b.width; j++) {
      const [, c] = model(0, j, b);
      const p = heat.get(b.files[c]) || 0;
      const d = document.createElement("div");
      d.dataset.col = b.files[c];
      d.style.background = p >= VISIBLE_SHARE / 2 ? heatColour(p) : "transparent";
      d.textContent = p >= VISIBLE_SHARE ? percent(p) + "%" : "";
      columnHeat.appendChild(d);
    }
  }
  renderCoordinates(st);
  renderPromotion(st);
  renderStatus();
  renderThought(st);
  renderLog(st);
  $("undo").disabled = ui.busy;
}

// Coordinates beside the board for the games drawn without them on the
// squares: ranks on the left, files below.
function renderCoordinates(st) {
  const b = st.board;
  const ranks = $("ranks");
  const files = $("files");
  ranks.innerHTML = "";
  files.innerHTML = "";
  const outside = b.input !== "from-to";
  ranks.hidden = !outside;
  files.hidden = !outside;
  if (!outside) return;
  ranks.className = "coords ranks " + st.game;
  files.className = "coords files " + st.game;
  for (let i = 0; i < b.height; i++) {
    const [r] = model(i, 0, b);
    const d = document.createElement("div");
    d.textContent = b.ranks[r];
    ranks.appendChild(d);
  }
  for (let j = 0; j < b.width; j++) {
    const [, c] = model(0, j, b);
    const d = document.createElement("div");
    d.textContent = b.files[c];
    files.appendChild(d);
  }
}

// The promotion choice shows the mover's pieces.
function renderPromotion(st) {
  const promo = $("promotion");
  promo.classList.remove("white", "black");
  if (st.board.input === "from-to") promo.classList.add(chessMover(st.board));
}

function addLabel(cell, kind, text) {
  const l = document.createElement("span");
  l.className = "label " + kind;
  l.textContent = text;
  cell.appendChild(l);
}

function canMove() {
  const st = ui.state;
  return st && !ui.busy && st.status === "ongoing" && st.to_move === "human";
}

function onCell(name, column) {
  const st = ui.state;
  if (!canMove()) return;
  if (st.board.input === "cell") {
    if (st.legal.includes(name)) sendMove(name);
  } else if (st.board.input === "column") {
    if (st.legal.includes(column)) sendMove(column);
  }
}

// Chess: destination square -> the legal moves there of the selected piece.
function chessTargets(st) {
  const targets = new Map();
  if (st.board.input !== "from-to" || !ui.selected) return targets;
  for (const m of st.legal) if (m.startsWith(ui.selected)) {
    const to = m.slice(2, 4);
    if (!targets.has(to)) targets.set(to, []);
    targets.get(to).push(m);
  }
  return targets;
}

// Chess: moves the selected piece to `name` if it can go there (asking for
// the promotion piece when there is a choice); returns whether it did.
function moveSelectedTo(name) {
  const moves = chessTargets(ui.state).get(name) || [];
  if (moves.length === 1) {
    sendMove(moves[0]);
    return true;
  }
  if (moves.length > 1) {
    ui.pending = moves;
    $("promotion").hidden = false;
    return true;
  }
  return false;
}

function select(name) {
  const st = ui.state;
  ui.selected = st.legal.some((m) => m.startsWith(name)) ? name : null;
  ui.pending = null;
  $("promotion").hidden = true;
  render();
}

function squareAt(x, y) {
  const el = document.elementFromPoint(x, y);
  const cell = el && el.closest("#board .cell");
  return cell ? cell.dataset.cell : null;
}

// Chess input, click-click or drag and drop, through pointer events: a
// press on a movable piece selects it (and starts a drag), a press on a
// highlighted square moves the selected piece there, a release over
// another square than the origin drops the dragged piece there.
function onPointerDown(ev) {
  const st = ui.state;
  if (!st || st.board.input !== "from-to" || !canMove() || ev.button !== 0) return;
  const name = squareAt(ev.clientX, ev.clientY);
  if (!name) return;
  ev.preventDefault();
  if (ui.selected && ui.selected !== name && moveSelectedTo(name)) return;
  if (ui.selected === name) {
    ui.drag = { from: name, ghost: null, moved: false, deselect: true };
    return;
  }
  select(name);
  if (!ui.selected) return;
  const piece = document.querySelector(`#board .cell[data-cell='${name}'] .piece`);
  ui.drag = { from: name, ghost: null, moved: false, deselect: false, piece };
}

function onPointerMove(ev) {
  const d = ui.drag;
  if (!d || !d.piece) return;
  if (!d.ghost) {
    d.ghost = d.piece.cloneNode(true);
    d.ghost.classList.add("ghost");
    document.body.appendChild(d.ghost);
    d.piece.classList.add("dragging");
  }
  d.moved = true;
  d.ghost.style.left = `${ev.clientX}px`;
  d.ghost.style.top = `${ev.clientY}px`;
}

function onPointerUp(ev) {
  const d = ui.drag;
  if (!d) return;
  ui.drag = null;
  if (d.ghost) d.ghost.remove();
  if (d.piece) d.piece.classList.remove("dragging");
  const name = squareAt(ev.clientX, ev.clientY);
  if (name && name !== d.from && moveSelectedTo(name)) return;
  // A click on the selected piece again puts it down.
  if (name === d.from && d.deselect && !d.moved) {
    ui.selected = null;
    render();
  }
}

function valueText(r) {
  if (!r.value_display) return "–";
  let text = r.value_display;
  // A drawn move worse than the best one: say what the move played is worth.
  if (r.move_value_display && r.move_value !== null && r.value !== null && Math.abs(r.move_value - r.value) > 1e-9) {
    text += ` (best move); the move played: ${r.move_value_display}`;
  }
  return text + " (engine's side)";
}

function renderThought(st) {
  const r = st.reply;
  // The kinds that choose without a counted search say so, not "0".
  const unsearched = !r || r.nodes > 0 || r.depth > 0 ? null
    : st.spec.startsWith("human:") ? "not counted (a learned model of players picks the move)"
    : st.spec.startsWith("random") ? "none (a random legal move)"
    : null;
  $("reply-move").textContent = r ? r.move_display : "–";
  $("reply-value").textContent = r ? valueText(r) : "–";
  $("reply-pv").textContent = r && r.pv_display.length ? r.pv_display.join(" ") : "–";
  $("reply-nodes").textContent = !r ? "–" : unsearched || r.nodes.toLocaleString("en");
  $("reply-depth").textContent = !r || unsearched ? "–" : String(r.depth);
  $("reply-ms").textContent = r ? `${r.ms.toFixed(1)} ms` : "–";
  $("reply-note").textContent = r && r.note ? r.note : "";
  const ol = $("distribution");
  ol.innerHTML = "";
  if (!r) return;
  for (const d of r.distribution.slice(0, 12)) {
    const li = document.createElement("li");
    const m = document.createElement("span");
    m.textContent = d.display;
    const bar = document.createElement("div");
    bar.className = "bar";
    bar.style.width = `${Math.max(1, 100 * d.p)}%`;
    const p = document.createElement("span");
    p.textContent = d.p > 0 && d.p < 0.0005 ? "<0.1%" : (100 * d.p).toFixed(1) + "%";
    li.append(m, bar, p);
    ol.appendChild(li);
  }
  if (r.distribution.length > 12) {
    const li = document.createElement("li");
    li.textContent = `… ${r.distribution.length - 12} more`;
    ol.appendChild(li);
  }
}

// The log: chess in SAN, numbered by full move (White's and Black's moves
// side by side); the other games numbered by move.
function renderLog(st) {
  $("engine-spec").textContent = `Engine: ${st.spec}` + (st.spec !== st.opponent ? ` (asked: ${st.opponent})` : "")
    + (st.memory ? `; it learns from your moves (${st.memory.games} earlier game${st.memory.games === 1 ? "" : "s"})` : "");
  $("seed-shown").textContent = st.seed;
  $("notice").textContent = ui.notice;
  $("notice").hidden = !ui.notice;
  const log = $("log");
  log.innerHTML = "";
  log.className = "log " + (st.board.input === "from-to" ? "chess" : "plain");
  // Sides alternate: the last move was made by the side not to move now.
  const n = st.moves.length;
  const humanToMove = st.to_move === "human";
  const byHuman = (k) => ((n - 1 - k) % 2 === 0 ? !humanToMove : humanToMove);
  const moveSpan = (k) => {
    const s = document.createElement("span");
    s.className = "move " + (byHuman(k) ? "human" : "engine");
    s.textContent = st.moves_display[k];
    return s;
  };
  const num = (text) => {
    const s = document.createElement("span");
    s.className = "num";
    s.textContent = text;
    return s;
  };
  if (st.board.input === "from-to") {
    const fen = (st.start_fen || "").split(" ");
    let number = parseInt(fen[5], 10) || 1;
    let k = 0;
    let row = null;
    if (fen[1] === "b" && n > 0) {
      row = document.createElement("div");
      row.className = "row";
      const blank = document.createElement("span");
      blank.className = "move blank";
      blank.textContent = "…";
      row.append(num(`${number}.`), blank, moveSpan(0));
      log.appendChild(row);
      number += 1;
      k = 1;
    }
    for (; k < n; k += 2) {
      row = document.createElement("div");
      row.className = "row";
      row.append(num(`${number}.`), moveSpan(k));
      if (k + 1 < n) row.appendChild(moveSpan(k + 1));
      log.appendChild(row);
      number += 1;
    }
  } else {
    for (let k = 0; k < n; k++) {
      const row = document.createElement("div");
      row.className = "row";
      row.append(num(`${k + 1}.`), moveSpan(k));
      log.appendChild(row);
    }
  }
  log.scrollTop = log.scrollHeight;
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
  $("preset").addEventListener("change", () => {
    if ($("preset").value) {
      $("opponent").value = $("preset").value;
      changeOpponent();
    }
  });
  $("opponent").addEventListener("input", () => { syncPreset(); renderOpponentHint(); });
  $("opponent").addEventListener("keydown", (ev) => { if (ev.key === "Enter") changeOpponent(); });
  $("new-game").addEventListener("click", () => newGame());
  $("undo").addEventListener("click", undo);
  $("flip").addEventListener("click", () => { ui.flipped = !ui.flipped; render(); });
  $("export").addEventListener("click", exportGame);
  $("show-heat").addEventListener("change", render);
  $("use-seed").addEventListener("click", () => { if (ui.state) $("seed").value = ui.state.seed; });
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
  $("board").addEventListener("pointerdown", onPointerDown);
  document.addEventListener("pointermove", onPointerMove);
  document.addEventListener("pointerup", onPointerUp);
  const id = location.hash.slice(1);
  if (!(id && await resume(id))) await newGame();
}

start();
