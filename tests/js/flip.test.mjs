// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { FLIP_STORE, drawnAt, drawnEdge, isFlipKey, loadFlip } from "../../src/boardlab/web/static/js/flip.js";

test("unflipped, a1 is drawn bottom left and the last point top right", () => {
  assert.deepEqual(drawnAt(0, 0, 5, false), [0, 4]);
  assert.deepEqual(drawnAt(4, 4, 5, false), [4, 0]);
  assert.deepEqual(drawnAt(1, 3, 5, false), [1, 1]);
});

test("flipped, the board is turned half round: a1 top right, the last point bottom left", () => {
  assert.deepEqual(drawnAt(0, 0, 5, true), [4, 0]);
  assert.deepEqual(drawnAt(4, 4, 5, true), [0, 4]);
  assert.deepEqual(drawnAt(1, 3, 5, true), [3, 3]);
});

test("every point keeps a place of its own, flipped or not", () => {
  for (const flipped of [false, true]) {
    const seen = new Set();
    for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) seen.add(drawnAt(c, r, 4, flipped).join(","));
    assert.equal(seen.size, 16);
  }
});

test("flipped, the cars leave by the opposite edge of the drawing", () => {
  assert.equal(drawnEdge("east", false), "east");
  assert.equal(drawnEdge("east", true), "west");
  assert.equal(drawnEdge("north", true), "south");
  assert.equal(drawnEdge("south", true), "north");
  assert.equal(drawnEdge("west", true), "east");
});

test("f flips, but not typed into a field nor with Ctrl, Alt or Meta", () => {
  assert.equal(isFlipKey({ key: "f" }), true);
  assert.equal(isFlipKey({ key: "F" }), true);
  assert.equal(isFlipKey({ key: "g" }), false);
  assert.equal(isFlipKey({ key: "f", ctrlKey: true }), false);
  assert.equal(isFlipKey({ key: "f", metaKey: true }), false);
  assert.equal(isFlipKey({ key: "f", altKey: true }), false);
  const field = { closest: (/** @type {string} */ sel) => (sel.includes("textarea") ? {} : null) };
  assert.equal(isFlipKey({ key: "f", target: field }), false);
  const page = { closest: () => null };
  assert.equal(isFlipKey({ key: "f", target: page }), true);
});

test("the stored choice: flipped only when stored so, and never when storage fails", () => {
  const st = (/** @type {string | null} */ v) => ({ getItem: (/** @type {string} */ k) => (k === FLIP_STORE ? v : null) });
  assert.equal(loadFlip(st("1")), true);
  assert.equal(loadFlip(st(null)), false);
  assert.equal(loadFlip(st("yes")), false);
  assert.equal(loadFlip({ getItem: () => { throw new Error("denied"); } }), false);
});
