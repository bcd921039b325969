// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { resigningColour, resultOf, seats, store } from "../../src/boardlab/web/static/js/state.js";

const base = store.get();
/** @param {Record<string, unknown>} patch */
const state = (patch) => /** @type {any} */ ({ ...base, ...patch });

test("a resignation is a result: the other colour wins", () => {
  const view = { result: null, to_move: 0 };
  assert.equal(resultOf(state({ view, resigned: null })), null);
  assert.deepEqual(resultOf(state({ view, resigned: 0 })), { winner: 1, reason: "resignation" });
  const over = { result: { winner: 0, reason: "cleared" }, to_move: 1 };
  assert.deepEqual(resultOf(state({ view: over, resigned: null })), over.result);
});

test("Resign gives up the human's colour, or the side to move's between two humans", () => {
  const view = { result: null, to_move: 1 };
  const vsComputer = { ...base.settings, sides: ["human", "3"] };
  assert.equal(resigningColour(state({ view, settings: vsComputer, swapped: false })), 0);
  assert.equal(resigningColour(state({ view, settings: vsComputer, swapped: true })), 1);
  const humans = { ...base.settings, sides: ["human", "human"] };
  assert.equal(resigningColour(state({ view, settings: humans, swapped: false })), 1);
});

test("seats follow the swap", () => {
  const settings = { ...base.settings, sides: ["human", "4"] };
  assert.deepEqual(seats(state({ settings, swapped: false })), ["human", "4"]);
  assert.deepEqual(seats(state({ settings, swapped: true })), ["4", "human"]);
});
