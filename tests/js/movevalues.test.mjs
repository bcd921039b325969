// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { moveValues } from "../../src/boardlab/web/static/js/movevalues.js";

/** @param {number} ply @param {number} to_move @param {any} value */
const h = (ply, to_move, value) => ({ ply, to_move, value, remoteness: 1 });

test("each move is valued for the side that played it", () => {
  const history = [h(0, 0, "win"), h(1, 1, "loss"), h(2, 0, "win"), h(3, 1, "win")];
  // blue keeps its win; red's reply keeps its loss; blue's second move throws the win to a loss
  assert.deepEqual(moveValues(history), ["win", "loss", "loss"]);
});

test("an unvalued position leaves its move uncoloured", () => {
  assert.deepEqual(moveValues([h(0, 0, "draw"), h(1, 1, null)]), [null]);
  assert.deepEqual(moveValues([h(0, 0, "draw")]), []);
});

test("a side moving twice in a row keeps its own value", () => {
  assert.deepEqual(moveValues([h(0, 0, "win"), h(1, 0, "win")]), ["win"]);
});
