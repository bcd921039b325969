// @ts-check
// The Review page: the game from the link (as the main page writes it) or from a pasted
// record, every move marked by the server from the complete table, and for the move clicked
// the position before it, the best move and the better line.

import "./learn-texts.js";
import { api } from "./api.js";
import { createDodgemBoard } from "./boards/dodgem.js";
import { createGenericBoard } from "./boards/generic.js";
import "./theme.js";
import { applyI18n, onLangChange, setLang, t } from "./i18n.js";
import { decodeLink, encodeLink } from "./links.js";
import { renderChart } from "./chart.js";
import { markClass, markKey, rows, sideSummaries, sideText, stepPly, summaryText } from "./review.js";
import { createStore } from "./store.js";

/** @param {string} id @returns {HTMLElement} */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** @type {Record<string, Function>} */
const RENDERERS = { dodgem: createDodgemBoard };

/**
 * @typedef {import("./review.js").ReviewMove} ReviewMove
 * @typedef {import("./links.js").GameSpec} GameSpec
 * @typedef {{game: GameSpec | null, review: {moves: ReviewMove[]} | null, ply: number | null, view: any, error: string | null, busy: boolean, history: any[] | null}} PageState
 */

/** @type {import("./store.js").Store<PageState>} */
const store = createStore(/** @type {PageState} */ ({ game: null, review: null, ply: null, view: null, error: null, busy: false, history: null }));
const S = () => store.get();
/** @type {any} */
let board = null;
let boardGame = "";

/** @param {GameSpec} g @param {number} ply */
const gameAt = (g, ply) => ({ ...g, moves: g.moves.slice(0, ply) });

function render() {
  const s = S();
  const summary = $("rv-summary");
  if (s.busy) summary.textContent = t("rv.loading");
  else if (s.review) summary.textContent = summaryText(s.review.moves, t);
  else summary.textContent = t("rv.noGame");
  const msg = $("rv-message");
  msg.hidden = !s.error;
  msg.className = "message error";
  msg.textContent = s.error ? t("rv.error", { msg: s.error }) : "";
  renderMoves();
  renderSides();
  renderDetail();
  renderBoard();
}

/** Each side's moves by what they did to the value. */
function renderSides() {
  const s = S();
  const list = $("rv-sides");
  list.replaceChildren(
    ...(s.review ? sideSummaries(s.review.moves) : []).map((x) => {
      const li = document.createElement("li");
      li.textContent = sideText(x, t);
      return li;
    }),
  );
}

/** The value chart of the whole game; a point picks the move played from that position. */
function renderValueChart() {
  const s = S();
  const card = $("rv-chart-card");
  card.hidden = !s.history || !s.view;
  if (!s.history || !s.review) return;
  const total = s.review.moves.length;
  renderChart($("rv-chart"), s.history, s.view.players, { onPick: (ply) => pick(Math.min(total, ply + 1)) });
}

function renderMoves() {
  const s = S();
  const list = $("rv-moves");
  if (!s.review) {
    list.replaceChildren();
    return;
  }
  list.replaceChildren(
    ...rows(s.review.moves).map((pair) => {
      const li = document.createElement("li");
      li.className = "rv-row";
      const num = document.createElement("span");
      num.className = "rv-num";
      num.textContent = `${(pair[0] || pair[1])?.number}.`;
      li.append(num);
      for (const m of pair) {
        if (!m) {
          li.append(document.createElement("span"));
          continue;
        }
        const b = document.createElement("button");
        b.type = "button";
        b.className = `rv-move ${markClass(m.mark)}`.trim();
        b.dataset.ply = String(m.ply);
        b.dataset.mark = m.mark;
        b.setAttribute("aria-current", String(s.ply === m.ply));
        b.textContent = m.move;
        const key = markKey(m.mark);
        if (key) {
          const small = document.createElement("small");
          small.textContent = t(key);
          b.append(small);
        }
        b.addEventListener("click", () => pick(m.ply));
        li.append(b);
      }
      return li;
    }),
  );
}

function renderDetail() {
  const s = S();
  const box = $("rv-detail");
  const m = s.review && s.ply !== null ? s.review.moves.find((x) => x.ply === s.ply) : null;
  box.hidden = !m;
  if (!m) return;
  const key = markKey(m.mark);
  $("rv-played").textContent = t("rv.played", { move: m.label, mark: key ? t(key) : t("rv.kept") });
  $("rv-best").textContent = t("rv.best", { move: m.best });
  $("rv-line").textContent = t("rv.line", { line: m.better_line.join(" ") });
}

function renderBoard() {
  const s = S();
  if (!s.view) return;
  if (!board || boardGame !== s.view.game) {
    const make = RENDERERS[s.view.game] || createGenericBoard;
    board = make($("board"), { onMove: () => {}, onIllegal: () => {}, canAct: () => null });
    boardGame = s.view.game;
  }
  const ply = s.view.moves.length;
  board.update({ state: s.view, lastMove: ply ? s.view.moves[ply - 1] : null, lastMover: (s.view.to_move + 1) % 2, evals: null, interactive: false });
}

/** Show the position before move `ply`. @param {number} ply */
async function pick(ply) {
  const g = S().game;
  if (!g) return;
  lineRun++;
  $("rv-detail").dataset.step = "0";
  store.set({ ply });
  const view = await api.state(gameAt(g, ply - 1));
  store.set({ view });
}

const LINE_STEP_MS = 600;
let lineRun = 0;

/** Play the better line of the chosen move on the board, a move at a time. */
async function playLine() {
  const s = S();
  const g = s.game;
  const m = s.review && s.ply !== null ? s.review.moves.find((x) => x.ply === s.ply) : null;
  if (!g || !m) return;
  const run = ++lineRun;
  const before = g.moves.slice(0, m.ply - 1);
  for (let i = 1; i <= m.better_line.length; i++) {
    const view = await api.state({ ...g, moves: [...before, ...m.better_line.slice(0, i)] });
    if (run !== lineRun) return;
    store.set({ view });
    $("rv-detail").dataset.step = String(i);
    if (i < m.better_line.length) await new Promise((r) => setTimeout(r, LINE_STEP_MS));
  }
}

/** Review a game. @param {GameSpec} game */
async function reviewGame(game) {
  store.set({ game, review: null, ply: null, error: null, busy: true, history: null });
  try {
    const res = await fetch("/api/review", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ game: game.game, variant: game.variant, size: game.size, start: game.start || undefined, moves: game.moves }),
    });
    const data = await res.json();
    if (!res.ok) throw new Error(data.error || `HTTP ${res.status}`);
    const view = await api.state(game);
    history.replaceState(null, "", `#${encodeLink(game)}`); // the link names the game shown
    store.set({ review: data, view, busy: false });
    // the value of every position, for the chart (the same table as the review)
    api
      .analysis(game)
      .then((a) => {
        if (a.available && S().game === game) {
          store.set({ history: a.history });
          renderValueChart();
        }
      })
      .catch(() => {}); // the review stands without its chart
    const first = data.moves.find((/** @type {ReviewMove} */ m) => m.mistake);
    if (first) await pick(first.ply);
  } catch (err) {
    store.set({ error: /** @type {Error} */ (err).message, busy: false });
  }
}

async function loadRecord() {
  const text = /** @type {HTMLTextAreaElement} */ ($("rv-text")).value;
  try {
    const rec = await api.importRecord(text);
    await reviewGame({ game: rec.game, variant: rec.variant, size: rec.size, start: rec.start, moves: rec.moves });
  } catch (err) {
    store.set({ error: /** @type {Error} */ (err).message });
  }
}

async function main() {
  applyI18n();
  for (const b of document.querySelectorAll("[data-lang]")) {
    b.addEventListener("click", () => setLang(/** @type {HTMLElement} */ (b).dataset.lang || "en"));
  }
  onLangChange(() => {
    render();
    renderValueChart();
  });
  store.subscribe(render);
  $("rv-load").addEventListener("click", loadRecord);
  $("rv-play").addEventListener("click", playLine);
  $("rv-back").addEventListener("click", () => {
    const ply = S().ply;
    if (ply !== null) pick(ply);
  });
  // ← and → step through the moves
  window.addEventListener("keydown", (ev) => {
    if (ev.key !== "ArrowLeft" && ev.key !== "ArrowRight") return;
    if (/** @type {HTMLElement} */ (ev.target).closest("input,textarea,select,dialog")) return;
    const s = S();
    if (!s.review) return;
    const next = stepPly(s.ply, ev.key === "ArrowLeft" ? -1 : 1, s.review.moves.length);
    if (next !== null && next !== s.ply) {
      ev.preventDefault();
      pick(next);
    }
  });
  render();
  const link = decodeLink(location.hash);
  if (link && link !== "help") {
    $("back").setAttribute("href", `/#${encodeLink(link)}`);
    await reviewGame(link);
  }
  document.body.dataset.ready = "1";
}

main();
