// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { moveEnds, parsePosition, slidePath } from "../../src/boardlab/web/static/js/position.js";

test("a Dodgem position: cars by square and the side to move", () => {
  const pos = parsePosition("3/B1B/1R1 b", ["blue", "red"]);
  assert.equal(pos.n, 3);
  assert.equal(pos.toMove, 0);
  assert.deepEqual([...pos.pieces].sort(), [["a2", 0], ["b1", 1], ["c2", 0]]);
});

test("a Dot Dash position with red to move", () => {
  const pos = parsePosition("6R/7/7/7/7/7/BBBBB2 r", ["red", "blue"]);
  assert.equal(pos.n, 7);
  assert.equal(pos.toMove, 0);
  assert.equal(pos.pieces.get("g7"), 0);
  assert.equal([...pos.pieces.values()].filter((p) => p === 1).length, 5);
});

test("bad position text is refused", () => {
  assert.throws(() => parsePosition("3/B1B/1R b", ["blue", "red"]), /rank 1/);
  assert.throws(() => parsePosition("3/X2/3 b", ["blue", "red"]), /unknown piece/);
  assert.throws(() => parsePosition("3/3/3", ["blue", "red"]), /side to move/);
});

test("moves: from, to and off", () => {
  assert.deepEqual(moveEnds("a2-b2"), { from: "a2", to: "b2", off: false });
  assert.deepEqual(moveEnds("c2-off"), { from: "c2", to: null, off: true });
  assert.deepEqual(moveEnds("G7xG4"), { from: "G7", to: "G4", off: false });
  assert.equal(moveEnds("pass"), null);
  assert.equal(moveEnds(null), null);
  assert.deepEqual(slidePath("G7", "G4"), ["G6", "G5", "G4"]);
});
