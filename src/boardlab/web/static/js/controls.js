// @ts-check
// The main page's game controls: the New game sheet (Start, Watch, Watch 100 and its menus),
// Undo, Redo and the jumps through the moves, Resign, Swap sides, Pause and Continue, the end
// card's Play again, and the keyboard's shortcuts for them. What each control may do in a
// state is decided here (`controlState`, `keyAction`), drawn by view.js and done through the
// turn loop's Runner: each action aborts what the loop was doing before.

import { t } from "./i18n.js";
import { loadTally, resetTally } from "./record.js";
import { isComputer, isWatch, versusComputer, watchSides } from "./seating.js";
import { resigningColour, resultOf, seats, store, writeSettings } from "./state.js";
import { playComputers, runSeries, sleep } from "./turnloop.js";

/** @typedef {import("./state.js").State} State */

const S = () => store.get();
/** @param {string} id @returns {HTMLElement} */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** Games in a Watch 100 run. */
export const RUN_GAMES = 100;

/**
 * What the controls under the board show in a state: Undo and Redo (disabled with nothing
 * to take back or replay, Undo also while an earlier position is previewed), Resign (where a
 * human plays; disabled once the game is over), Swap sides (a human against a computer),
 * and Pause or Continue (while computers play each other, or where a paused computer is to
 * move), with its label.
 * @param {State} s
 */
export function controlState(s) {
  const over = !!resultOf(s);
  const watching = isWatch(s.settings.sides);
  const computerToMove = !!s.view && !over && isComputer(seats(s)[s.view.to_move]);
  return {
    undoDisabled: !s.game.moves.length || s.preview !== null,
    redoDisabled: !s.game.redo.length,
    resignShown: !watching && !!s.view,
    resignDisabled: over || !s.view,
    swapShown: !watching && s.settings.sides.some(isComputer),
    pauseShown: !!s.run || (!over && !!s.view && ((watching && (!s.paused || computerToMove)) || (s.paused && computerToMove))),
    /** @type {"continue" | "pause"} */
    pauseLabel: s.paused ? "continue" : "pause",
  };
}

/**
 * @typedef {{do: "closeSheet"} | {do: "undo"} | {do: "redo"} | {do: "jump", ply: number}} KeyAction
 */

/**
 * What a key does: Escape closes the New game sheet; outside a field, ← and → step through
 * the moves (not on the board, whose arrows move its cursor, nor during a 100-game run),
 * Ctrl+Z (⌘Z) undoes and Ctrl+Y (⌘Y) redoes. Null: the key is left to the browser.
 * @param {{key: string, ctrlKey: boolean, metaKey: boolean, altKey: boolean}} ev
 * @param {{sheetOpen: boolean, inField: boolean, onBoard: boolean}} where
 * @param {State} s
 * @returns {KeyAction | null}
 */
export function keyAction(ev, where, s) {
  if (ev.key === "Escape" && where.sheetOpen) return { do: "closeSheet" };
  if (where.inField) return null;
  const command = ev.ctrlKey || ev.metaKey;
  if (ev.key === "ArrowLeft" || ev.key === "ArrowRight") {
    if (command || ev.altKey || where.onBoard) return null;
    const total = s.game.moves.length + s.game.redo.length;
    const ply = s.game.moves.length + (ev.key === "ArrowLeft" ? -1 : 1);
    return s.view && !s.run && ply >= 0 && ply <= total ? { do: "jump", ply } : null;
  }
  if (command && ev.key === "z") return { do: "undo" };
  if (command && ev.key === "y") return { do: "redo" };
  return null;
}

/**
 * Undo: the moves and redo list after taking back the last move, and against the computer
 * its replies too, back to a position where the human is to move.
 * @param {State} s @returns {{moves: string[], redo: string[]}}
 */
export function undone(s) {
  const moves = [...s.game.moves];
  const redo = [...s.game.redo, /** @type {string} */ (moves.pop())];
  if (versusComputer(s.settings.sides)) {
    const bySide = seats(s);
    while (moves.length && isComputer(bySide[sideAt(s, moves.length)])) redo.push(/** @type {string} */ (moves.pop()));
  }
  return { moves, redo };
}

/**
 * Redo: one move played again, and against the computer its reply with it.
 * @param {State} s @returns {{moves: string[], redo: string[]}}
 */
export function redone(s) {
  const moves = [...s.game.moves];
  const redo = [...s.game.redo];
  moves.push(/** @type {string} */ (redo.pop()));
  if (versusComputer(s.settings.sides) && redo.length && isComputer(seats(s)[sideAt(s, moves.length)])) {
    moves.push(/** @type {string} */ (redo.pop()));
  }
  return { moves, redo };
}

/** The side to move after `k` plies of the game shown. @param {State} s @param {number} k */
function sideAt(s, k) {
  const v = s.view;
  const startSide = (((v.to_move - v.moves.length) % 2) + 2) % 2;
  return (startSide + k) % 2;
}

/**
 * @typedef {object} ControlDeps
 * @property {import("./turnloop.js").Runner} runner  the page's turn loop
 * @property {() => import("./turnloop.js").LoopDeps} loopDeps  the loop's view of the store
 * @property {(err: any) => void} loopError  a loop's failure, shown
 * @property {() => void} drive  the computers' turns of the current game
 * @property {(start?: string | null, signal?: AbortSignal) => Promise<void>} freshGame
 * @property {() => Promise<void>} playFresh  a fresh game, then the computers' turns
 * @property {(signal?: AbortSignal) => Promise<void>} refresh  the store's game replayed on the server
 * @property {() => void} countIfFinished
 * @property {(text: string | null, kind?: string) => void} showMessage
 * @property {(err: any) => string} errorText
 * @property {(text: string) => void} toast
 * @property {() => void} checkLevel4
 * @property {{fillSetup: () => void, sideLabel: (colour: number) => string, colourName: (colour: number) => string}} view
 */

/** The controls' actions, bound to the page. @param {ControlDeps} deps */
export function createControls(deps) {
  const { runner, loopDeps, loopError, drive, freshGame, playFresh, refresh, showMessage, errorText, toast, view } = deps;

  // -- the New game sheet --------------------------------------------------------------------
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

  // -- runs of computer games -----------------------------------------------------------------
  /** The series' view of the store: each game a fresh one (with "alternate", every second
   * one swapped), `finished(k)` told after k games, a gap between games.
   * @param {(k: number) => void} finished */
  function seriesDeps(finished) {
    return {
      ...loopDeps(),
      newGame: async (/** @type {AbortSignal} */ signal) => {
        const n = S().gameNo;
        store.set({ swapped: S().settings.alternate && n % 2 === 1, gameNo: n + 1 });
        await freshGame(null, signal);
      },
      finished,
      gap: () => (Number(S().settings.speed) === 0 ? 0 : Math.max(500, Number(S().settings.speed))),
    };
  }

  /** A run of 100 computer games with a running score. */
  function watch100() {
    seatWatchers();
    closeSheet();
    store.set({ run: { done: 0, total: RUN_GAMES }, gameNo: 0, tally: loadTally(localStorage, S().settings) });
    runner
      .start(async (signal) => {
        const deps = seriesDeps((k) => store.set({ run: { done: k, total: RUN_GAMES } }));
        const done = await runSeries(RUN_GAMES, deps, signal);
        if (done === RUN_GAMES) {
          store.set({ run: null });
          toast(t("run.done"));
        }
      })
      .catch(loopError);
  }

  /** Go on with a paused run from the current game. */
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
        const deps = seriesDeps((k) => store.set({ run: { done: done + k, total: left.total } }));
        const more = await runSeries(left.total - done, deps, signal);
        if (done + more >= left.total) {
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
      if (s.run) resumeRun();
      else drive();
    } else {
      runner.cancel();
      store.set({ paused: true, thinking: false });
    }
  }

  // -- undo, redo, jumps ----------------------------------------------------------------------
  /** Show the game at `moves` (the rest to redo); the game waits there.
   * @param {{moves: string[], redo: string[]}} at */
  async function goTo({ moves, redo }) {
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
    return goTo(undone(s));
  }

  function redo() {
    const s = S();
    if (!s.game.redo.length || !s.view) return;
    return goTo(redone(s));
  }

  /** @param {number} ply */
  function jumpTo(ply) {
    const s = S();
    const all = [...s.game.moves, ...[...s.game.redo].reverse()];
    return goTo({ moves: all.slice(0, ply), redo: all.slice(ply).reverse() });
  }

  // -- resign, swap, play again ---------------------------------------------------------------
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
    deps.countIfFinished();
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

  // -- the keyboard ---------------------------------------------------------------------------
  /** @param {KeyboardEvent} ev */
  function onKey(ev) {
    const target = /** @type {HTMLElement} */ (ev.target);
    const sheetOpen = document.body.classList.contains("sheet-open");
    const where = { sheetOpen, inField: !!target.closest("input,textarea,select,dialog"), onBoard: !!target.closest(".board-svg") };
    const action = keyAction(ev, where, S());
    if (!action) return;
    if (action.do === "closeSheet") {
      document.body.classList.remove("sheet-open");
      $("new-game").focus();
      return;
    }
    ev.preventDefault();
    if (action.do === "jump") jumpTo(action.ply);
    else if (action.do === "undo") undo();
    else redo();
  }

  /** Wire the sheet's menus and buttons, the controls under the board, the end card and the keyboard. */
  function wireControls() {
    $("setup").addEventListener("submit", (ev) => {
      ev.preventDefault();
      start();
    });
    $("s-game").addEventListener("change", () => {
      readSetup();
      writeSettings({ ...S().settings, variant: "" });
      view.fillSetup();
      deps.checkLevel4();
    });
    $("s-variant").addEventListener("change", () => {
      readSetup();
      writeSettings({ ...S().settings, size: 0 });
      view.fillSetup();
      deps.checkLevel4();
    });
    for (const id of ["s-side0", "s-side1", "s-alternate", "s-size"]) {
      $(id).addEventListener("change", () => {
        readSetup();
        deps.checkLevel4();
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
    window.addEventListener("keydown", onKey);
  }

  return { wireControls, jumpTo, undo, redo, pauseOrContinue, swapSides, resignNow, playAgain };
}
