// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { addResult, counts, loadTally, recordKey, resetTally } from "../../src/boardlab/web/static/js/record.js";

function memory() {
  const data = new Map();
  return { getItem: (k) => (data.has(k) ? data.get(k) : null), setItem: (k, v) => data.set(k, String(v)), data };
}

const settings = { game: "dodgem", variant: "classic", size: 4, sides: ["human", "3"], alternate: true };

test("results add up per settings and survive a new reader (a reload)", () => {
  const st = memory();
  addResult(st, settings, 0, false); // side A (the human) won as blue
  addResult(st, settings, 0, true); // side B won as blue (swapped)
  addResult(st, settings, null, false);
  assert.deepEqual(loadTally(st, settings), { a: 1, b: 1, d: 1, n: 3 });
  const other = { ...settings, size: 5 };
  assert.deepEqual(loadTally(st, other), { a: 0, b: 0, d: 0, n: 0 });
  assert.notEqual(recordKey(settings), recordKey(other));
  const again = { getItem: st.getItem, setItem: st.setItem };
  assert.equal(loadTally(again, settings).n, 3);
});

test("reset clears one settings' record only", () => {
  const st = memory();
  const other = { ...settings, sides: ["human", "4"] };
  addResult(st, settings, 1, false);
  addResult(st, other, 1, false);
  resetTally(st, settings);
  assert.equal(loadTally(st, settings).n, 0);
  assert.equal(loadTally(st, other).n, 1);
});

test("only a game finished here counts, once", () => {
  assert.ok(counts({ over: true, origin: "here", counted: false }));
  assert.ok(!counts({ over: true, origin: "link", counted: false }));
  assert.ok(!counts({ over: true, origin: "file", counted: false }));
  assert.ok(!counts({ over: true, origin: "here", counted: true }));
  assert.ok(!counts({ over: false, origin: "here", counted: false }));
});

test("broken storage reads as an empty record", () => {
  const st = memory();
  st.setItem("boardlab.records.v1", "{not json");
  assert.deepEqual(loadTally(st, settings), { a: 0, b: 0, d: 0, n: 0 });
  st.setItem("boardlab.records.v1", JSON.stringify({ [recordKey(settings)]: { a: -3, b: "x", d: 2, n: 2 } }));
  assert.deepEqual(loadTally(st, settings), { a: 0, b: 0, d: 2, n: 2 });
});
