// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { depthRange, estimateSummary, estimatedMoves, estimatedSideText, estimatedSides, sharePoints } from "../../src/boardlab/web/static/js/estreview.js";

/** An estimate of a position: `to_move`'s share, at `depth`, with its expected line. */
const est = (/** @type {number} */ to_move, /** @type {number} */ share, depth = 2, line = ["X1-X2"]) => ({ to_move, share, depth, line, proven: false });

const PLAYERS = ["red", "blue"];

test("each move is marked by what it did to its mover's share", () => {
  // red 0.5 -> blue 0.5 (red kept its half) -> red 0.2 (blue kept 0.8) -> blue 0.99 (red fell
  // from 0.2 to 0.01: a mistake)
  const seen = [est(0, 0.5), est(1, 0.5), est(0, 0.2), est(1, 0.99)];
  const moves = estimatedMoves({ moves: ["A1-A4", "B1-B4", "C1-C4"], players: PLAYERS, firstMover: 0, seen, end: null });
  assert.deepEqual(moves.map((m) => m.mark), ["est-kept", "est-kept", "est-mistake"]);
  assert.deepEqual(moves.map((m) => m.mistake), [false, false, true]);
  assert.deepEqual(moves.map((m) => m.side), ["red", "blue", "red"]);
  assert.deepEqual(moves.map((m) => m.label), ["1. A1-A4", "1… B1-B4", "2. C1-C4"]);
  assert.equal(moves[2].best, "X1-X2");
  assert.equal(moves[2].depth, 2);
});

test("a loss of more than the kept margin but within the dubious one is dubious", () => {
  const seen = [est(0, 0.6), est(1, 0.5)];
  const [m] = estimatedMoves({ moves: ["A1-A4"], players: PLAYERS, firstMover: 0, seen, end: null });
  assert.equal(m.mark, "est-dubious");
});

test("moves whose positions are not estimated yet are pending", () => {
  const seen = [est(0, 0.5), null, null];
  const moves = estimatedMoves({ moves: ["A1-A4", "B1-B4"], players: PLAYERS, firstMover: 0, seen, end: null });
  assert.deepEqual(moves.map((m) => m.mark), ["pending", "pending"]);
  assert.equal(moves[1].best, "");
  assert.equal(moves[1].depth, null);
});

test("the last move of a finished game is marked by the result", () => {
  const seen = [est(0, 0.5), est(1, 0.3), null];
  const moves = estimatedMoves({ moves: ["A1-A4", "B1-B4"], players: PLAYERS, firstMover: 0, seen, end: { winner: 1 } });
  assert.deepEqual(moves.map((m) => m.mark), ["est-kept", "est-kept"]);
  const lost = estimatedMoves({ moves: ["A1-A4", "B1-B4"], players: PLAYERS, firstMover: 0, seen, end: { winner: 0 } });
  assert.equal(lost[1].mark, "est-mistake"); // blue had 0.7 and lost
});

test("a game begun by the second colour starts on the first row's right", () => {
  const moves = estimatedMoves({ moves: ["B1-B4", "A1-A4", "B2-B5"], players: PLAYERS, firstMover: 1, seen: [], end: null });
  assert.deepEqual(moves.map((m) => [m.number, m.first_player, m.side]), [[1, false, "blue"], [2, true, "red"], [2, false, "blue"]]);
  assert.equal(moves[0].label, "1… B1-B4");
});

test("each side's moves counted by mark", () => {
  const seen = [est(0, 0.5), est(1, 0.5), est(0, 0.2), est(1, 0.99)];
  const moves = estimatedMoves({ moves: ["A1-A4", "B1-B4", "C1-C4"], players: PLAYERS, firstMover: 0, seen, end: null });
  assert.deepEqual(estimatedSides(moves), [
    { side: "red", moves: 2, kept: 1, dubious: 0, mistake: 1 },
    { side: "blue", moves: 1, kept: 1, dubious: 0, mistake: 0 },
  ]);
});

test("the depths reached, lowest and highest", () => {
  assert.equal(depthRange([null, null]), null);
  assert.deepEqual(depthRange([est(0, 0.5, 3), null, est(0, 0.5, 1), est(1, 0.5, 4)]), [1, 4]);
});

test("the chart's points are the first colour's share, the end as the result", () => {
  const pts = sharePoints([est(0, 0.6), est(1, 0.7), null], 3, { winner: 1 });
  assert.deepEqual(pts.map((p) => p.share === null ? null : Math.round(p.share * 100)), [60, 30, 0]);
  const open = sharePoints([est(0, 0.6), null, null], 3, null);
  assert.deepEqual(open.map((p) => p.share), [0.6, null, null]);
});

/** A stand-in for i18n's t: the key and its values, so the test reads what was asked. */
const fakeT = (/** @type {string} */ key, /** @type {Record<string, string | number>} */ vars = {}) =>
  `${key}${Object.keys(vars).length ? JSON.stringify(vars) : ""}`;

test("the summary names the first mistake and counts the dubious moves", () => {
  const seen = [est(0, 0.6), est(1, 0.5), est(0, 0.2), est(1, 0.99)];
  const moves = estimatedMoves({ moves: ["A1-A4", "B1-B4", "C1-C4"], players: PLAYERS, firstMover: 0, seen, end: null });
  assert.equal(
    estimateSummary(moves, fakeT),
    'rv.estOne{"n":1,"number":2,"colour":"colour.red","move":"C1-C4"}rv.estDubiousOne{"n":1}',
  );
  assert.equal(estimateSummary([], fakeT), "rv.estNone");
  const [red] = estimatedSides(moves);
  assert.equal(
    estimatedSideText(red, fakeT),
    'colour.red: rv.estSide{"n":0,"total":2} · rv.estSideDubious{"n":1} · rv.estSideMistake{"n":1}',
  );
});
