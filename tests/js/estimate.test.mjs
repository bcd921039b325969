// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { label, moveMarks, percent, shares } from "../../src/boardlab/web/static/js/estimate.js";

/** @param {number} share @param {number} to_move @param {Partial<import("../../src/boardlab/web/static/js/estimate.js").Estimate>} [more] */
const est = (share, to_move, more = {}) => ({ to_move, ply: 0, score: 0, share, depth: 3, nodes: 10, line: [], proven: false, plies: null, ...more });

test("the bar gives the side to move its share and the other the rest", () => {
  assert.deepEqual(shares(est(0.7, 0)), [0.7, 1 - 0.7]);
  assert.deepEqual(shares(est(0.7, 1)), [1 - 0.7, 0.7]);
  assert.deepEqual(shares(est(1.4, 0)), [1, 0]);
});

test("an estimate is labelled with its depth, a proven result with its length", () => {
  assert.deepEqual(label(est(0.6, 0, { depth: 5 })), { key: "est.label", args: { depth: 5 } });
  assert.deepEqual(label(est(1, 0, { proven: true, plies: 3 })), { key: "est.provenWin", args: { plies: 3 } });
  assert.deepEqual(label(est(0, 1, { proven: true, plies: 4 })), { key: "est.provenLoss", args: { plies: 4 } });
});

test("an estimate never shows certainty; a proven result does", () => {
  assert.equal(percent(est(0.999, 0)), 99);
  assert.equal(percent(est(0.001, 0)), 1);
  assert.equal(percent(est(1, 0, { proven: true, plies: 1 })), 100);
});

test("moves are marked by the share their mover gave away", () => {
  const seen = [
    { share: 0.6, to_move: 0 }, // blue moves, red then has 0.42: blue kept 0.58
    { share: 0.42, to_move: 1 }, // red moves, blue then has 0.8: red gave away 0.22
    { share: 0.8, to_move: 0 }, // blue moves, red then has 0.3: blue gave away 0.1
    { share: 0.3, to_move: 1 },
  ];
  assert.deepEqual(moveMarks(seen), ["kept", "mistake", "dubious"]);
});

test("a move next to an unestimated position is not marked", () => {
  assert.deepEqual(moveMarks([{ share: 0.5, to_move: 0 }, null, { share: 0.5, to_move: 0 }]), [null, null]);
});

test("the last move is judged by the result when the game is over", () => {
  const seen = [{ share: 0.3, to_move: 0 }, null];
  assert.deepEqual(moveMarks(seen, { winner: 0 }), ["kept"]);
  assert.deepEqual(moveMarks(seen, { winner: 1 }), ["mistake"]);
  assert.deepEqual(moveMarks(seen, { winner: null }), ["kept"]);
});

test("a side moving twice in a row keeps its own share", () => {
  assert.deepEqual(moveMarks([{ share: 0.5, to_move: 0 }, { share: 0.2, to_move: 0 }]), ["mistake"]);
});
