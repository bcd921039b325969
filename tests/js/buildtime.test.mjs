// @ts-check
import { test, afterEach } from "node:test";
import assert from "node:assert/strict";
import { Pace, formatDuration } from "../../src/boardlab/web/static/js/buildtime.js";
import { setLang } from "../../src/boardlab/web/static/js/i18n.js";

afterEach(() => setLang("en"));

test("durations in words, rounded as a person would say them", () => {
  setLang("en");
  assert.equal(formatDuration(0.3), "about 1 s");
  assert.equal(formatDuration(8.4), "about 8 s");
  assert.equal(formatDuration(33), "about 35 s");
  assert.equal(formatDuration(96), "about 2 min");
  assert.equal(formatDuration(100 * 100), "about 2 h 47 min");
  setLang("ja");
  assert.equal(formatDuration(96), "約2分");
  assert.equal(formatDuration(8), "約8秒");
});

test("the time left follows the pace of the current stage", () => {
  const pace = new Pace();
  assert.equal(pace.left("solving", 0.1, 0), null); // no pace yet
  assert.equal(pace.left("solving", 0.1, 500), null);
  // 0.2 done in 10 s: 0.7 left takes 35 s
  assert.equal(pace.left("solving", 0.3, 10_000), 35);
  // a new stage starts its own clock, from its first progress (not its start-up)
  assert.equal(pace.left("writing", 0.0, 11_000), null);
  assert.equal(pace.left("writing", 0.0, 30_000), null);
  assert.equal(pace.left("writing", 0.1, 31_000), null);
  assert.equal(pace.left("writing", 0.5, 33_000), 2.5);
  // going backwards (a new build) starts again
  assert.equal(pace.left("writing", 0.2, 34_000), null);
});
