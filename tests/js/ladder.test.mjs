// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { ratedLabel } from "../../src/boardlab/web/static/js/ladder.js";

test("a level's label carries its rating once, and a new rating replaces the old", () => {
  assert.equal(ratedLabel("Level 2", 911), "Level 2 · 911");
  assert.equal(ratedLabel("Level 2 · 911", 700), "Level 2 · 700");
  assert.equal(ratedLabel("Random · 0", undefined), "Random");
  assert.equal(ratedLabel("レベル 3", 1125), "レベル 3 · 1125");
});
