// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { createStore } from "../../src/boardlab/web/static/js/store.js";

test("set merges a patch, freezes the state and tells every listener once", () => {
  const store = createStore({ a: 1, b: 2 });
  const seen = [];
  const off = store.subscribe((s, prev) => seen.push([prev.a, s.a, s.b]));
  store.set({ a: 5 });
  store.set((s) => ({ b: s.a + 1 }));
  assert.deepEqual(seen, [[1, 5, 2], [5, 5, 6]]);
  assert.ok(Object.isFrozen(store.get()));
  off();
  store.set({ a: 9 });
  assert.equal(seen.length, 2);
  assert.equal(store.get().a, 9);
});

test("the previous state is kept intact", () => {
  const store = createStore({ moves: ["a2-b2"] });
  const before = store.get();
  store.set({ moves: [...before.moves, "c1-c2"] });
  assert.deepEqual(before.moves, ["a2-b2"]);
  assert.deepEqual(store.get().moves, ["a2-b2", "c1-c2"]);
});
