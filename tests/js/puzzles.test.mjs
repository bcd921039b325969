// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  START_RATING,
  expected,
  freshProgress,
  judge,
  loadProgress,
  loadSaved,
  newRating,
  nextPuzzle,
  recordTry,
  saveCandidates,
  savePuzzle,
  saveProgress,
  taskKey,
} from "../../src/boardlab/web/static/js/puzzles.js";

function memory() {
  const data = new Map();
  return { getItem: (k) => (data.has(k) ? data.get(k) : null), setItem: (k, v) => data.set(k, String(v)), data };
}

/** @returns {any} */
const puzzle = (id, rating, extra = {}) => ({
  id, game: "dodgem", variant: "classic", size: 4, kind: "win", fastest: false, position: `pos-${id}`,
  to_move: "blue", value: "win", remoteness: 7, solution: "a2-b2", line: ["a2-b2", "d1-d2"],
  wrong: { "a3-b3": "loss", "a2-a1": "draw", "a4-b4": "win in 11" }, rating, ...extra,
});

test("judge: the solution is right, every other move names what it leads to", () => {
  const p = puzzle("1", 1200);
  assert.deepEqual(judge(p, "a2-b2"), { correct: true, outcome: null });
  assert.deepEqual(judge(p, "a3-b3"), { correct: false, outcome: "loss" });
  assert.deepEqual(judge(p, "a4-b4"), { correct: false, outcome: "win in 11" });
});

test("Elo: even odds at equal ratings, more gained for a harder puzzle", () => {
  assert.equal(expected(1000, 1000), 0.5);
  assert.equal(newRating(1000, 1000, true), 1016);
  assert.equal(newRating(1000, 1000, false), 984);
  assert.ok(newRating(1000, 1400, true) - 1000 > newRating(1000, 600, true) - 1000);
  assert.ok(1000 - newRating(1000, 600, false) > 1000 - newRating(1000, 1400, false));
});

test("streak grows on solves, breaks on a miss, and the best is kept", () => {
  let p = freshProgress();
  assert.equal(p.rating, START_RATING);
  p = recordTry(p, puzzle("a", 1000), true);
  p = recordTry(p, puzzle("b", 1000), true);
  assert.equal(p.streak, 2);
  p = recordTry(p, puzzle("c", 1000), false);
  assert.deepEqual([p.streak, p.best, p.solved, p.failed], [0, 2, 2, 1]);
});

test("only the first try of a puzzle moves the rating", () => {
  const first = recordTry(freshProgress(), puzzle("x", 1000), false);
  const again = recordTry(first, puzzle("x", 1000), true);
  assert.equal(again, first);
});

test("progress is saved and read back; a damaged entry starts afresh", () => {
  const mem = memory();
  const p = recordTry(freshProgress(), puzzle("a", 1300), true);
  saveProgress(mem, p);
  assert.deepEqual(loadProgress(mem), p);
  mem.setItem("boardlab.puzzles.progress", "{not json");
  assert.deepEqual(loadProgress(mem), freshProgress());
});

test("the next puzzle is the open one nearest the solver's rating", () => {
  const list = [puzzle("a", 900), puzzle("b", 1450), puzzle("c", 1080)];
  const p = { ...freshProgress(), rating: 1100 };
  assert.equal(nextPuzzle(list, p)?.id, "c");
  assert.equal(nextPuzzle(list, { ...p, done: ["c"] })?.id, "a");
  assert.equal(nextPuzzle(list, { ...p, done: ["a", "b", "c"] }), null);
});

test("saved puzzles: once per position, newest first, bad entries dropped", () => {
  const mem = memory();
  assert.equal(savePuzzle(mem, puzzle("1", 1000)).added, true);
  assert.equal(savePuzzle(mem, puzzle("2", 1000, { position: "other" })).added, true);
  assert.equal(savePuzzle(mem, puzzle("3", 1000, { position: "pos-1" })).added, false); // as "1"
  assert.deepEqual(loadSaved(mem).map((x) => x.position), ["other", "pos-1"]);
  mem.setItem("boardlab.puzzles.saved", JSON.stringify([{ junk: 1 }, puzzle("4", 1)]));
  assert.equal(loadSaved(mem).length, 1);
});

test("the task wording follows the kind", () => {
  assert.equal(taskKey(puzzle("1", 1)), "pz.task.win");
  assert.equal(taskKey(puzzle("1", 1, { fastest: true })), "pz.task.fastest");
  assert.equal(taskKey(puzzle("1", 1, { kind: "hold" })), "pz.task.hold");
});

test("positions to save after a forced-win notice: the human's last move first", () => {
  // five positions, blue (0) to move at the end: p3 had red to move, p2 blue, p1 red
  const state = { positions: ["p0", "p1", "p2", "p3", "p4"], to_move: 0 };
  assert.deepEqual(saveCandidates(state, 0), ["p2", "p1"]);
  assert.deepEqual(saveCandidates(state, 1), ["p3", "p2"]);
});
