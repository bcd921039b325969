// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { CURRENT_STORE, clearCurrent, resumable, sameGame, saveCurrent } from "../../src/boardlab/web/static/js/current.js";

function memory() {
  /** @type {Map<string, string>} */
  const m = new Map();
  return {
    getItem: (/** @type {string} */ k) => m.get(k) ?? null,
    setItem: (/** @type {string} */ k, /** @type {string} */ v) => void m.set(k, v),
    removeItem: (/** @type {string} */ k) => void m.delete(k),
    m,
  };
}

const game = { game: "dodgem", variant: "classic", size: 3, start: null, moves: ["a2-b2", "c1-c2"], redo: [] };
const cur = { game, sides: ["human", "4"], swapped: true, counted: false, resigned: null, seed: 7, gameNo: 2 };

test("the game played here resumes from its own link after a reload", () => {
  const st = memory();
  saveCurrent(st, cur);
  const back = resumable(st, { game: "dodgem", variant: "classic", size: 3, start: null, moves: ["a2-b2", "c1-c2"] });
  assert.deepEqual(back, cur);
});

test("a link to another game (other moves, size or start) opens as a link", () => {
  const st = memory();
  saveCurrent(st, cur);
  assert.equal(resumable(st, { ...game, moves: ["a2-b2"] }), null);
  assert.equal(resumable(st, { ...game, size: 4 }), null);
  assert.equal(resumable(st, { ...game, start: "3/2B/R2 b" }), null);
  clearCurrent(st);
  assert.equal(resumable(st, game), null);
});

test("a damaged or foreign entry is ignored", () => {
  const st = memory();
  st.setItem(CURRENT_STORE, "{not json");
  assert.equal(resumable(st, game), null);
  st.setItem(CURRENT_STORE, JSON.stringify({ ...cur, sides: ["human"] }));
  assert.equal(resumable(st, game), null);
  st.setItem(CURRENT_STORE, JSON.stringify({ ...cur, resigned: 5, seed: "x" }));
  const back = resumable(st, game);
  assert.ok(back);
  assert.equal(back.resigned, null);
  assert.equal(back.seed, 0);
});

test("sameGame treats a missing start as none", () => {
  assert.ok(sameGame({ game: "g", variant: "v", size: 3, moves: [] }, { game: "g", variant: "v", size: 3, start: null, moves: [] }));
  assert.ok(!sameGame({ game: "g", variant: "v", size: 3, moves: ["a"] }, { game: "g", variant: "v", size: 3, moves: ["b"] }));
});
