// @ts-check
// The page's controller: it changes the store (state.js) in answer to the user and the
// server, and runs computers through the turn loop (turnloop.js). Drawing is in view.js.

import { hasSetup, loadRenderers } from "./boards/registry.js";
import { api } from "./api.js";
import "./theme.js";
import { applyI18n, getLang, onLangChange, setLang, t } from "./i18n.js";
import "./play-texts.js";
import { helpHtml } from "./help.js";
import { wireLearning } from "./learn-main.js";
import { clearCurrent, resumable, saveCurrent } from "./current.js";
import { decodeLink, encodeLink } from "./links.js";
import { addResult, counts, loadTally, resetTally } from "./record.js";
import { humanColourAfterPie, isComputer, isWatch, seatsAfterPie, versusComputer, watchSides } from "./seating.js";
import { playSound, setSound, soundFor, soundOn } from "./sound.js";
import { resigningColour, resultOf, saveSettings, seats, store } from "./state.js";
import { Runner, isAbort, playComputers, runSeries, sleep } from "./turnloop.js";
import { $, createView } from "./view.js";
import { createTables } from "./tables.js";
import { copyLink, linkFor, wireRecords } from "./records.js";

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

/** Whether a fresh Dot Dash game against the computer waits for the pie (the computer
 * would move first). */
function pieWaits() {
  const s = S();
  return hasSetup(s.game.game) && !s.game.start && versusComputer(s.settings.sides) && isComputer(seats(s)[0]);
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
  store.set({ paused: pieWaits() });
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

/** Start with the chosen settings: the first game of a series, or the next one. */
async function start() {
  readSetup();
  runner.cancel();
  const s = S();
  const gameNo = s.run ? 0 : s.gameNo + 1;
  // the first game of a series keeps the colours; with "alternate" every second one swaps
  store.set({ run: null, gameNo, swapped: s.settings.alternate && gameNo % 2 === 0, tally: loadTally(localStorage, s.settings) });
  closeSheet();
  await playFresh();
}

/** Seat computers on both sides for watching; the menus (and the saved settings) keep the
 * seats chosen there, so the next Start plays them again. */
function seatWatchers() {
  readSetup();
  const s = S();
  const chosen = s.settings.sides;
  const sides = watchSides(chosen, "3");
  store.set({ settings: { ...s.settings, sides }, menuSides: sides.join() === chosen.join() ? null : chosen });
}

/** Watch: both sides computers, then a game. */
async function watch() {
  seatWatchers();
  runner.cancel();
  const s = S();
  store.set({ run: null, gameNo: s.gameNo + 1, swapped: false, tally: loadTally(localStorage, s.settings) });
  closeSheet();
  await playFresh();
}

/** A run of 100 computer games with a running score. */
function watch100() {
  seatWatchers();
  closeSheet();
  store.set({ run: { done: 0, total: 100 }, gameNo: 0, tally: loadTally(localStorage, S().settings) });
  runner
    .start(async (signal) => {
      const deps = {
        ...loopDeps(),
        newGame: async (/** @type {AbortSignal} */ sig) => {
          const n = S().gameNo;
          store.set({ swapped: S().settings.alternate && n % 2 === 1, gameNo: n + 1 });
          await freshGame(null, sig);
        },
        finished: (/** @type {number} */ k) => store.set({ run: { done: k, total: 100 } }),
        gap: () => (Number(S().settings.speed) === 0 ? 0 : Math.max(500, Number(S().settings.speed))),
      };
      const done = await runSeries(100, deps, signal);
      if (done === 100) {
        store.set({ run: null });
        toast(t("run.done"));
      }
    })
    .catch(loopError);
}

function pauseOrContinue() {
  const s = S();
  if (s.paused) {
    store.set({ paused: false });
    if (s.run) {
      // the run goes on from the current game
      resumeRun();
    } else drive();
  } else {
    runner.cancel();
    store.set({ paused: true, thinking: false });
  }
}

function resumeRun() {
  const left = S().run;
  if (!left) return;
  runner
    .start(async (signal) => {
      let done = left.done;
      if (!resultOf(S())) {
        // finish the game that was paused; a game already over was counted when it ended
        const end = await playComputers(loopDeps(), signal);
        if (end !== "over") return;
        done += 1;
        store.set({ run: { done, total: left.total } });
      }
      if (done >= left.total) {
        store.set({ run: null });
        return;
      }
      await sleep(300, signal);
      const deps = {
        ...loopDeps(),
        newGame: async (/** @type {AbortSignal} */ sig) => {
          const n = S().gameNo;
          store.set({ swapped: S().settings.alternate && n % 2 === 1, gameNo: n + 1 });
          await freshGame(null, sig);
        },
        finished: (/** @type {number} */ k) => store.set({ run: { done: done + k, total: left.total } }),
        gap: () => (Number(S().settings.speed) === 0 ? 0 : Math.max(500, Number(S().settings.speed))),
      };
      const more = await runSeries(left.total - done, deps, signal);
      if (done + more >= left.total) {
        store.set({ run: null });
        toast(t("run.done"));
      }
    })
    .catch(loopError);
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

// -- undo, redo, jumps, resign, swap ----------------------------------------------------------
/** Side to move after `k` plies. @param {number} k */
function sideAt(k) {
  const v = S().view;
  const startSide = (((v.to_move - v.moves.length) % 2) + 2) % 2;
  return (startSide + k) % 2;
}

/** @param {string[]} moves @param {string[]} redo */
async function goTo(moves, redo) {
  runner.cancel();
  store.set({ game: { ...S().game, moves, redo }, paused: true, forced: null, resigned: null, thinking: false });
  try {
    await runner.start((signal) => refresh(signal));
  } catch (err) {
    showMessage(errorText(err), "error");
  }
}

function undo() {
  const s = S();
  if (!s.game.moves.length || !s.view) return;
  const moves = [...s.game.moves];
  const redo = [...s.game.redo, /** @type {string} */ (moves.pop())];
  if (versusComputer(s.settings.sides)) {
    const bySide = seats(s);
    while (moves.length && isComputer(bySide[sideAt(moves.length)])) redo.push(/** @type {string} */ (moves.pop()));
  }
  goTo(moves, redo);
}

function redo() {
  const s = S();
  if (!s.game.redo.length || !s.view) return;
  const moves = [...s.game.moves];
  const redo = [...s.game.redo];
  moves.push(/** @type {string} */ (redo.pop()));
  if (versusComputer(s.settings.sides) && redo.length && isComputer(seats(s)[sideAt(moves.length)])) {
    moves.push(/** @type {string} */ (redo.pop()));
  }
  goTo(moves, redo);
}

/** @param {number} ply */
function jumpTo(ply) {
  const s = S();
  const all = [...s.game.moves, ...[...s.game.redo].reverse()];
  goTo(all.slice(0, ply), all.slice(ply).reverse());
}

/** Resign asks first: the dialog says who gives up. */
function resign() {
  const s = S();
  if (!s.view || resultOf(s) || isWatch(s.settings.sides)) return;
  const colour = resigningColour(s);
  $("resign-text").textContent = t("resign.text", { who: view.sideLabel(colour), colour: view.colourName(colour) });
  const dlg = /** @type {HTMLDialogElement} */ ($("resign-dialog"));
  dlg.returnValue = "";
  dlg.showModal();
  /** @type {HTMLElement} */ ($("resign-no")).focus();
}

function resignNow() {
  const s = S();
  if (!s.view || resultOf(s) || isWatch(s.settings.sides)) return;
  runner.cancel();
  store.set({ resigned: resigningColour(s), thinking: false, paused: false });
  countIfFinished();
}

/** The end card's Play again (`swap`: with the colours swapped). @param {boolean} swap */
async function playAgain(swap) {
  if (!swap) {
    if (isWatch(S().settings.sides) && S().menuSides) await watch();
    else await start();
    return;
  }
  runner.cancel();
  const s = S();
  store.set({ run: null, gameNo: s.gameNo + 1, swapped: !s.swapped });
  await playFresh();
}

function swapSides() {
  runner.cancel();
  store.set({ swapped: !S().swapped, paused: false, thinking: false, forced: null });
  drive();
}

// -- the Dot Dash pie --------------------------------------------------------------------------
/** A game from the pie's setup. Against the computer `chooser` ("human" or "computer") took
 * `chooserColour` and the players are seated from that; two humans: side B chose.
 * @param {string} setup @param {number} chooserColour @param {"human" | "computer" | null} chooser */
async function setupStart(setup, chooserColour, chooser = null) {
  runner.cancel();
  const s = S();
  if (chooser) {
    const human = humanColourAfterPie(chooser, chooserColour);
    const seated = seatsAfterPie(s.settings.sides, human);
    writeSettings({ ...s.settings, sides: seated.sides });
    store.set({ swapped: seated.swapped, pieNote: { chooser, human }, tally: loadTally(localStorage, S().settings) });
    view.fillSetup();
  } else {
    store.set({ swapped: chooserColour === 0, pieNote: null });
  }
  try {
    await freshGame(setup);
  } catch (err) {
    showMessage(errorText(err), "error");
    return;
  }
  const said = view.pieText();
  if (said) showMessage(said, "info", 15000);
  drive();
}

async function piePlace() {
  const s = S();
  const level = /** @type {string} */ (s.settings.sides.find(isComputer));
  const res = await api.pie(s.game, "place", null, level, s.seed);
  return res.setup;
}

/** @param {string} setup */
async function pieChoose(setup) {
  const s = S();
  const level = /** @type {string} */ (s.settings.sides.find(isComputer));
  const res = await api.pie(s.game, "choose", setup, level, s.seed);
  await setupStart(res.setup, res.colour, "computer");
}

// -- setup -----------------------------------------------------------------------------------------
/** @param {import("./state.js").Settings} settings */
function writeSettings(settings) {
  store.set({ settings });
  const menu = S().menuSides;
  saveSettings(menu ? { ...settings, sides: menu } : settings);
}

function readSetup() {
  const s = S();
  /** @param {string} id */
  const val = (id) => /** @type {HTMLSelectElement} */ ($(id)).value;
  store.set({ menuSides: null }); // the menus say who plays from now on
  writeSettings({
    ...s.settings,
    game: val("s-game"),
    variant: val("s-variant"),
    size: Number(val("s-size")),
    sides: [val("s-side0"), val("s-side1")],
    alternate: /** @type {HTMLInputElement} */ ($("s-alternate")).checked,
  });
}

function openSheet() {
  document.body.classList.add("sheet-open");
  /** @type {HTMLElement} */ ($("s-game")).focus({ preventScroll: true });
}

function closeSheet() {
  const wasOpen = document.body.classList.contains("sheet-open");
  document.body.classList.remove("sheet-open");
  if (wasOpen || window.matchMedia("(max-width: 920px)").matches) {
    window.scrollTo({ top: 0, behavior: "instant" });
  }
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
  store.set({ paused: pieWaits() });
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
const view = createView({
  store,
  handlers: {
    onMove: humanMove,
    onIllegal: (/** @type {string | null} */ m) => showMessage(m, "warn"),
    onSetup: setupStart,
    onPieBegin: () => {
      runner.cancel();
      store.set({ paused: true, thinking: false });
    },
    onPiePlace: piePlace,
    onPieStage: (/** @type {boolean} */ placing) => {
      if (S().pieStage !== placing) store.set({ pieStage: placing });
    },
    onPieChoose: pieChoose,
    onError: (/** @type {any} */ err) => showMessage(errorText(err), "error"),
    canAct,
    onJump: jumpTo,
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

function wire() {
  $("setup").addEventListener("submit", (ev) => {
    ev.preventDefault();
    start();
  });
  $("s-game").addEventListener("change", () => {
    readSetup();
    const s = S();
    writeSettings({ ...s.settings, variant: "" });
    view.fillSetup();
    checkLevel4();
  });
  $("s-variant").addEventListener("change", () => {
    readSetup();
    writeSettings({ ...S().settings, size: 0 });
    view.fillSetup();
    checkLevel4();
  });
  for (const id of ["s-side0", "s-side1", "s-alternate", "s-size"]) {
    $(id).addEventListener("change", () => {
      readSetup();
      checkLevel4();
    });
  }
  for (const b of $("s-speed").querySelectorAll("button")) {
    b.addEventListener("click", () => {
      writeSettings({ ...S().settings, speed: Number(/** @type {HTMLElement} */ (b).dataset.speed) });
    });
  }
  $("watch").addEventListener("click", watch);
  $("watch100").addEventListener("click", watch100);
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("resign").addEventListener("click", resign);
  $("resign-dialog").addEventListener("close", () => {
    if (/** @type {HTMLDialogElement} */ ($("resign-dialog")).returnValue === "resign") resignNow();
  });
  $("endcard-close").addEventListener("click", () => store.set({ endClosed: true }));
  $("end-again").addEventListener("click", () => playAgain(false));
  $("end-swap").addEventListener("click", () => playAgain(true));
  $("end-review").addEventListener("click", () => $("review-game").click());
  $("swap").addEventListener("click", swapSides);
  $("pause").addEventListener("click", pauseOrContinue);
  $("new-game").addEventListener("click", openSheet);
  $("sheet-close").addEventListener("click", () => document.body.classList.remove("sheet-open"));
  $("sheet-backdrop").addEventListener("click", () => document.body.classList.remove("sheet-open"));
  $("record-reset").addEventListener("click", () => store.set({ tally: resetTally(localStorage, S().settings) }));
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
  window.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && document.body.classList.contains("sheet-open")) {
      document.body.classList.remove("sheet-open");
      $("new-game").focus();
      return;
    }
    const target = /** @type {HTMLElement} */ (ev.target);
    if (target.closest("input,textarea,select,dialog")) return;
    // (on the board itself the arrows move its keyboard cursor)
    if ((ev.key === "ArrowLeft" || ev.key === "ArrowRight") && !ev.ctrlKey && !ev.metaKey && !ev.altKey && !target.closest(".board-svg")) {
      // ← and → step through the moves (the game waits on the position shown)
      const s = S();
      const total = s.game.moves.length + s.game.redo.length;
      const ply = s.game.moves.length + (ev.key === "ArrowLeft" ? -1 : 1);
      if (s.view && !s.run && ply >= 0 && ply <= total) {
        ev.preventDefault();
        jumpTo(ply);
      }
    } else if ((ev.ctrlKey || ev.metaKey) && ev.key === "z") {
      ev.preventDefault();
      undo();
    } else if ((ev.ctrlKey || ev.metaKey) && ev.key === "y") {
      ev.preventDefault();
      redo();
    }
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
