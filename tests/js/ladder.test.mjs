// @ts-check
import { test, afterEach } from "node:test";
import assert from "node:assert/strict";
import { setLang } from "../../src/boardlab/web/static/js/i18n.js";
import { ratedLabel } from "../../src/boardlab/web/static/js/ladder.js";

afterEach(() => setLang("en"));

test("a level's label carries its rating once, named as a rating, and a new one replaces the old", () => {
  setLang("en");
  assert.equal(ratedLabel("Level 2", 911), "Level 2 · rated 911");
  assert.equal(ratedLabel("Level 2 · rated 911", 700), "Level 2 · rated 700");
  assert.equal(ratedLabel("Random · rated 0", undefined), "Random");
  setLang("ja");
  assert.equal(ratedLabel("レベル 3", 1125), "レベル 3 · レート1125");
});
