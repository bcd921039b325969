import { test } from "node:test";
import assert from "node:assert/strict";
import { MIN_TARGET, zoomFactor, zoomScroll } from "../../src/boardlab/web/static/js/boards/zoom.js";

test("big enough points are not zoomed", () => {
  assert.equal(zoomFactor(40), 1);
  assert.equal(zoomFactor(60), 1);
  assert.equal(zoomFactor(0), 1);
  assert.equal(zoomFactor(NaN), 1);
});

test("small points zoom at least twice and up to a comfortable target", () => {
  // 13x13 on a 390 px phone: about 26 px apart
  assert.equal(zoomFactor(26.2), 2);
  assert.ok(26.2 * zoomFactor(26.2) >= MIN_TARGET);
  // 19x19: about 18 px apart needs more than 2x
  const k = zoomFactor(18.2);
  assert.ok(k > 2 && 18.2 * k >= MIN_TARGET && 18.2 * k < MIN_TARGET + 1);
  assert.equal(zoomFactor(39.9), 2);
});

test("the tapped point lands in the middle of the viewport", () => {
  const s = zoomScroll({ x: 200, y: 150, w: 358, h: 358, vw: 358, vh: 358, k: 2 });
  assert.deepEqual(s, { left: 400 - 179, top: 300 - 179 });
});

test("scrolling stays inside the zoomed board", () => {
  assert.deepEqual(zoomScroll({ x: 5, y: 5, w: 358, h: 358, vw: 358, vh: 358, k: 2 }), { left: 0, top: 0 });
  assert.deepEqual(zoomScroll({ x: 355, y: 350, w: 358, h: 358, vw: 358, vh: 358, k: 2 }), { left: 358, top: 358 });
  // a viewport wider than the board never scrolls back past 0
  assert.deepEqual(zoomScroll({ x: 100, y: 100, w: 100, h: 100, vw: 300, vh: 300, k: 2 }), { left: 0, top: 0 });
});

import { pickPoint, targetRadius } from "../../src/boardlab/web/static/js/boards/zoom.js";

const cands = [
  { p: "J10", x: 590, y: 590 },
  { p: "J7", x: 590, y: 770 },
  { p: "J6", x: 590, y: 830 },
];

test("a tap on a point that makes sense takes it", () => {
  assert.equal(pickPoint({ x: 592, y: 768, gap: 60, perPixel: 3, grid: "J7", candidates: cands }), "J7");
});

test("a near miss goes to the nearest candidate within a finger's reach", () => {
  // 19x19 on a phone: about 3 units a CSS pixel; the finger lands on K7's square, 35 units from J7
  assert.equal(pickPoint({ x: 625, y: 775, gap: 60, perPixel: 3, grid: "K7", candidates: cands }), "J7");
  // between J7 and J6 the nearer one wins
  assert.equal(pickPoint({ x: 590, y: 808, gap: 60, perPixel: 3, grid: "J6", candidates: cands }), "J6");
});

test("an exact tap on another point is never pulled to a candidate a whole point away", () => {
  assert.equal(pickPoint({ x: 650, y: 770, gap: 60, perPixel: 3, grid: "K7", candidates: cands }), "K7");
  // a big board on a desktop: half a point's reach only
  assert.equal(pickPoint({ x: 622, y: 770, gap: 60, perPixel: 0.5, grid: "K7", candidates: cands }), "K7");
  assert.equal(pickPoint({ x: 618, y: 770, gap: 60, perPixel: 0.5, grid: "J7", candidates: cands }), "J7");
  // no candidates (not this player's turn): the square hit, or nothing outside the grid
  assert.equal(pickPoint({ x: 625, y: 775, gap: 60, perPixel: 3, grid: "K7", candidates: [] }), "K7");
  assert.equal(pickPoint({ x: 2, y: 2, gap: 60, perPixel: 3, grid: null, candidates: [] }), null);
});

test("destination dots are seen on a phone and stay clear of their neighbours", () => {
  // 19x19 at 390 px: points about 19 px apart
  const r = targetRadius(18.8, 60, false);
  assert.ok((r * 18.8) / 60 >= 5 - 1e-9);
  assert.ok(r <= 0.28 * 60);
  // big points: the plain size; with a value a larger one
  assert.equal(targetRadius(60, 60, false), 11);
  assert.equal(targetRadius(60, 60, true), 16);
  // tiny points: capped
  assert.equal(targetRadius(5, 60, false), 0.28 * 60);
});
