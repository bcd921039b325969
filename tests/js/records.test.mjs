import assert from "node:assert/strict";
import { test } from "node:test";

import { playerWord } from "../../src/boardlab/web/static/js/records.js";

test("a record names players as the terminal does", () => {
  assert.equal(playerWord("human"), "human");
  assert.equal(playerWord("random"), "random");
  assert.equal(playerWord("3"), "level 3");
});
