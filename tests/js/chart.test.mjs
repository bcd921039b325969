// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { chartPoints } from "../../src/boardlab/web/static/js/chart.js";

test("values are from the first player's view; draws sit on the middle line", () => {
  const { points, top } = chartPoints([
    { ply: 0, to_move: 0, value: "win", remoteness: 7 },
    { ply: 1, to_move: 1, value: "loss", remoteness: 6 },
    { ply: 2, to_move: 0, value: "draw", remoteness: null },
    { ply: 3, to_move: 1, value: "win", remoteness: 2 },
  ]);
  assert.deepEqual(points.map((p) => p.v), ["win", "win", "draw", "loss"]);
  assert.deepEqual(points.map((p) => p.rem), [7, 6, null, 2]);
  assert.equal(top, 7);
});
