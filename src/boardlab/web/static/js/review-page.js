// @ts-check
// The Review page: the game from the link (as the main page writes it) or from a pasted
// record, every move marked by the server from the complete table, and for the move clicked
// the position before it, the best move and the better line. Where no table covers the board
// (Dot Dash, large Dodgem boards) the level-4 search estimates each position briefly instead,
// one at a time with the progress shown, and the moves are marked by the estimate.

import "./learn-texts.js";
import { ApiError, api, request } from "./api.js";
import { boardMaker, loadRenderers } from "./boards/registry.js";
import { Pace, formatDuration } from "./buildtime.js";
import { depthRange, estimateSummary, estimatedMoves, estimatedSideText, estimatedSides, sharePoints } from "./estreview.js";
import "./theme.js";
import { applyI18n, onLangChange, setLang, t } from "./i18n.js";
import { decodeLink, encodeLink } from "./links.js";
import { renderChart, renderShareChart } from "./chart.js";
import { markClass, markKey, rows, sideSummaries, sideText, stepPly, summaryText } from "./review.js";
import { createStore } from "./store.js";

/** @param {string} id @returns {HTMLElement} */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/**
 * @typedef {import("./review.js").ReviewMove} ReviewMove
 * @typedef {import("./estreview.js").EstimatedMove} EstimatedMove
 * @typedef {import("./estreview.js").PositionEstimate} PositionEstimate
 * @typedef {import("./links.js").GameSpec} GameSpec
 * @typedef {{seen: (PositionEstimate | null)[], total: number, done: number, running: boolean,
 *   stopped: boolean, error: string | null, end: {winner: number | null} | null,
 *   firstMover: number, players: string[], left: number | null}} EstimateRun
 *   the review by the search: estimates of positions 0..moves (null: not yet), how many of
 *   the `total` to estimate are done, and the seconds left at the pace so far
 * @typedef {{game: GameSpec | null, review: {moves: (ReviewMove | EstimatedMove)[]} | null, est: EstimateRun | null, ply: number | null, view: any, error: string | null, busy: boolean, history: any[] | null}} PageState
 */

/** @type {import("./store.js").Store<PageState>} */
const store = createStore(/** @type {PageState} */ ({ game: null, review: null, est: null, ply: null, view: null, error: null, busy: false, history: null }));
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
  else if (s.est) summary.textContent = s.est.done ? estimateSummary(/** @type {EstimatedMove[]} */ (s.review?.moves || []), t) : t("rv.loading");
  else if (s.review) summary.textContent = summaryText(/** @type {ReviewMove[]} */ (s.review.moves), t);
  else summary.textContent = t("rv.noGame");
  const msg = $("rv-message");
  msg.hidden = !s.error;
  msg.className = "message error";
  msg.textContent = s.error ? t("rv.error", { msg: s.error }) : "";
  renderMoves();
  renderSides();
  renderDetail();
  renderBoard();
  renderProgress();
}

const pace = new Pace();

/** The review by the search: what it is, how far it is, the time left, and Stop. */
function renderProgress() {
  const est = S().est;
  const note = $("rv-est-note");
  const box = $("rv-progress");
  note.hidden = !est;
  box.hidden = !est || (!est.running && !est.stopped && !est.error);
  if (!est) return;
  const depths = depthRange(est.seen);
  const depth = !depths ? "…" : depths[0] === depths[1] ? t("rv.estDepth", { d: depths[0] }) : t("rv.estDepths", { lo: depths[0], hi: depths[1] });
  note.textContent = t("rv.estBy", { depth });
  /** @type {HTMLElement} */ (box.querySelector(".bar")).style.width = `${((est.done / Math.max(1, est.total)) * 100).toFixed(1)}%`;
  let label;
  if (est.error) label = t("rv.estFailed", { done: est.done + 1, msg: est.error });
  else if (est.stopped) label = t("rv.estStopped", { done: est.done, total: est.total });
  else {
    label = t("rv.estProgress", { done: Math.min(est.done + 1, est.total), total: est.total });
    if (est.left !== null) label += ` · ${t("time.left", { time: formatDuration(est.left) })}`;
  }
  /** @type {HTMLElement} */ (box.querySelector(".label")).textContent = label;
  $("rv-stop").hidden = !est.running;
}

/** Each side's moves by what they did to the value. */
function renderSides() {
  const s = S();
  const list = $("rv-sides");
  const texts = !s.review
    ? []
    : s.est
      ? estimatedSides(/** @type {EstimatedMove[]} */ (s.review.moves)).map((x) => estimatedSideText(x, t))
      : sideSummaries(/** @type {ReviewMove[]} */ (s.review.moves)).map((x) => sideText(x, t));
  list.replaceChildren(
    ...texts.map((text) => {
      const li = document.createElement("li");
      li.textContent = text;
      return li;
    }),
  );
}

/** The value chart of the whole game; a point picks the move played from that position. */
function renderValueChart() {
  const s = S();
  const card = $("rv-chart-card");
  if (s.est && s.review) {
    // the search's estimates: the first colour's share of each position
    card.hidden = !s.view;
    if (!s.view) return;
    $("rv-chart-title").textContent = t("rv.estChart");
    const total = s.review.moves.length;
    const points = sharePoints(s.est.seen, total + 1, s.est.end);
    const label = t("rv.estChartLabel", { colour: t(`colour.${s.est.players[0]}`) });
    renderShareChart($("rv-chart"), points, s.est.players, label, { onPick: (ply) => pick(Math.min(total, ply + 1)) });
    return;
  }
  $("rv-chart-title").textContent = t("rv.chart");
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
        b.className = `rv-move ${markClass(m.mark)}${s.est ? " est" : ""}`.trim();
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
  if (s.est) {
    const e = /** @type {EstimatedMove} */ (m);
    const mark = key ? t(key) : e.mark === "pending" ? t("rv.estPending") : t("rv.estKept");
    $("rv-played").textContent = t("rv.played", { move: e.label, mark });
    $("rv-best").textContent = e.best ? t("rv.estBest", { move: e.best, depth: e.depth ?? 0 }) : "";
    $("rv-line").textContent = e.better_line.length ? t("rv.estLine", { line: e.better_line.join(" ") }) : "";
    /** @type {HTMLElement} */ ($("rv-play")).hidden = !e.better_line.length;
    return;
  }
  /** @type {HTMLElement} */ ($("rv-play")).hidden = false;
  $("rv-played").textContent = t("rv.played", { move: m.label, mark: key ? t(key) : t("rv.kept") });
  $("rv-best").textContent = t("rv.best", { move: m.best });
  $("rv-line").textContent = t("rv.line", { line: m.better_line.join(" ") });
}

function renderBoard() {
  const s = S();
  if (!s.view) return;
  if (!board || boardGame !== s.view.game) {
    const make = boardMaker(s.view.game);
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

/** the review by the search under way (a newer one, or Stop, ends it) */
let estRun = 0;
/** @type {AbortController | null} */
let estAbort = null;

/** The moves of `game` marked by the estimates so far. @param {GameSpec} game @param {EstimateRun} est */
const estimated = (game, est) => estimatedMoves({ moves: game.moves, players: est.players, firstMover: est.firstMover, seen: est.seen, end: est.end });

/**
 * Review `game` by the search: a quick estimate of each position in turn (the last one only
 * if the game goes on), the marks and the chart filled in as they come. False when the game
 * itself cannot be replayed (the table review's error then stands).
 * @param {GameSpec} game
 */
async function reviewBySearch(game) {
  let view;
  let start;
  try {
    [view, start] = await Promise.all([api.state(game), api.state(gameAt(game, 0))]);
  } catch {
    return false;
  }
  const run = ++estRun;
  const ctl = new AbortController();
  estAbort = ctl;
  pace.reset();
  const n = game.moves.length;
  /** @type {EstimateRun} */
  const est = { seen: Array(n + 1).fill(null), total: view.result ? n : n + 1, done: 0, running: true, stopped: false, error: null, end: view.result ?? null, firstMover: start.to_move, players: view.players, left: null };
  history.replaceState(null, "", `#${encodeLink(game)}`); // the link names the game shown
  store.set({ view, est, busy: false, review: { moves: estimated(game, est) } });
  renderValueChart();
  for (let i = 0; i < est.total; i++) {
    let e;
    try {
      e = await api.quickEstimate(gameAt(game, i), ctl.signal);
    } catch (err) {
      if (run !== estRun) return true;
      const cur = /** @type {EstimateRun} */ (S().est);
      const stopped = ctl.signal.aborted;
      store.set({ est: { ...cur, running: false, stopped, error: stopped ? null : /** @type {Error} */ (err).message } });
      return true;
    }
    if (run !== estRun) return true;
    const cur = /** @type {EstimateRun} */ (S().est);
    const seen = cur.seen.slice();
    seen[i] = { to_move: e.to_move, share: e.share, depth: e.depth, line: e.line, proven: e.proven };
    const done = i + 1;
    const next = { ...cur, seen, done, running: done < cur.total, left: pace.left("estimate", done / cur.total, Date.now()) };
    store.set({ est: next, review: { moves: estimated(game, next) } });
    renderValueChart();
  }
  const first = S().review?.moves.find((m) => m.mistake);
  if (first && S().ply === null) await pick(first.ply);
  return true;
}

/** Whether a complete, built table covers the game's rules (then the server reviews it).
 * @param {GameSpec} game */
async function tableCovers(game) {
  try {
    const { rulesets } = await request("GET", "/api/puzzles/rulesets");
    return (rulesets || []).some((/** @type {any} */ r) => r.game === game.game && (!game.variant || r.variant === game.variant) && (r.ready || []).includes(game.size));
  } catch {
    return true;
  }
}

/** Review a game. @param {GameSpec} game */
async function reviewGame(game) {
  estRun++;
  estAbort?.abort();
  store.set({ game, review: null, est: null, ply: null, error: null, busy: true, history: null });
  try {
    if (!(await tableCovers(game)) && (await reviewBySearch(game))) return;
    let data;
    try {
      data = await request("POST", "/api/review", { game: game.game, variant: game.variant, size: game.size, start: game.start || undefined, moves: game.moves });
    } catch (err) {
      // no complete table for this board (400) or none built (404): the search reviews it
      const noTable = err instanceof ApiError && (err.status === 400 || err.status === 404);
      if (noTable && (await reviewBySearch(game))) return;
      throw err;
    }
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
  $("rv-stop").addEventListener("click", () => estAbort?.abort());
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
  try {
    await loadRenderers(await api.games()); // each game's board, by the renderer it declares
  } catch {
    // without the catalogue every board is drawn by the generic renderer
  }
  render();
  const link = decodeLink(location.hash);
  if (link && link !== "help") {
    $("back").setAttribute("href", `/#${encodeLink(link)}`);
    await reviewGame(link);
  }
  document.body.dataset.ready = "1";
}

main();
