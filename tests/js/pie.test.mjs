// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";

// the store keeps settings and the record in the browser's storage: a plain one here
const kept = new Map();
globalThis.localStorage = /** @type {any} */ ({
  getItem: (/** @type {string} */ k) => (kept.has(k) ? kept.get(k) : null),
  setItem: (/** @type {string} */ k, /** @type {string} */ v) => kept.set(k, String(v)),
  removeItem: (/** @type {string} */ k) => kept.delete(k),
});

const { loadRenderers } = await import("../../src/boardlab/web/static/js/boards/registry.js");
const { createPie, pieNoteText, pieOffer, pieWaits } = await import("../../src/boardlab/web/static/js/pie.js");
const { store } = await import("../../src/boardlab/web/static/js/state.js");
const { Runner, isAbort } = await import("../../src/boardlab/web/static/js/turnloop.js");

// one game with a setup stage, one without (no renderer: nothing is loaded)
await loadRenderers({ games: [{ name: "staged", setup: "pie" }, { name: "plain", setup: null }] });

const base = store.get();
/** A state of `game` with `sides`, `moves` played and `toMove` to move.
 * @param {{game?: string, sides?: string[], moves?: string[], toMove?: number, start?: string | null, result?: any, swapped?: boolean, resigned?: number | null}} o */
function state({ game = "staged", sides = ["human", "3"], moves = [], toMove = 0, start = null, result = null, swapped = false, resigned = null } = {}) {
  return /** @type {any} */ ({
    ...base,
    settings: { ...base.settings, game, sides },
    game: { game, variant: "v", size: 9, start, moves, redo: [] },
    view: { game, moves, to_move: toMove, result, players: ["red", "blue"] },
    swapped,
    resigned,
  });
}

test("the pie is offered against the computer only before the first move of a fresh game", () => {
  assert.equal(pieOffer(state()), "computer");
  assert.equal(pieOffer(state({ sides: ["3", "human"] })), "computer");
  assert.equal(pieOffer(state({ moves: ["a1"], toMove: 1 })), null);
  assert.equal(pieOffer(state({ start: "setup R:A1 B:A2,A3 r" })), null); // the pie was played
});

test("between two humans the one to move is offered the pie; never between computers", () => {
  assert.equal(pieOffer(state({ sides: ["human", "human"] })), "humans");
  assert.equal(pieOffer(state({ sides: ["human", "human"], moves: ["a1"], toMove: 1 })), "humans");
  assert.equal(pieOffer(state({ sides: ["2", "3"] })), null);
});

test("no pie for a game without a setup stage, nor once the game is over", () => {
  assert.equal(pieOffer(state({ game: "plain" })), null);
  assert.equal(pieOffer(state({ sides: ["human", "human"], game: "plain" })), null);
  assert.equal(pieOffer(state({ result: { winner: 0, reason: "x" } })), null);
  assert.equal(pieOffer(state({ resigned: 0 })), null);
  assert.equal(pieOffer({ ...state(), view: null }), null);
});

test("a fresh game waits for the pie only where the computer would move first", () => {
  assert.equal(pieWaits(state({ sides: ["3", "human"] })), true);
  assert.equal(pieWaits(state({ sides: ["human", "3"], swapped: true })), true);
  assert.equal(pieWaits(state({ sides: ["human", "3"] })), false); // the human moves first
  assert.equal(pieWaits(state({ sides: ["3", "human"], start: "setup R:A1 B:A2,A3 r" })), false);
  assert.equal(pieWaits(state({ sides: ["3", "human"], game: "plain" })), false);
  assert.equal(pieWaits(state({ sides: ["3", "2"] })), false);
});

test("the note after the pie names the human's colour and the computer's", () => {
  const word = (/** @type {number} */ c) => ["RED", "BLUE"][c];
  assert.equal(pieNoteText(null, word), "");
  const mine = pieNoteText({ chooser: "human", human: 1 }, word);
  assert.ok(mine.indexOf("BLUE") < mine.indexOf("RED"), mine); // "You chose blue; the computer plays red."
  const theirs = pieNoteText({ chooser: "computer", human: 1 }, word);
  assert.ok(theirs.indexOf("RED") < theirs.indexOf("BLUE"), theirs); // "The computer chooses red; you play blue."
});

/**
 * A fake server for /api/pie: answers are held until `answer(i, body)`; each request keeps its
 * body and honours its abort signal as fetch does.
 */
function fakeServer() {
  /** @type {{body: any, resolve: (v: any) => void}[]} */
  const asked = [];
  globalThis.fetch = /** @type {any} */ (
    (/** @type {string} */ path, /** @type {RequestInit} */ init) =>
      new Promise((resolve, reject) => {
        const signal = init.signal;
        signal?.addEventListener("abort", () => {
          const err = new Error("aborted");
          err.name = "AbortError";
          reject(err);
        });
        asked.push({ body: { path, ...JSON.parse(String(init.body)) }, resolve });
      })
  );
  /** @param {number} i @param {any} json */
  const answer = (i, json) => asked[i].resolve({ ok: true, status: 200, json: async () => json });
  return { asked, answer };
}

/** The pie's page around it: what it was asked to do. */
function page() {
  const runner = new Runner();
  const did = { fresh: /** @type {(string | null)[]} */ ([]), drives: 0, messages: /** @type {string[]} */ ([]), fills: 0 };
  const pie = createPie({
    runner,
    freshGame: async (start) => {
      did.fresh.push(start);
    },
    drive: () => {
      did.drives += 1;
    },
    showMessage: (text, kind) => {
      did.messages.push(`${kind}:${text}`);
    },
    errorText: (err) => String(err),
    fillSetup: () => {
      did.fills += 1;
    },
    pieText: () => "the note",
  });
  return { runner, did, pie };
}

test("the computer places the stones: the server is asked for its placement at the game's level", async () => {
  const server = fakeServer();
  const { pie } = page();
  store.set({ ...state({ sides: ["human", "2"] }), seed: 7 });
  const placed = pie.onPiePlace();
  await Promise.resolve();
  assert.equal(server.asked.length, 1);
  assert.deepEqual(server.asked[0].body, { path: "/api/pie", game: "staged", variant: "v", size: 9, role: "place", level: "2", seed: 7 });
  server.answer(0, { setup: "setup R:A1 B:A2,A3 r" });
  assert.equal(await placed, "setup R:A1 B:A2,A3 r");
});

test("the computer's choice seats the human on the other colour and starts the game from the setup", async () => {
  const server = fakeServer();
  const { pie, did } = page();
  store.set({ ...state({ sides: ["human", "2"] }), menuSides: null, pieNote: null });
  const chose = pie.onPieChoose("setup R:A1 B:A2,A3 r");
  await Promise.resolve();
  assert.equal(server.asked[0].body.role, "choose");
  assert.equal(server.asked[0].body.setup, "setup R:A1 B:A2,A3 r");
  server.answer(0, { setup: "setup R:A1 B:A2,A3 r", colour: 0 }); // the computer takes the first colour
  await chose;
  const s = store.get();
  assert.deepEqual(s.settings.sides, ["2", "human"]);
  assert.equal(s.swapped, false);
  assert.deepEqual(s.pieNote, { chooser: "computer", human: 1 });
  assert.deepEqual(did.fresh, ["setup R:A1 B:A2,A3 r"]);
  assert.equal(did.fills, 1);
  assert.equal(did.drives, 1);
  assert.deepEqual(did.messages, ["info:the note"]);
  assert.deepEqual(JSON.parse(String(localStorage.getItem("boardlab.settings.v1"))).sides, ["2", "human"]);
});

test("an answer for an older game never lands: a newer game aborts the computer's part", async () => {
  const server = fakeServer();
  const { pie, runner, did } = page();
  store.set(state({ sides: ["human", "2"] }));
  const chose = pie.onPieChoose("setup R:A1 B:A2,A3 r");
  await Promise.resolve();
  runner.cancel(); // what Start, Undo or a move do first
  await assert.rejects(chose, (err) => isAbort(err));
  assert.deepEqual(did.fresh, []);
  assert.equal(did.drives, 0);
  assert.equal(server.asked.length, 1);
});

test("two humans: the game starts from the setup, side B on the colour chosen", async () => {
  const { pie, did } = page();
  store.set({ ...state({ sides: ["human", "human"] }), pieNote: { chooser: "human", human: 0 } });
  await pie.onSetup("setup R:A1 B:A2,A3 r", 0);
  assert.equal(store.get().swapped, true); // side B took the first colour
  assert.equal(store.get().pieNote, null);
  assert.deepEqual(did.fresh, ["setup R:A1 B:A2,A3 r"]);
  assert.equal(did.drives, 1);
});

test("the pie's beginning pauses the computer and stops what the loop was doing", async () => {
  const { pie, runner } = page();
  store.set({ ...state(), paused: false, thinking: true });
  let aborted = false;
  const task = runner.start((signal) => new Promise((resolve) => signal.addEventListener("abort", () => ((aborted = true), resolve(undefined)))));
  pie.onPieBegin();
  await task;
  assert.equal(aborted, true);
  assert.equal(store.get().paused, true);
  assert.equal(store.get().thinking, false);
});
