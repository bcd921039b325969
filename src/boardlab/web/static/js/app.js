// @ts-check
// The page's controller: it changes the store (state.js) in answer to the user and the
// server, and runs computers through the turn loop (turnloop.js). Drawing is in view.js; the
// game controls and their keys in controls.js, the pie rule in pie.js, the tables in
// tables.js, the records and links in records.js.

import { loadRenderers } from "./boards/registry.js";
import { api } from "./api.js";
import "./theme.js";
import { applyI18n, getLang, onLangChange, setLang, t } from "./i18n.js";
import "./play-texts.js";
import { helpHtml } from "./help.js";
import { wireLearning } from "./learn-main.js";
import { clearCurrent, resumable, saveCurrent } from "./current.js";
import { decodeLink, encodeLink } from "./links.js";
import { addResult, counts, loadTally } from "./record.js";
import { isComputer, isWatch } from "./seating.js";
import { playSound, setSound, soundFor, soundOn } from "./sound.js";
import { resultOf, seats, store, writeSettings } from "./state.js";
import { Runner, isAbort, playComputers } from "./turnloop.js";
import { $, createView } from "./view.js";
import { createTables } from "./tables.js";
import { copyLink, linkFor, wireRecords } from "./records.js";
import { createPie, pieWaits } from "./pie.js";
import { createControls } from "./controls.js";

const runner = new Runner();
/** @type {number | undefined} */
let messageTimer;

const newSeed = () => Math.floor(Math.random() * 2 ** 31);
const S = () => store.get();

// -- messages -------------------------------------------------------------------------------
/** @param {string | null} text @param {string} [kind] @param {number} [ms] */
export function showMessage(text, kind = "warn", ms = 6000) {
  const box = $("message");
  clearTimeout(messageTimer);
  if (!text) {
    box.hidden = true;
    return;
  }
  box.textContent = text;
  box.className = `message ${kind}`;
  box.hidden = false;
  messageTimer = window.setTimeout(() => (box.hidden = true), ms);
}

/** @param {string} text */
function toast(text) {
  const el = $("toast");
  el.textContent = text;
  el.hidden = false;
  setTimeout(() => (el.hidden = true), 2200);
}

/** @param {any} err */
const errorText = (err) => t("error.server", { msg: err.message || String(err) });

const { checkLevel4, buildTable, cancelBuild, loadAnalysis, loadEstimate } = createTables({ showMessage, errorText });

// -- the game in the store ------------------------------------------------------------------
/** Take a new server state; count the game when it just ended here. @param {any} view */
function setView(view) {
  const s = S();
  const moved = s.view && view.moves.length === s.view.moves.length + 1;
  store.set({
    view,
    game: { ...s.game, moves: [...view.moves] },
    analysis: s.analysis && s.analysis.ply === view.moves.length ? s.analysis : null,
    preview: null,
  });
  if (moved) {
    const humans = [0, 1].filter((c) => !isComputer(seats(S())[c]));
    playSound(soundFor(!!view.result, view.result ? view.result.winner : null, humans.length === 1 ? humans[0] : null));
  }
  countIfFinished();
  if (S().settings.analysis) loadAnalysis();
}

function countIfFinished() {
  const s = S();
  const result = resultOf(s);
  if (!counts({ over: !!result, origin: s.origin, counted: s.counted }) || !result) return;
  const tally = addResult(localStorage, s.settings, result.winner, s.swapped);
  store.set({ counted: true, tally, tallyBefore: s.tally });
}

/** Replay the store's game on the server. @param {AbortSignal} [signal] */
async function refresh(signal) {
  const view = await api.state(S().game, signal);
  setView(view);
}

/** The turn loop for the current game: computers move until a human's turn or the end. */
function drive() {
  return runner.start(async (signal) => {
    await playComputers(loopDeps(), signal);
  }).catch(loopError);
}

/** @param {any} err */
function loopError(err) {
  store.set({ thinking: false });
  if (isAbort(err)) return;
  if (err && err.kind === "MissingTableError") {
    showMessage(err.message, "error");
  } else showMessage(errorText(err), "error");
  store.set({ paused: true });
}

function loopDeps() {
  return {
    now: () => {
      const s = S();
      if (!s.view) return null;
      return { over: !!resultOf(s), paused: s.paused, toMove: s.view.to_move };
    },
    seats: () => seats(S()),
    delay: () => (isWatch(S().settings.sides) ? Number(S().settings.speed) : 250),
    /** @param {AbortSignal} signal */
    ask: async (signal) => {
      const s = S();
      store.set({ thinking: true });
      try {
        if (isWatch(s.settings.sides) && Number(s.settings.speed) === 0) {
          return { kind: "playout", res: await api.playout(s.game, seats(s), s.seed, signal) };
        }
        const level = seats(s)[s.view.to_move];
        return { kind: "move", level, res: await api.move(s.game, level, s.seed, level === "4", signal) };
      } finally {
        if (!signal.aborted) store.set({ thinking: false });
      }
    },
    /** @param {any} answer */
    apply: (answer) => {
      const mover = S().view.to_move;
      const f = answer.kind === "move" && answer.level === "4" && answer.res.forced && answer.res.forced.winner === mover
        ? { ...answer.res.forced, computer: true }
        : null;
      store.set({ forced: f, game: { ...S().game, redo: [] } });
      setView(answer.res.state);
    },
  };
}

/**
 * A new game from the start (or `start`) with the current settings.
 * @param {string | null} [start] @param {AbortSignal} [signal]
 */
async function freshGame(start = null, signal = undefined) {
  const s = S();
  const { game, variant, size } = s.settings;
  store.set({
    game: { game, variant, size, start, moves: [], redo: [] },
    origin: "here",
    counted: false,
    tallyBefore: null,
    endClosed: false,
    resigned: null,
    forced: null,
    analysis: null,
    preview: null,
    seed: newSeed(),
    paused: false,
  });
  if (!start) store.set({ pieNote: null });
  store.set({ paused: pieWaits(S()) });
  await refresh(signal);
}

/** A fresh game with the settings in the store, then the computers' turns (an error is shown
 * and nothing is played). */
async function playFresh() {
  try {
    await freshGame();
  } catch (err) {
    showMessage(errorText(err), "error");
    return;
  }
  checkLevel4();
  drive();
}

/** @param {string} move */
async function humanMove(move) {
  runner.cancel();
  const s = S();
  store.set({ game: { ...s.game, moves: [...s.game.moves, move], redo: [] }, forced: null, paused: false, thinking: false });
  showMessage(null);
  try {
    await runner.start((signal) => refresh(signal));
  } catch (err) {
    showMessage(errorText(err), "error");
    return;
  }
  drive();
}

/** Null when the user may move now, else why not. */
function canAct() {
  const s = S();
  if (!s.view) return t("illegal.loading");
  if (resultOf(s)) return t("illegal.over");
  if (s.preview !== null) return null;
  if (isComputer(seats(s)[s.view.to_move])) return s.thinking || !s.paused ? t("illegal.wait") : t("illegal.computerTurn");
  return null;
}

// -- records and links -------------------------------------------------------------------------------
/** Open a game (from a link or a file): it never counts in the record.
 * @param {{game: string, variant: string, size: number, start?: string | null, moves: string[]}} rec
 * @param {"link" | "file"} origin */
async function openGame(rec, origin) {
  runner.cancel();
  clearCurrent(localStorage);
  const s = S();
  writeSettings({ ...s.settings, game: rec.game, variant: rec.variant || s.settings.variant, size: rec.size || s.settings.size });
  view.fillSetup();
  const settings = S().settings;
  store.set({
    game: { game: settings.game, variant: settings.variant, size: settings.size, start: rec.start || null, moves: [...rec.moves], redo: [] },
    origin,
    counted: false,
    resigned: null,
    forced: null,
    analysis: null,
    paused: true,
    tallyBefore: null,
    endClosed: false,
    tally: loadTally(localStorage, settings),
  });
  await refresh();
  checkLevel4();
}

/** Go on with the game this page was playing before a reload: it still counts when it ends
 * and the computers' turns resume by themselves.
 * @param {import("./current.js").Current} cur */
async function resumeGame(cur) {
  const s = S();
  const g = cur.game;
  const chosen = s.settings.sides;
  const settings = { ...s.settings, game: g.game, variant: g.variant, size: g.size, sides: cur.sides };
  store.set({ settings, menuSides: cur.sides.join() === chosen.join() ? null : chosen });
  view.fillSetup();
  store.set({
    game: { game: g.game, variant: g.variant, size: g.size, start: g.start || null, moves: [...g.moves], redo: g.redo || [] },
    origin: "here",
    counted: cur.counted,
    resigned: cur.resigned,
    swapped: cur.swapped,
    seed: cur.seed,
    gameNo: cur.gameNo,
    forced: null,
    analysis: null,
    tallyBefore: null,
    endClosed: cur.counted, // a card already seen before the reload stays closed
    paused: false,
    tally: loadTally(localStorage, S().settings),
  });
  store.set({ paused: pieWaits(S()) });
  await refresh();
}

/** The game whose rules the help shows first: the one on the board. */
const helpGame = () => (S().view ? S().view.game : S().settings.game);

function openHelp() {
  $("help-body").innerHTML = helpHtml(getLang(), helpGame());
  const dlg = /** @type {HTMLDialogElement} */ ($("help-dialog"));
  dlg.showModal();
  // open at the top: the text gets the focus, not the Close button at its end
  $("help-body").focus({ preventScroll: true });
  dlg.scrollTop = 0;
}

// -- wiring ----------------------------------------------------------------------------------------------
/** @param {any} err */
const showError = (err) => {
  if (!isAbort(err)) showMessage(errorText(err), "error"); // an abort: a newer game took over
};

const view = createView({
  store,
  handlers: {
    onMove: humanMove,
    onIllegal: (/** @type {string | null} */ m) => showMessage(m, "warn"),
    onSetup: (/** @type {string} */ setup, /** @type {number} */ colour, /** @type {"human" | null} */ chooser) => pie.onSetup(setup, colour, chooser),
    onPieBegin: () => pie.onPieBegin(),
    onPiePlace: () => pie.onPiePlace(),
    onPieStage: (/** @type {boolean} */ placing) => pie.onPieStage(placing),
    onPieChoose: (/** @type {string} */ setup) => pie.onPieChoose(setup),
    onError: showError,
    canAct,
    onJump: (/** @type {number} */ ply) => controls.jumpTo(ply),
    onPreview: (/** @type {number | null} */ ply) => {
      if (S().preview !== ply) store.set({ preview: ply });
    },
    onPlayEval: (/** @type {string} */ move) => {
      const blocked = canAct();
      if (blocked) showMessage(blocked);
      else humanMove(move);
    },
  },
});

const pie = createPie({ runner, freshGame, drive, showMessage, errorText, fillSetup: () => view.fillSetup(), pieText: () => view.pieText() });

const controls = createControls({
  runner,
  loopDeps,
  loopError,
  drive,
  freshGame,
  playFresh,
  refresh,
  countIfFinished,
  showMessage,
  errorText,
  toast,
  checkLevel4,
  view,
});

function wire() {
  controls.wireControls();
  $("analysis-toggle").addEventListener("change", () => {
    const on = /** @type {HTMLInputElement} */ ($("analysis-toggle")).checked;
    writeSettings({ ...S().settings, analysis: on });
    if (on) loadAnalysis();
  });
  $("build-table").addEventListener("click", buildTable);
  $("analysis-build").addEventListener("click", buildTable);
  $("cancel-build").addEventListener("click", cancelBuild);
  $("s-build").addEventListener("click", buildTable);
  wireRecords({ showMessage, errorText, toast, openGame });
  $("copy-link").addEventListener("click", () => copyLink(toast));
  wireLearning(store, (text, kind) => showMessage(text, kind));
  $("help-open").addEventListener("click", openHelp);
  $("sound").addEventListener("click", () => {
    setSound(!soundOn());
    $("sound").setAttribute("aria-pressed", String(soundOn()));
    playSound("move");
  });
  $("sound").setAttribute("aria-pressed", String(soundOn()));
  for (const b of document.querySelectorAll("[data-lang]")) {
    b.addEventListener("click", () => setLang(/** @type {HTMLElement} */ (b).dataset.lang || "en"));
  }
  onLangChange(() => {
    view.fillSetup();
    view.renderAll(true);
    const msg = $("message");
    if (S().pieNote && !msg.hidden && msg.classList.contains("info")) msg.textContent = view.pieText();
    if (/** @type {HTMLDialogElement} */ ($("help-dialog")).open) $("help-body").innerHTML = helpHtml(getLang(), helpGame());
  });
  // a link pasted into this tab opens its game (the page's own hash changes are ignored)
  window.addEventListener("hashchange", () => {
    const link = decodeLink(location.hash);
    if (link === "help") openHelp();
    else if (link && `#${encodeLink(S().game)}` !== location.hash) {
      openGame(link, "link").catch((err) => showMessage(t("error.link", { msg: err.message }), "error"));
    }
  });
  // the link follows the game shown, and a game played here is kept for a reload: both are
  // written when its board arrives, so that a reload between a move and its board finds the
  // kept game under the page's link
  store.subscribe((s, prev) => {
    const shown = s.view && s.view !== prev.view && s.view.game === s.game.game;
    if (shown) history.replaceState(null, "", linkFor());
    const keep = shown || s.counted !== prev.counted || s.resigned !== prev.resigned || s.swapped !== prev.swapped;
    if (keep && s.origin === "here" && s.view) {
      const { game, swapped, counted, resigned, seed, gameNo } = s;
      saveCurrent(localStorage, { game, sides: [...s.settings.sides], swapped, counted, resigned, seed, gameNo });
    }
  });
}

async function main() {
  applyI18n();
  wire();
  try {
    const catalogue = await api.games();
    await loadRenderers(catalogue); // each game's board, by the renderer it declares
    store.set({ catalogue });
  } catch (err) {
    showMessage(errorText(err), "error");
    return;
  }
  const link = decodeLink(location.hash);
  view.fillSetup();
  store.set({ tally: loadTally(localStorage, S().settings) });
  const mine = link && link !== "help" ? resumable(localStorage, link) : null;
  if (mine) {
    try {
      await resumeGame(mine);
    } catch (err) {
      showMessage(errorText(err), "error");
      await freshGame();
    }
  } else if (link && link !== "help") {
    try {
      await openGame(link, "link");
    } catch (err) {
      showMessage(t("error.link", { msg: /** @type {Error} */ (err).message }), "error");
      await freshGame();
    }
  } else {
    await freshGame();
    if (link === "help") openHelp();
  }
  checkLevel4();
  drive();
  document.body.dataset.ready = "1";
}

main();
