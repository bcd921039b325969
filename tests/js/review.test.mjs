// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { markClass, markKey, rows, summaryText } from "../../src/boardlab/web/static/js/review.js";
import { LEARN_EN, LEARN_JA } from "../../src/boardlab/web/static/js/learn-texts.js";
import { TEXTS } from "../../src/boardlab/web/static/js/i18n.js";

/** A `t` over the English texts. */
const t = (key, vars = {}) => {
  let s = TEXTS.en[key] ?? key;
  for (const [k, v] of Object.entries(vars)) s = s.split(`{${k}}`).join(String(v));
  return s;
};

/** @returns {any} */
const mv = (ply, mark, first_player) => ({
  ply, number: Math.floor((ply + 1) / 2), label: "", first_player, side: first_player ? "blue" : "red",
  move: `m${ply}`, position: "", mark, mistake: ["win-loss", "win-draw", "draw-loss"].includes(mark),
  best: "x", better_line: ["x"], after_remoteness: null, best_remoteness: null,
});

test("marks: mistakes, slower wins and moves that kept the value", () => {
  assert.equal(markClass("win-draw"), "mistake");
  assert.equal(markClass("slower"), "slower");
  assert.equal(markClass("best"), "");
  assert.equal(markKey("draw-loss"), "rv.mark.draw-loss");
  assert.equal(markKey("ok"), null);
});

test("summary names the count and the first mistake", () => {
  const moves = [mv(1, "best", true), mv(2, "draw-loss", false), mv(3, "slower", true), mv(4, "win-draw", false)];
  assert.equal(summaryText(moves, t), "2 mistakes, first at move 1 (Red m2); 1 slower win");
  assert.equal(summaryText([mv(1, "best", true)], t), "No mistakes");
  assert.equal(summaryText([mv(5, "win-loss", true)], t), "1 mistake, at move 3 (Blue m5)");
});

test("rows pair the moves by number, a game starting with the second player too", () => {
  const r = rows([mv(1, "best", true), mv(2, "best", false), mv(3, "best", true)]);
  assert.deepEqual(r.map((p) => p.map((m) => m && m.ply)), [[1, 2], [3, null]]);
  const second = rows([{ ...mv(2, "best", false), number: 1 }, { ...mv(3, "best", true), number: 2 }]);
  assert.deepEqual(second.map((p) => p.map((m) => m && m.ply)), [[null, 2], [3, null]]);
});

test("every learning text exists in both languages", () => {
  assert.deepEqual(Object.keys(LEARN_JA).sort(), Object.keys(LEARN_EN).sort());
  for (const [k, v] of Object.entries(LEARN_JA)) assert.ok(v.length > 0 && v !== LEARN_EN[k] || k === "pz.kind.all", k);
});

test("every learning text fills the same placeholders in both languages", () => {
  const slots = (/** @type {string} */ s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join();
  const differ = Object.keys(LEARN_EN).filter((k) => slots(LEARN_EN[k]) !== slots(LEARN_JA[k]));
  assert.deepEqual(differ, []);
});

import { stepPly } from "../../src/boardlab/web/static/js/review.js";

test("arrow keys step through the moves and stop at the ends", () => {
  assert.equal(stepPly(null, 1, 5), 1);
  assert.equal(stepPly(null, -1, 5), 5);
  assert.equal(stepPly(3, 1, 5), 4);
  assert.equal(stepPly(3, -1, 5), 2);
  assert.equal(stepPly(5, 1, 5), 5);
  assert.equal(stepPly(1, -1, 5), 1);
  assert.equal(stepPly(null, 1, 0), null);
});

import { sideSummaries, sideText } from "../../src/boardlab/web/static/js/review.js";

test("each side's moves are counted by what they did to the value", () => {
  /** @param {string} side @param {string} mark */
  const by = (side, mark) => /** @type {any} */ ({ side, mark });
  const moves = [by("blue", "kept"), by("red", "kept"), by("blue", "win-loss"), by("red", "slower"), by("blue", "kept"), by("red", "draw-loss")];
  const [blue, red] = sideSummaries(moves);
  assert.deepEqual(blue, { side: "blue", moves: 3, kept: 2, slower: 0, "win-draw": 0, "win-loss": 1, "draw-loss": 0 });
  assert.deepEqual(red, { side: "red", moves: 3, kept: 1, slower: 1, "win-draw": 0, "win-loss": 0, "draw-loss": 1 });
  assert.equal(sideText(blue, t), "Blue: 2 of 3 moves kept the value · 1 × win → loss");
  assert.equal(sideText(red, t), "Red: 1 of 3 moves kept the value · 1 slower · 1 × draw → loss");
});
