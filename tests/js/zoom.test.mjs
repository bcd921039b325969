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
