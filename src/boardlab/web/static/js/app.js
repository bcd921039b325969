// The page: setup, the game loop (human clicks, computer moves, watch runs), analysis,
// the record of a series, the move list, records and links. The server is stateless:
// this module owns the game (rules, start, moves, redo) and sends it with every request.

import { api } from "./api.js";
import { applyI18n, getLang, onLangChange, setLang, t } from "./i18n.js";
import { helpHtml } from "./help.js";
import { createDodgemBoard } from "./boards/dodgem.js";
import { createDotDashBoard } from "./boards/dotdash.js";
import { createGenericBoard } from "./boards/generic.js";
import { renderChart } from "./chart.js";

const RENDERERS = { dodgem: createDodgemBoard, dotdash: createDotDashBoard };
const STORE = "boardlab.settings.v1";
const AUTO_BUILD_MAX = 4;
const $ = (id) => document.getElementById(id);
const DEFAULTS = {
  game: "dodgem", variant: "classic", size: 4, sides: ["human", "3"],
  alternate: false, speed: 300, analysis: false,
};

let catalogue = null;
let settings = loadSettings();
const game = { game: "dodgem", variant: "classic", size: 4, start: null, moves: [], redo: [] };
let state = null;
let analysis = null;
let swapped = false;
let gameNo = 0;
let series = { key: null, a: 0, b: 0, d: 0, n: 0 };
let gen = 0;
let recorded = false;
let run = null;
let paused = false;
let thinking = false;
let seed = newSeed();
let timer = null;
let forced = null;
let board = null;
let boardGame = null;
let tablePoll = null;
let messageTimer = null;
let pieNote = null; // what the computer did in the pie, shown again on a language switch

function newSeed() {
  return Math.floor(Math.random() * 2 ** 31);
}

function loadSettings() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORE) || "{}");
    return { ...DEFAULTS, ...saved };
  } catch {
    return { ...DEFAULTS };
  }
}

function saveSettings() {
  localStorage.setItem(STORE, JSON.stringify(settings));
}

// -- who plays what -------------------------------------------------------------------------
const isComputer = (who) => who !== "human";
const currentSides = () => (swapped ? [settings.sides[1], settings.sides[0]] : [...settings.sides]);
const isWatch = () => settings.sides.every(isComputer);
const hasHuman = () => settings.sides.some((s) => !isComputer(s));
const colourName = (p) => t(`colour.${state ? state.players[p] : "blue"}`);
/** One human against one computer: the Dot Dash pie is then played against the computer. */
const pieVsComputer = () => hasHuman() && settings.sides.some(isComputer);
const computerLevel = () => settings.sides.find(isComputer);

/** Which pie dialogue the board offers now: "computer", "humans" or null. */
function pieMode() {
  if (!state || state.game !== "dotdash" || state.result) return null;
  if (pieVsComputer()) return !game.start && state.moves.length === 0 ? "computer" : null;
  if (!hasHuman()) return null;
  return isComputer(currentSides()[state.to_move]) ? null : "humans";
}

/** A fresh Dot Dash game against the computer waits when the computer would move first, so
 * the human can start with the pie instead of the fixed setup. */
function pieWaits() {
  return game.game === "dotdash" && !game.start && pieVsComputer() && isComputer(currentSides()[0]);
}

function participantLabel(i) {
  const who = settings.sides[i];
  const other = settings.sides[1 - i];
  if (!isComputer(who)) return isComputer(other) ? t("who.you") : t(i === 0 ? "who.player1" : "who.player2");
  const base = who === "random" ? t("who.random") : t("who.level", { n: who });
  return who === other ? `${base} (${i === 0 ? "A" : "B"})` : base;
}

function sideLabel(colour) {
  const i = swapped ? 1 - colour : colour;
  return participantLabel(i);
}

function seriesKey() {
  const { game: g, variant, size, sides, alternate } = settings;
  return JSON.stringify([g, variant, size, sides, alternate]);
}

// -- messages -------------------------------------------------------------------------------
function showMessage(text, kind = "warn", ms = 5000) {
  const box = $("message");
  clearTimeout(messageTimer);
  if (!text) {
    box.hidden = true;
    return;
  }
  box.textContent = text;
  box.className = `message ${kind}`;
  box.hidden = false;
  messageTimer = setTimeout(() => (box.hidden = true), ms);
}

function toast(text) {
  const el = $("toast");
  el.textContent = text;
  el.hidden = false;
  setTimeout(() => (el.hidden = true), 2200);
}

function errorText(err) {
  return t("error.server", { msg: err.message || String(err) });
}

// -- the game loop --------------------------------------------------------------------------
function cancel() {
  gen += 1;
  clearTimeout(timer);
  thinking = false;
}

async function refresh() {
  const token = gen;
  let next;
  try {
    next = await api.state(game);
  } catch (err) {
    if (token === gen) showMessage(errorText(err), "error");
    return;
  }
  if (token !== gen) return;
  setState(next);
  afterState(token);
}

function setState(next) {
  state = next;
  game.moves = [...next.moves];
  if (analysis && analysis.ply !== next.moves.length) analysis = null;
  render();
  updateHash();
  if (settings.analysis) loadAnalysis();
}

function afterState(token) {
  if (state.result) {
    finishGame();
    return;
  }
  const who = currentSides()[state.to_move];
  if (isComputer(who) && !paused) scheduleComputer(token);
}

function scheduleComputer(token) {
  clearTimeout(timer);
  if (isWatch() && Number(settings.speed) === 0) {
    timer = setTimeout(() => instantGame(token), 0);
    return;
  }
  const delay = isWatch() ? Number(settings.speed) : 300;
  timer = setTimeout(() => computerMove(token), delay);
}

// Sends a computer request with the board locked. A missing table is waited for (then the
// computer is asked again); any other error pauses the game with its message. Returns the
// answer, or null when the request failed or the game changed meanwhile.
async function computerRequest(token, request) {
  thinking = true;
  renderStatus();
  let res;
  try {
    res = await request();
  } catch (err) {
    thinking = false;
    if (token !== gen) return null;
    if (err.kind === "MissingTableError") {
      await waitForTable(token);
      if (token === gen) scheduleComputer(token);
      return null;
    }
    paused = true;
    showMessage(errorText(err), "error");
    render();
    return null;
  }
  thinking = false;
  return token === gen ? res : null;
}

async function computerMove(token) {
  if (token !== gen || !state || state.result) return;
  const mover = state.to_move;
  const level = currentSides()[mover];
  const res = await computerRequest(token, () => api.move(game, level, seed));
  if (!res) return;
  game.redo = [];
  forced = res.forced && res.forced.winner === mover ? { ...res.forced, computer: true } : null;
  setState(res.state);
  afterState(token);
}

async function instantGame(token) {
  if (token !== gen || !state || state.result) return;
  const res = await computerRequest(token, () => api.playout(game, currentSides(), seed));
  if (!res) return;
  game.redo = [];
  forced = null;
  setState(res.state);
  afterState(token);
}

function finishGame() {
  renderStatus();
  if (recorded) return;
  recorded = true;
  const key = seriesKey();
  if (series.key !== key) series = { key, a: 0, b: 0, d: 0, n: 0 };
  const w = state.result.winner;
  if (w === null) series.d += 1;
  else if ((w === 0) !== swapped) series.a += 1;
  else series.b += 1;
  series.n += 1;
  if (run) run.done += 1;
  renderRecord();
  if (run) {
    if (run.done >= run.target) {
      run = null;
      toast(t("run.done"));
      renderRecord();
      renderRunButtons();
    } else {
      const token = gen;
      const wait = Number(settings.speed) === 0 ? 0 : Math.max(500, Number(settings.speed));
      timer = setTimeout(() => token === gen && nextGame(), wait);
    }
  }
}

function nextGame() {
  cancel();
  gameNo += 1;
  swapped = settings.alternate && gameNo % 2 === 1;
  startFresh();
}

function startFresh() {
  game.moves = [];
  game.redo = [];
  game.start = null;
  seed = newSeed();
  recorded = false;
  forced = null;
  paused = pieWaits();
  analysis = null;
  refresh();
}

/** Seat the human on `humanColour` and the computer on the other colour (after the pie): the
 * settings' sides change, and the series record follows its two participants. */
function seatAfterPie(humanColour) {
  const old = [...settings.sides];
  const level = computerLevel();
  const inSeries = series.key === seriesKey();
  settings.sides = humanColour === 0 ? ["human", level] : [level, "human"];
  swapped = false;
  saveSettings();
  if (catalogue) fillSetup();
  if (inSeries) {
    const flip = old[0] !== settings.sides[0];
    series = { ...series, key: seriesKey(), a: flip ? series.b : series.a, b: flip ? series.a : series.b };
  }
}

/** A colour's name inside a sentence. */
function colourWord(p) {
  const names = state ? state.players : ["red", "blue"];
  const word = t(`colour.${names[p]}`);
  return getLang() === "en" ? word.toLowerCase() : word;
}

/** A game from a chosen start (the Dot Dash pie setup). Two humans: the chooser (side B) gets
 * its colour. Against the computer, `chooser` ("human" or "computer") took `chooserColour`
 * and the players are seated from that. */
function setupStart(start, chooserColour, chooser = null) {
  cancel();
  pieNote = null;
  if (chooser) {
    const human = chooser === "human" ? chooserColour : 1 - chooserColour;
    seatAfterPie(human);
    pieNote = { chooser, human };
  } else swapped = chooserColour === 0;
  const said = pieText();
  game.start = start;
  game.moves = [];
  game.redo = [];
  swapped = chooserColour === 0;
  seed = newSeed();
  recorded = false;
  forced = null;
  paused = false;
  analysis = null;
  if (said) showMessage(said, "info", 15000);
  else showMessage(null);
  refresh();
}

/** What the computer did in the pie, in the current language (null if nothing to say). */
function pieText() {
  if (!pieNote) return null;
  const { chooser, human } = pieNote;
  return chooser === "human"
    ? t("dd.youChose", { colour: colourWord(human), other: colourWord(1 - human) })
    : t("dd.computerChose", { colour: colourWord(1 - human), other: colourWord(human) });
}

/** The computer places the pie stones; resolves to the setup text. */
async function piePlace() {
  const res = await api.pie(game, "place", null, computerLevel(), seed);
  return res.setup;
}

/** The computer chooses a colour for the human's setup; the game then starts from it. */
async function pieChoose(setup) {
  const token = gen;
  const res = await api.pie(game, "choose", setup, computerLevel(), seed);
  if (token === gen) setupStart(res.setup, res.colour, "computer");
}

function humanMove(move) {
  cancel();
  game.moves.push(move);
  game.redo = [];
  forced = null;
  paused = false;
  showMessage(null);
  refresh();
}

function canAct() {
  if (!state) return t("illegal.loading");
  if (state.result) return t("illegal.over");
  const who = currentSides()[state.to_move];
  if (isComputer(who)) return thinking || !paused ? t("illegal.wait") : t("illegal.computerTurn");
  return null;
}

// -- undo, redo, jumps ----------------------------------------------------------------------
/** Side to move after `k` plies (sides alternate; a pass is a ply too). */
function sideAt(k) {
  const startSide = (((state.to_move - state.moves.length) % 2) + 2) % 2;
  return (startSide + k) % 2;
}

function undo() {
  if (!game.moves.length || !state) return;
  cancel();
  game.redo.push(game.moves.pop());
  // against the computer, go back to the human's turn
  if (hasHuman() && !isWatch()) {
    const sides = currentSides();
    while (game.moves.length && isComputer(sides[sideAt(game.moves.length)])) {
      game.redo.push(game.moves.pop());
    }
  }
  paused = true;
  forced = null;
  refresh();
}

function redo() {
  if (!game.redo.length || !state) return;
  cancel();
  game.moves.push(game.redo.pop());
  if (hasHuman() && !isWatch() && game.redo.length) {
    if (isComputer(currentSides()[sideAt(game.moves.length)])) game.moves.push(game.redo.pop());
  }
  paused = true;
  forced = null;
  refresh();
}

function jumpTo(ply) {
  cancel();
  const all = [...game.moves, ...[...game.redo].reverse()];
  game.moves = all.slice(0, ply);
  game.redo = all.slice(ply).reverse();
  paused = true;
  forced = null;
  refresh();
}

// -- tables ---------------------------------------------------------------------------------
async function waitForTable(token) {
  const bar = $("table-progress");
  try {
    let st = await api.tableStatus(game);
    if (st.state === "missing" || st.state === "failed") st = await api.buildTable(game);
    while (st.state === "building" && token === gen) {
      showProgress(bar, st.done, st.total, t("table.building"));
      await new Promise((r) => setTimeout(r, 500));
      st = await api.tableStatus(game);
    }
    bar.hidden = true;
    if (st.state !== "ready") showMessage(st.message || t("table.unavailable"), "error");
  } catch (err) {
    bar.hidden = true;
    showMessage(errorText(err), "error");
  }
}

function showProgress(bar, done, total, label) {
  bar.hidden = false;
  const frac = total > 0 ? Math.min(1, done / total) : 0;
  bar.querySelector(".bar").style.width = `${(frac * 100).toFixed(1)}%`;
  bar.querySelector(".label").textContent = total > 0 ? `${label} ${Math.round(frac * 100)}%` : label;
}

async function loadAnalysis() {
  const asked = JSON.stringify([game.game, game.variant, game.size, game.start, game.moves]);
  let res;
  try {
    res = await api.analysis(game);
  } catch (err) {
    showMessage(errorText(err), "error");
    return;
  }
  const now = JSON.stringify([game.game, game.variant, game.size, game.start, game.moves]);
  if (asked !== now || !settings.analysis) return;
  analysis = { ...res, ply: game.moves.length };
  renderAnalysis();
  renderBoard();
  renderNotice();
  // small tables (seconds) are built at once; a larger one only when asked for
  if (!res.available && (res.table === "building" || (res.table === "missing" && game.size <= AUTO_BUILD_MAX))) {
    pollTable();
  }
}

function pollTable() {
  if (tablePoll) return;
  const bar = $("table-progress");
  const tick = async () => {
    try {
      let st = await api.tableStatus(game);
      if (st.state === "missing") st = await api.buildTable(game);
      if (st.state === "building") {
        showProgress(bar, st.done, st.total, t("table.building"));
        tablePoll = setTimeout(tick, 500);
        return;
      }
      bar.hidden = true;
      tablePoll = null;
      if (st.state === "ready" && settings.analysis) loadAnalysis();
    } catch (err) {
      tablePoll = null;
      bar.hidden = true;
    }
  };
  tablePoll = setTimeout(tick, 0);
}

// -- rendering ------------------------------------------------------------------------------
function render() {
  if (state) {
    const title = t(`game.${state.game}`);
    $("game-title").textContent = title;
    document.title = `BoardLab — ${title}`;
  }
  renderBoard();
  renderStatus();
  renderNotice();
  renderMoves();
  renderAnalysis();
  renderRecord();
  renderRunButtons();
  $("undo").disabled = !game.moves.length;
  $("redo").disabled = !game.redo.length;
}

function evalsMap() {
  if (!settings.analysis || !analysis || !analysis.available) return null;
  return new Map(analysis.moves.map((m) => [m.move, m]));
}

function renderBoard() {
  if (!state) return;
  if (!board || boardGame !== state.game) {
    const make = RENDERERS[state.game] || createGenericBoard;
    board = make($("board"), {
      onMove: humanMove,
      onIllegal: (m) => showMessage(m, "warn"),
      onSetup: setupStart,
      onPieBegin: () => {
        cancel();
        paused = true;
        renderStatus();
      },
      onPiePlace: piePlace,
      onPieChoose: pieChoose,
      onError: (err) => showMessage(errorText(err), "error"),
      canAct,
    });
    boardGame = state.game;
  }
  const who = currentSides()[state.to_move];
  board.update({
    state,
    lastMove: state.moves.length ? state.moves[state.moves.length - 1] : null,
    evals: evalsMap(),
    interactive: !state.result && !isComputer(who),
    pie: pieMode(),
  });
}

function renderStatus() {
  if (!state) return;
  const dot = $("turn-dot");
  const text = $("status-text");
  const r = state.result;
  $("pause").hidden = !settings.sides.some(isComputer) || !!r;
  $("pause").textContent = paused ? t("ctl.continue") : t("ctl.pause");
  if (r) {
    dot.className = `turn-dot ${r.winner === null ? "draw" : `c-${state.players[r.winner]}`}`;
    const reason = t(`reason.${r.reason}`);
    if (r.winner === null) text.textContent = t("status.draw", { reason });
    else {
      const who = sideLabel(r.winner);
      text.textContent = t("status.win", { colour: colourName(r.winner), who, reason });
    }
    return;
  }
  const p = state.to_move;
  dot.className = `turn-dot c-${state.players[p]}`;
  const who = sideLabel(p);
  let line = t("status.toMove", { colour: colourName(p), who });
  if (thinking) line = t("status.thinking", { colour: colourName(p), who });
  else if (paused && isComputer(currentSides()[p])) {
    line += ` · ${t("status.paused")}`;
    if (pieMode() === "computer") line += ` · ${t("status.pieOffer")}`;
  }
  text.textContent = line;
}

function renderNotice() {
  const box = $("notice");
  let f = forced;
  if (!f && settings.analysis && analysis && analysis.forced && !state.result) f = analysis.forced;
  if (!f || !state || state.result) {
    box.hidden = true;
    return;
  }
  const moves = Math.ceil(f.plies / 2);
  const args = { colour: colourName(f.winner), who: sideLabel(f.winner), moves, plies: f.plies };
  const key = f.computer ? "notice.computer" : f.winner === state.to_move ? "notice.forced" : "notice.forcedOther";
  box.textContent = t(key, args);
  box.className = `notice c-${state.players[f.winner]}`;
  box.hidden = false;
}

function renderMoves() {
  const list = $("movelist");
  list.replaceChildren();
  if (!state) return;
  const all = [...game.moves, ...[...game.redo].reverse()];
  const first = state.start.trim().split(/\s+/)[1];
  const offset = first && first.toUpperCase() !== state.players[0][0].toUpperCase() ? 1 : 0;
  let li = null;
  all.forEach((m, i) => {
    const k = i + offset;
    if (k % 2 === 0 || !li) {
      li = document.createElement("li");
      li.value = Math.floor(k / 2) + 1;
      if (k % 2 === 1) li.append(Object.assign(document.createElement("span"), { className: "gap", textContent: "…" }));
      list.appendChild(li);
    }
    const b = document.createElement("button");
    b.type = "button";
    b.className = "ply";
    if (i >= game.moves.length) b.classList.add("future");
    if (i === game.moves.length - 1) b.classList.add("current");
    b.textContent = m;
    b.addEventListener("click", () => jumpTo(i + 1));
    li.appendChild(b);
  });
  const cur = list.querySelector(".current");
  if (cur) cur.scrollIntoView({ block: "nearest" });
}

function renderAnalysis() {
  const box = $("analysis");
  box.hidden = !settings.analysis;
  $("analysis-toggle").checked = settings.analysis;
  if (!settings.analysis) return;
  const line = $("value-line");
  const list = $("move-values");
  list.replaceChildren();
  $("build-table").hidden = true;
  if (!analysis) {
    line.textContent = t("analysis.loading");
    $("chart").replaceChildren();
    return;
  }
  if (!analysis.available) {
    line.className = "value-line";
    if (analysis.table === "missing" && game.size > AUTO_BUILD_MAX) {
      line.textContent = t("analysis.buildBig");
      $("build-table").hidden = false;
    } else if (analysis.table === "missing" || analysis.table === "building") {
      line.textContent = t("table.building");
    } else {
      line.textContent = t("analysis.unavailable", { reason: analysis.reason || "" });
    }
    $("chart").replaceChildren();
    return;
  }
  const p = analysis.to_move;
  const v = analysis.value;
  line.className = `value-line v-${v}`;
  line.textContent = state.result
    ? t("analysis.over")
    : v === "draw"
      ? t("analysis.posDraw", { colour: colourName(p) })
      : t(`analysis.pos.${v}`, { colour: colourName(p), plies: analysis.remoteness });
  for (const m of analysis.moves) {
    const li = document.createElement("li");
    li.className = `v-${m.value}`;
    li.dataset.move = m.move;
    const name = document.createElement("span");
    name.className = "mv";
    name.textContent = m.move;
    const val = document.createElement("span");
    val.className = "val";
    val.textContent = m.value === "draw" ? t("value.draw") : `${t(`value.${m.value}`)} ${m.remoteness}`;
    li.append(name, val);
    li.title = t("analysis.play");
    li.tabIndex = 0;
    li.setAttribute("role", "button");
    li.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" || ev.key === " ") {
        ev.preventDefault();
        li.click();
      }
    });
    li.addEventListener("click", () => {
      const blocked = canAct();
      if (blocked) showMessage(blocked);
      else humanMove(m.move);
    });
    list.appendChild(li);
  }
  renderChart($("chart"), analysis.history, state.players, (ply) => jumpTo(ply));
}

function renderRecord() {
  const box = $("record");
  const key = seriesKey();
  const s = series.key === key ? series : { a: 0, b: 0, d: 0, n: 0 };
  box.replaceChildren();
  const cells = [
    [participantLabel(0), s.a, "a"],
    [t("record.draws"), s.d, "d"],
    [participantLabel(1), s.b, "b"],
  ];
  for (const [label, n, cls] of cells) {
    const c = document.createElement("div");
    c.className = `rec rec-${cls}`;
    c.innerHTML = `<span class="n"></span><span class="l"></span>`;
    c.querySelector(".n").textContent = n;
    c.querySelector(".l").textContent = label;
    box.appendChild(c);
  }
  const games = document.createElement("p");
  games.className = "rec-games";
  games.id = "record-games";
  games.textContent = t("record.games", { n: s.n });
  games.dataset.games = s.n;
  box.appendChild(games);
  const bar = $("run-progress");
  if (run) showProgress(bar, run.done, run.target, t("run.progress", { done: run.done, total: run.target }));
  else bar.hidden = true;
}

function renderRunButtons() {
  const watching = isWatch();
  $("watch100").hidden = !watching || !!run;
  $("speed-row").hidden = !watching;
  const activeWatch = watching && state && !state.result && !paused;
  $("stop").hidden = !(run || activeWatch);
  for (const b of $("s-speed").querySelectorAll("button")) {
    b.setAttribute("aria-pressed", String(Number(b.dataset.speed) === Number(settings.speed)));
  }
}

// -- setup form -----------------------------------------------------------------------------
function gameInfo(name) {
  return catalogue.games.find((g) => g.name === name) || catalogue.games[0];
}

function variantInfo(g, name) {
  return g.variants.find((v) => v.name === name) || g.variants.find((v) => v.name === g.default_variant);
}

function fillSetup() {
  const g = gameInfo(settings.game);
  settings.game = g.name;
  const v = variantInfo(g, settings.variant);
  settings.variant = v.name;
  const [lo, hi] = v.sizes;
  if (!(settings.size >= lo && settings.size <= hi)) settings.size = v.default_size;
  const levels = catalogue.levels;
  settings.sides = settings.sides.map((s) => (s === "human" || levels.includes(s) ? s : levels[levels.length - 1]));
  const opts = (sel, items) => {
    sel.replaceChildren(...items.map(([value, label]) => new Option(label, value)));
  };
  opts($("s-game"), catalogue.games.map((x) => [x.name, t(`game.${x.name}`, {}, x.title)]));
  $("s-game").value = g.name;
  opts($("s-variant"), g.variants.map((x) => [x.name, t(`variant.${x.name}`, {}, x.name)]));
  $("s-variant").value = v.name;
  const sizes = [];
  for (let n = lo; n <= hi; n++) sizes.push([String(n), `${n} × ${n}`]);
  opts($("s-size"), sizes);
  $("s-size").value = String(settings.size);
  const who = [["human", t("who.human")], ...levels.map((l) => [l, l === "random" ? t("who.random") : t("who.level", { n: l })])];
  for (const i of [0, 1]) {
    opts($(`s-side${i}`), who);
    $(`s-side${i}`).value = settings.sides[i];
    $(`s-side${i}-label`).textContent = t(`colour.${v.players[i]}`);
  }
  $("s-alternate").checked = settings.alternate;
  renderRunButtons();
}

function readSetup() {
  settings.game = $("s-game").value;
  settings.variant = $("s-variant").value;
  settings.size = Number($("s-size").value);
  settings.sides = [$("s-side0").value, $("s-side1").value];
  settings.alternate = $("s-alternate").checked;
  saveSettings();
}

function applySettingsToGame() {
  game.game = settings.game;
  game.variant = settings.variant;
  game.size = settings.size;
}

function start() {
  readSetup();
  cancel();
  run = null;
  if (series.key !== seriesKey()) {
    series = { key: seriesKey(), a: 0, b: 0, d: 0, n: 0 };
    gameNo = 0;
  } else gameNo += 1;
  swapped = settings.alternate && gameNo % 2 === 1;
  applySettingsToGame();
  renderRunButtons();
  startFresh();
}

function watch100() {
  readSetup();
  if (!isWatch()) return;
  cancel();
  series = { key: seriesKey(), a: 0, b: 0, d: 0, n: 0 };
  gameNo = 0;
  swapped = false;
  run = { target: 100, done: 0 };
  applySettingsToGame();
  startFresh();
}

function stop() {
  cancel();
  run = null;
  paused = true;
  render();
}

// -- records and links ----------------------------------------------------------------------
function openRecordDialog(mode, text = "") {
  $("record-dialog-title").textContent = t(mode === "export" ? "dialog.export" : "dialog.import");
  $("record-text").value = text;
  $("record-text").readOnly = mode === "export";
  $("record-copy").hidden = mode !== "export";
  $("record-download").hidden = mode !== "export";
  $("record-load").hidden = mode === "export";
  $("record-file").hidden = mode === "export";
  $("record-error").hidden = true;
  $("record-dialog").showModal();
}

async function exportRecord() {
  try {
    const players = {};
    currentSides().forEach((who, i) => {
      players[state.players[i]] = isComputer(who) ? (who === "random" ? "random" : `level ${who}`) : "human";
    });
    const rec = await api.exportRecord(game, players);
    openRecordDialog("export", rec.text);
  } catch (err) {
    showMessage(errorText(err), "error");
  }
}

function loadGame(rec, pause) {
  cancel();
  settings.game = rec.game;
  settings.variant = rec.variant;
  settings.size = rec.size;
  saveSettings();
  fillSetup();
  applySettingsToGame();
  game.start = rec.start || null;
  game.moves = [...rec.moves];
  game.redo = [];
  recorded = false;
  forced = null;
  paused = pause;
  analysis = null;
  refresh();
}

async function importRecord() {
  try {
    const rec = await api.importRecord($("record-text").value);
    $("record-dialog").close();
    loadGame(rec, true);
    toast(t("toast.imported", { n: rec.moves.length }));
  } catch (err) {
    const box = $("record-error");
    box.textContent = err.message;
    box.hidden = false;
  }
}

function linkFor() {
  const parts = [`game=${game.game}`, `variant=${game.variant}`, `size=${game.size}`];
  if (game.start) parts.push(`start=${encodeURIComponent(game.start)}`);
  if (game.moves.length) parts.push(`moves=${game.moves.map(encodeURIComponent).join(",")}`);
  return `${location.origin}${location.pathname}#${parts.join("&")}`;
}

function updateHash() {
  if (!state || state.game !== game.game) return;
  history.replaceState(null, "", linkFor());
}

async function copyLink() {
  const url = linkFor();
  try {
    await navigator.clipboard.writeText(url);
    toast(t("toast.linkCopied"));
  } catch {
    window.prompt(t("toast.copyThis"), url);
  }
}

function fromHash() {
  const h = location.hash.replace(/^#/, "");
  if (!h) return null;
  if (h === "help") return "help";
  const q = new URLSearchParams(h);
  if (!q.get("game")) return null;
  const moves = (q.get("moves") || "").split(",").filter(Boolean);
  return {
    game: q.get("game"), variant: q.get("variant"), size: Number(q.get("size")) || null,
    start: q.get("start"), moves,
  };
}

// -- help -----------------------------------------------------------------------------------
function openHelp() {
  $("help-body").innerHTML = helpHtml(getLang());
  $("help-dialog").showModal();
}

// -- wiring ---------------------------------------------------------------------------------
function wire() {
  $("setup").addEventListener("submit", (ev) => {
    ev.preventDefault();
    start();
  });
  $("s-game").addEventListener("change", () => {
    settings.game = $("s-game").value;
    settings.variant = null;
    fillSetup();
  });
  $("s-variant").addEventListener("change", () => {
    settings.variant = $("s-variant").value;
    settings.size = variantInfo(gameInfo(settings.game), settings.variant).default_size;
    fillSetup();
  });
  for (const id of ["s-side0", "s-side1", "s-alternate", "s-size"]) {
    $(id).addEventListener("change", () => {
      readSetup();
      renderRunButtons();
    });
  }
  for (const b of $("s-speed").querySelectorAll("button")) {
    b.addEventListener("click", () => {
      settings.speed = Number(b.dataset.speed);
      saveSettings();
      renderRunButtons();
      if (state && !state.result && !paused && isWatch() && !thinking) {
        cancel();
        afterState(gen);
      }
    });
  }
  $("watch100").addEventListener("click", watch100);
  $("stop").addEventListener("click", stop);
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("restart").addEventListener("click", () => {
    cancel();
    startFresh();
  });
  $("new-game").addEventListener("click", () => {
    if (!catalogue) return;
    if (series.key !== seriesKey()) start();
    else nextGame();
  });
  $("swap").addEventListener("click", () => {
    cancel();
    swapped = !swapped;
    paused = false;
    render();
    if (state) afterState(gen);
  });
  $("pause").addEventListener("click", () => {
    if (paused) {
      paused = false;
      render();
      afterState(gen);
    } else {
      cancel();
      paused = true;
      render();
    }
  });
  $("analysis-toggle").addEventListener("change", () => {
    settings.analysis = $("analysis-toggle").checked;
    saveSettings();
    renderAnalysis();
    renderBoard();
    renderNotice();
    if (settings.analysis) loadAnalysis();
  });
  $("build-table").addEventListener("click", () => {
    $("build-table").hidden = true;
    $("value-line").textContent = t("table.building");
    pollTable();
  });
  $("export").addEventListener("click", exportRecord);
  $("import").addEventListener("click", () => openRecordDialog("import"));
  $("record-load").addEventListener("click", importRecord);
  $("record-copy").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText($("record-text").value);
      toast(t("toast.copied"));
    } catch {
      $("record-text").select();
    }
  });
  $("record-download").addEventListener("click", () => {
    const blob = new Blob([$("record-text").value], { type: "text/plain" });
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = `${game.game}-${game.size}x${game.size}.txt`;
    a.click();
    URL.revokeObjectURL(a.href);
  });
  $("record-file").addEventListener("change", async () => {
    const f = $("record-file").files[0];
    if (f) $("record-text").value = await f.text();
  });
  $("copy-link").addEventListener("click", copyLink);
  $("help-open").addEventListener("click", openHelp);
  for (const b of document.querySelectorAll("[data-lang]")) {
    b.addEventListener("click", () => setLang(b.dataset.lang));
  }
  onLangChange(() => {
    if (catalogue) fillSetup();
    render();
    if (pieNote && !$("message").hidden && $("message").classList.contains("info")) {
      $("message").textContent = pieText();
    }
    if (board) board.redraw();
    if ($("help-dialog").open) $("help-body").innerHTML = helpHtml(getLang());
  });
  window.addEventListener("keydown", (ev) => {
    if (ev.target.closest("input,textarea,select,dialog")) return;
    if ((ev.ctrlKey || ev.metaKey) && ev.key === "z") {
      ev.preventDefault();
      undo();
    } else if ((ev.ctrlKey || ev.metaKey) && ev.key === "y") {
      ev.preventDefault();
      redo();
    }
  });
}

async function main() {
  applyI18n();
  wire();
  try {
    catalogue = await api.games();
  } catch (err) {
    showMessage(errorText(err), "error");
    return;
  }
  const link = fromHash();
  if (link && link !== "help") {
    settings.game = link.game;
    settings.variant = link.variant;
    if (link.size) settings.size = link.size;
  }
  fillSetup();
  applySettingsToGame();
  series = { key: seriesKey(), a: 0, b: 0, d: 0, n: 0 };
  if (link && link !== "help") {
    game.start = link.start || null;
    game.moves = link.moves;
    paused = true;
    try {
      setState(await api.state(game));
      afterState(gen);
    } catch (err) {
      showMessage(t("error.link", { msg: err.message }), "error");
      game.start = null;
      game.moves = [];
      startFresh();
    }
  } else {
    startFresh();
    if (link === "help") openHelp();
  }
  document.body.dataset.ready = "1";
}

main();
