// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";

import { controlState, createControls, keyAction, redone, undone } from "../../src/boardlab/web/static/js/controls.js";
import { store } from "../../src/boardlab/web/static/js/state.js";
import { Runner } from "../../src/boardlab/web/static/js/turnloop.js";

const base = store.get();
/**
 * A state: `moves` played (the first colour moved first), `redo` to replay.
 * @param {{sides?: string[], moves?: string[], redo?: string[], swapped?: boolean, paused?: boolean, run?: any,
 *   preview?: number | null, resigned?: number | null, result?: any, view?: boolean}} o
 */
function state({ sides = ["human", "3"], moves = [], redo = [], swapped = false, paused = false, run = null, preview = null, resigned = null, result = null, view = true } = {}) {
  return /** @type {any} */ ({
    ...base,
    settings: { ...base.settings, sides },
    game: { ...base.game, moves, redo },
    view: view ? { game: "g", moves, to_move: moves.length % 2, result, players: ["blue", "red"] } : null,
    swapped,
    paused,
    run,
    preview,
    resigned,
  });
}

const key = (/** @type {string} */ k, mods = {}) => ({ key: k, ctrlKey: false, metaKey: false, altKey: false, ...mods });
const page = { sheetOpen: false, inField: false, onBoard: false };

test("the keyboard: Ctrl+Z or ⌘Z undoes, Ctrl+Y or ⌘Y redoes", () => {
  const s = state({ moves: ["a", "b"] });
  assert.deepEqual(keyAction(key("z", { ctrlKey: true }), page, s), { do: "undo" });
  assert.deepEqual(keyAction(key("z", { metaKey: true }), page, s), { do: "undo" });
  assert.deepEqual(keyAction(key("y", { ctrlKey: true }), page, s), { do: "redo" });
  assert.deepEqual(keyAction(key("y", { metaKey: true }), page, s), { do: "redo" });
  assert.equal(keyAction(key("z"), page, s), null); // a plain z is the browser's
});

test("the keyboard: ← and → step through the moves, within the game", () => {
  const s = state({ moves: ["a", "b"], redo: ["c"] });
  assert.deepEqual(keyAction(key("ArrowLeft"), page, s), { do: "jump", ply: 1 });
  assert.deepEqual(keyAction(key("ArrowRight"), page, s), { do: "jump", ply: 3 });
  assert.equal(keyAction(key("ArrowRight"), page, state({ moves: ["a", "b"] })), null); // nothing to replay
  assert.equal(keyAction(key("ArrowLeft"), page, state()), null); // nothing before the start
  assert.equal(keyAction(key("ArrowLeft", { altKey: true }), page, s), null); // the browser's Back
  assert.equal(keyAction(key("ArrowLeft", { ctrlKey: true }), page, s), null);
  assert.equal(keyAction(key("ArrowLeft"), { ...page, onBoard: true }, s), null); // the board's cursor
  assert.equal(keyAction(key("ArrowLeft"), page, state({ moves: ["a"], run: { done: 3, total: 100 } })), null);
  assert.equal(keyAction(key("ArrowLeft"), page, state({ moves: ["a"], view: false })), null); // no board yet
});

test("the keyboard: keys typed in a field are the field's; Escape closes the New game sheet", () => {
  const s = state({ moves: ["a", "b"] });
  const field = { ...page, inField: true };
  assert.equal(keyAction(key("z", { ctrlKey: true }), field, s), null);
  assert.equal(keyAction(key("ArrowLeft"), field, s), null);
  assert.deepEqual(keyAction(key("Escape"), { ...field, sheetOpen: true }, s), { do: "closeSheet" });
  assert.equal(keyAction(key("Escape"), page, s), null);
});

test("Undo and Redo are available only with something to take back or replay", () => {
  assert.equal(controlState(state()).undoDisabled, true);
  assert.equal(controlState(state()).redoDisabled, true);
  assert.equal(controlState(state({ moves: ["a"] })).undoDisabled, false);
  assert.equal(controlState(state({ moves: ["a", "b"], preview: 0 })).undoDisabled, true); // an earlier position shown
  assert.equal(controlState(state({ redo: ["a"] })).redoDisabled, false);
});

test("Resign and Swap sides are for a human at the board; Resign stops once the game is over", () => {
  const vs = controlState(state({ moves: ["a"] }));
  assert.equal(vs.resignShown, true);
  assert.equal(vs.resignDisabled, false);
  assert.equal(vs.swapShown, true);
  const watching = controlState(state({ sides: ["2", "3"] }));
  assert.equal(watching.resignShown, false);
  assert.equal(watching.swapShown, false);
  const humans = controlState(state({ sides: ["human", "human"] }));
  assert.equal(humans.resignShown, true);
  assert.equal(humans.swapShown, false); // no computer to swap with
  assert.equal(controlState(state({ resigned: 0 })).resignDisabled, true);
  assert.equal(controlState(state({ result: { winner: 1, reason: "x" } })).resignDisabled, true);
  assert.equal(controlState(state({ view: false })).resignShown, false);
});

test("Pause shows while computers play; Continue where a paused computer is to move", () => {
  const watching = controlState(state({ sides: ["2", "3"] }));
  assert.equal(watching.pauseShown, true);
  assert.equal(watching.pauseLabel, "pause");
  const humanToMove = controlState(state({ paused: true }));
  assert.equal(humanToMove.pauseShown, false);
  const computerToMove = controlState(state({ moves: ["a"], paused: true })); // the computer, second, to move
  assert.equal(computerToMove.pauseShown, true);
  assert.equal(computerToMove.pauseLabel, "continue");
  assert.equal(controlState(state({ moves: ["a"], paused: false })).pauseShown, false); // it plays: no pause vs a human
  assert.equal(controlState(state({ sides: ["2", "3"], result: { winner: 0, reason: "x" } })).pauseShown, false);
  assert.equal(controlState(state({ sides: ["2", "3"], result: { winner: 0, reason: "x" }, run: { done: 1, total: 100 } })).pauseShown, true);
});

test("Undo against the computer takes its reply back too; Redo replays both", () => {
  // the human (first colour) played a and c, the computer b and d
  const s = state({ moves: ["a", "b", "c", "d"] });
  assert.deepEqual(undone(s), { moves: ["a", "b"], redo: ["d", "c"] });
  const back = state({ moves: ["a", "b"], redo: ["d", "c"] });
  assert.deepEqual(redone(back), { moves: ["a", "b", "c", "d"], redo: [] });
  // seated the other way round (swapped): the human plays the second colour
  const swapped = state({ moves: ["a", "b", "c"], swapped: true });
  assert.deepEqual(undone(swapped), { moves: ["a"], redo: ["c", "b"] });
});

test("between two humans Undo and Redo step one move", () => {
  const s = state({ sides: ["human", "human"], moves: ["a", "b", "c"] });
  assert.deepEqual(undone(s), { moves: ["a", "b"], redo: ["c"] });
  assert.deepEqual(redone(state({ sides: ["human", "human"], moves: ["a", "b"], redo: ["c"] })), { moves: ["a", "b", "c"], redo: [] });
});

/** The controls with the page around them faked: what they were asked to do. */
function controls() {
  const runner = new Runner();
  const did = { drives: 0, counted: 0, refreshed: /** @type {{moves: string[], signal: AbortSignal}[]} */ ([]), messages: /** @type {string[]} */ ([]) };
  /** @type {((v?: any) => void)[]} */
  const pending = [];
  const deps = {
    runner,
    loopDeps: () => /** @type {any} */ ({}),
    loopError: () => {},
    drive: () => {
      did.drives += 1;
    },
    freshGame: async () => {},
    playFresh: async () => {},
    refresh: (/** @type {AbortSignal | undefined} */ signal) =>
      new Promise((resolve, reject) => {
        did.refreshed.push({ moves: [...store.get().game.moves], signal: /** @type {AbortSignal} */ (signal) });
        pending.push(resolve);
        signal?.addEventListener("abort", () => reject(Object.assign(new Error("aborted"), { name: "AbortError" })));
      }),
    countIfFinished: () => {
      did.counted += 1;
    },
    showMessage: (/** @type {string | null} */ text) => {
      did.messages.push(String(text));
    },
    errorText: (/** @type {any} */ err) => String(err),
    toast: () => {},
    checkLevel4: () => {},
    view: { fillSetup: () => {}, sideLabel: () => "", colourName: () => "" },
  };
  return { c: createControls(deps), did, pending, runner };
}

test("Undo stops the computer, shows the earlier position and waits there; a later step aborts its request", async () => {
  const { c, did, pending } = controls();
  store.set(state({ moves: ["a", "b", "c", "d"], paused: false }));
  const first = c.undo();
  assert.deepEqual(store.get().game.moves, ["a", "b"]);
  assert.deepEqual(store.get().game.redo, ["d", "c"]);
  assert.equal(store.get().paused, true); // the computer does not answer at once
  const second = c.jumpTo(0); // before the first answer came
  assert.equal(did.refreshed.length, 2);
  assert.equal(did.refreshed[0].signal.aborted, true);
  assert.equal(did.refreshed[1].signal.aborted, false);
  pending[1]();
  await Promise.all([first, second]);
  assert.deepEqual(store.get().game.moves, []);
  assert.deepEqual(store.get().game.redo, ["d", "c", "b", "a"]);
  assert.deepEqual(did.messages, []); // an aborted request is no error
});

test("Swap sides swaps the colours and lets the computer play; Pause stops it and Continue goes on", () => {
  const { c, did, runner } = controls();
  store.set(state({ moves: ["a"], paused: false }));
  c.swapSides();
  assert.equal(store.get().swapped, true);
  assert.equal(did.drives, 1);
  let aborted = false;
  runner.start((signal) => new Promise(() => signal.addEventListener("abort", () => (aborted = true))));
  c.pauseOrContinue();
  assert.equal(aborted, true);
  assert.equal(store.get().paused, true);
  c.pauseOrContinue();
  assert.equal(store.get().paused, false);
  assert.equal(did.drives, 2);
});

test("Resign gives up the human's colour and counts the game; nothing to resign once it is over", () => {
  const { c, did } = controls();
  store.set(state({ moves: ["a", "b"], swapped: true }));
  c.resignNow();
  assert.equal(store.get().resigned, 1); // the human plays the second colour
  assert.equal(did.counted, 1);
  c.resignNow();
  assert.equal(did.counted, 1);
});
