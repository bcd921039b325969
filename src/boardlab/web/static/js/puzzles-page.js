// @ts-check
// The Puzzles page: a board with one puzzle at a time. The user finds the move; on the right
// one the computer answers with the best defence from the solution line, on a wrong one it
// answers with its best move (level 4, from the table) and the page offers the solution and
// a retry. Rating, streak and saved puzzles live in this browser (puzzles.js).

import "./learn-texts.js";
import { api, request } from "./api.js";
import { boardMaker, loadRenderers } from "./boards/registry.js";
import "./theme.js";
import { applyI18n, onLangChange, setLang, t } from "./i18n.js";
import { judge, loadProgress, loadSaved, nextPuzzle, recordTry, saveProgress, taskKey } from "./puzzles.js";
import { createStore } from "./store.js";

/** @param {string} id @returns {HTMLElement} */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const BATCH = 12;
const REPLY_MS = 450;

/**
 * @typedef {import("./puzzles.js").Puzzle} Puzzle
 * @typedef {{game: string, variant: string, players: string[], sizes: number[], ready: number[]}} Ruleset
 * @typedef {object} PageState
 * @property {Ruleset[]} rulesets
 * @property {Puzzle[]} batch
 * @property {number} seed
 * @property {Puzzle | null} puzzle
 * @property {string[]} moves moves played from the puzzle's position
 * @property {"try" | "solved" | "failed" | "shown" | "busy"} phase
 * @property {boolean} retry whether this is a retry (rating unchanged)
 * @property {any} view the server's state of the board
 * @property {{key: string, vars?: Record<string, string | number>, kind: string} | null} note
 * @property {import("./puzzles.js").Progress} progress
 */

/** @type {import("./store.js").Store<PageState>} */
const store = createStore(/** @type {PageState} */ ({
  rulesets: [],
  batch: [],
  seed: Math.floor(Math.random() * 2 ** 30),
  puzzle: null,
  moves: [],
  phase: "busy",
  retry: false,
  view: null,
  note: null,
  progress: loadProgress(localStorage),
}));
const S = () => store.get();

/** @type {any} */
let board = null;
let boardGame = "";

/** @param {Puzzle} p */
const gameOf = (p) => ({ game: p.game, variant: p.variant, size: p.size, start: p.position, moves: S().moves });

/** The words for what a wrong move leads to. @param {string | null} outcome */
function outcomeText(outcome) {
  if (!outcome) return "";
  if (outcome.startsWith("win")) return t("pz.outcome.win");
  return t(`pz.outcome.${outcome}`);
}

// -- drawing ----------------------------------------------------------------------------------
function render() {
  const s = S();
  const p = s.puzzle;
  const colour = p ? t(`colour.${p.to_move}`) : "";
  $("pz-task").textContent = p ? `${t("pz.toMove", { colour })} — ${t(taskKey(p))}` : t("pz.loading");
  $("pz-dot").className = p ? `turn-dot c-${p.to_move}` : "turn-dot";
  $("pz-meta").textContent = p ? `${t("pz.puzzleRating", { r: p.rating })} · ${p.position}` : "";
  $("pz-meta").dataset.position = p ? p.position : "";
  const msg = $("pz-message");
  if (s.note) {
    msg.hidden = false;
    msg.className = `message ${s.note.kind}`;
    const vars = { ...(s.note.vars || {}) };
    if (typeof vars.outcome === "string") vars.outcome = outcomeText(vars.outcome);
    msg.textContent = t(s.note.key, vars) + (s.retry && s.phase === "solved" ? ` ${t("pz.retryNote")}` : "");
  } else msg.hidden = true;
  $("pz-retry").hidden = !(s.phase === "failed" || s.phase === "shown");
  $("pz-show").hidden = s.phase !== "failed";
  $("pz-rating").textContent = String(s.progress.rating);
  $("pz-streak").textContent = String(s.progress.streak);
  $("pz-best").textContent = String(s.progress.best);
  $("pz-count").textContent = t("pz.solvedCount", { solved: s.progress.solved, failed: s.progress.failed });
  renderBoard();
  renderSaved();
}

function renderBoard() {
  const s = S();
  if (!s.view) return;
  if (!board || boardGame !== s.view.game) {
    const make = boardMaker(s.view.game);
    board = make($("board"), { onMove: humanMove, onIllegal: (/** @type {string | null} */ m) => note(m), canAct: () => null });
    boardGame = s.view.game;
  }
  const ply = s.view.moves.length;
  board.update({
    state: s.view,
    lastMove: ply ? s.view.moves[ply - 1] : null,
    lastMover: (s.view.to_move + 1) % 2,
    evals: null,
    interactive: s.phase === "try" && !s.view.result,
  });
  $("board").dataset.ply = String(ply);
}

function renderSaved() {
  const list = $("pz-saved");
  const saved = loadSaved(localStorage);
  $("pz-saved-none").hidden = saved.length > 0;
  list.replaceChildren(
    ...saved.map((p) => {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.type = "button";
      b.className = "small";
      b.textContent = `${p.size}×${p.size} ${t(`variant.${p.variant}`, {}, p.variant)} · ${t(taskKey(p))} · ${p.position}`;
      b.addEventListener("click", () => open(p, false));
      li.append(b);
      return li;
    }),
  );
}

/** A one-off message under the board (illegal-move explanations). @param {string | null} text */
function note(text) {
  const msg = $("pz-message");
  if (!text) return;
  msg.hidden = false;
  msg.className = "message warn";
  msg.textContent = text;
}

// -- the puzzle -------------------------------------------------------------------------------
/** Show the board after the moves played so far. */
let viewRequest = 0;
async function showMoves() {
  const p = /** @type {Puzzle} */ (S().puzzle);
  const asked = ++viewRequest;
  const view = await api.state(gameOf(p));
  // a later request (a retry right after "show the solution") answers for the board now
  if (asked !== viewRequest) return;
  store.set({ view });
}

/** @param {Puzzle} p @param {boolean} retry */
async function open(p, retry) {
  store.set({ puzzle: p, moves: [], phase: "try", retry, note: null });
  await showMoves();
}

/** @param {string} move */
async function humanMove(move) {
  const s = S();
  const p = s.puzzle;
  if (!p || s.phase !== "try") return;
  const verdict = judge(p, move);
  store.set({ moves: [move], phase: "busy" });
  if (!s.retry) {
    const progress = recordTry(s.progress, p, verdict.correct);
    saveProgress(localStorage, progress);
    store.set({ progress });
  }
  await showMoves();
  await new Promise((r) => setTimeout(r, REPLY_MS));
  if (verdict.correct) {
    const reply = p.line[1];
    if (reply && !S().view.result) {
      store.set({ moves: [move, reply] });
      await showMoves();
      store.set({ phase: "solved", note: { key: "pz.correct", vars: { reply }, kind: "good" } });
    } else store.set({ phase: "solved", note: { key: "pz.correctEnd", kind: "good" } });
    return;
  }
  let answer = "";
  if (!S().view.result) {
    const res = await api.move(gameOf(p), "4", 1, false);
    answer = res.move;
    store.set({ moves: [move, answer], view: res.state });
  }
  store.set({
    phase: "failed",
    note: { key: answer ? "pz.wrongAnswer" : "pz.wrong", vars: { move, outcome: verdict.outcome || "loss", reply: answer }, kind: "warn" },
  });
}

function showSolution() {
  const p = S().puzzle;
  if (!p) return;
  store.set({ moves: p.line.slice(0, 2), phase: "shown", note: { key: "pz.solution", vars: { move: p.solution, line: p.line.join(" ") }, kind: "info" } });
  showMoves();
}

function retry() {
  const p = S().puzzle;
  if (p) open(p, true);
}

/** The rules chosen in the form. */
function chosen() {
  const r = S().rulesets.find((x) => `${x.game}/${x.variant}` === /** @type {HTMLSelectElement} */ ($("pz-variant")).value);
  const size = Number(/** @type {HTMLSelectElement} */ ($("pz-size")).value);
  const kind = /** @type {HTMLSelectElement} */ ($("pz-kind")).value;
  return { r, size, kind };
}

/** The next puzzle of the chosen rules: from the batch, or a new batch from the next seed. */
async function next() {
  const { r, size, kind } = chosen();
  if (!r) return;
  let s = S();
  let p = nextPuzzle(s.batch.filter((x) => x.variant === r.variant && x.size === size && (!kind || x.kind === kind)), s.progress);
  store.set({ phase: "busy", note: { key: "pz.loading", kind: "info" } });
  render();
  try {
    for (let tries = 0; !p && tries < 4; tries++) {
      const seed = S().seed + 1;
      const q = new URLSearchParams({ game: r.game, variant: r.variant, size: String(size), count: String(BATCH), seed: String(seed) });
      if (kind) q.append("kind", kind);
      const data = await request("GET", `/api/puzzles?${q}`);
      if (!data.puzzles.length) throw new Error(t("pz.none"));
      store.set({ seed, batch: data.puzzles });
      s = S();
      p = nextPuzzle(s.batch, s.progress) || (tries === 3 ? s.batch[0] || null : null);
    }
    if (!p) throw new Error(t("pz.none"));
    await open(p, false);
  } catch (err) {
    store.set({ phase: "busy", note: { key: "pz.error", vars: { msg: /** @type {Error} */ (err).message }, kind: "error" } });
  }
}

function fillForm() {
  const s = S();
  const vSel = /** @type {HTMLSelectElement} */ ($("pz-variant"));
  const keep = vSel.value;
  vSel.replaceChildren(
    ...s.rulesets.map((r) => {
      const o = document.createElement("option");
      o.value = `${r.game}/${r.variant}`;
      o.textContent = t(`variant.${r.variant}`, {}, r.variant);
      return o;
    }),
  );
  if (keep) vSel.value = keep;
  fillSizes();
}

function fillSizes() {
  const { r } = chosen();
  const sSel = /** @type {HTMLSelectElement} */ ($("pz-size"));
  const keep = sSel.value;
  sSel.replaceChildren(
    ...(r ? r.ready : []).map((n) => {
      const o = document.createElement("option");
      o.value = String(n);
      o.textContent = `${n}×${n}`;
      return o;
    }),
  );
  if (keep && r && r.ready.includes(Number(keep))) sSel.value = keep;
  else if (r && r.ready.includes(4)) sSel.value = "4";
}

async function main() {
  applyI18n();
  for (const b of document.querySelectorAll("[data-lang]")) {
    b.addEventListener("click", () => setLang(/** @type {HTMLElement} */ (b).dataset.lang || "en"));
  }
  onLangChange(() => {
    fillForm();
    render();
  });
  store.subscribe(render);
  $("pz-next").addEventListener("click", next);
  $("pz-retry").addEventListener("click", retry);
  $("pz-show").addEventListener("click", showSolution);
  $("pz-variant").addEventListener("change", () => {
    fillSizes();
    store.set({ batch: [] });
    next();
  });
  for (const id of ["pz-size", "pz-kind"]) $(id).addEventListener("change", () => next());
  try {
    await loadRenderers(await api.games()); // each game's board, by the renderer it declares
  } catch {
    // without the catalogue every board is drawn by the generic renderer
  }
  store.set({ rulesets: (await request("GET", "/api/puzzles/rulesets")).rulesets });
  // a link may choose the rules and the seed: #variant=classic&size=4&seed=7&kind=win
  const q = new URLSearchParams(location.hash.slice(1));
  const seed = Number(q.get("seed"));
  if (Number.isInteger(seed) && seed > 0) store.set({ seed: seed - 1 });
  const variant = S().rulesets.find((r) => r.variant === q.get("variant"));
  fillForm();
  if (variant) /** @type {HTMLSelectElement} */ ($("pz-variant")).value = `${variant.game}/${variant.variant}`;
  fillSizes();
  if (q.get("size")) /** @type {HTMLSelectElement} */ ($("pz-size")).value = q.get("size") || "";
  if (q.get("kind")) /** @type {HTMLSelectElement} */ ($("pz-kind")).value = q.get("kind") || "";
  const saved = q.get("saved");
  const first = saved ? loadSaved(localStorage).find((p) => p.position === saved) : null;
  if (first) await open(first, false);
  else await next();
  document.body.dataset.ready = "1";
}

main();
