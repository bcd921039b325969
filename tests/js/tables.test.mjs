import assert from "node:assert/strict";
import { test } from "node:test";

import { withSeen } from "../../src/boardlab/web/static/js/tables.js";

const g = { game: "g", variant: "v", size: 5 };

test("an estimate seen is kept by rules and position", () => {
  const seen = withSeen({}, g, "P1", { share: 0.25, to_move: 1 });
  assert.deepEqual(seen, { "g/v/5|P1": { share: 0.25, to_move: 1 } });
  const more = withSeen(seen, { ...g, size: 6 }, "P1", { share: 0.5, to_move: 0 });
  assert.equal(Object.keys(more).length, 2);
  assert.deepEqual(seen, { "g/v/5|P1": { share: 0.25, to_move: 1 } }); // not changed in place
});

test("a long session starts afresh past 4000 estimates", () => {
  const full = {};
  for (let i = 0; i < 4000; i++) full[`g/v/5|${i}`] = { share: 0, to_move: 0 };
  const next = withSeen(full, g, "new", { share: 1, to_move: 0 });
  assert.deepEqual(Object.keys(next), ["g/v/5|new"]);
  const under = withSeen({ a: { share: 0, to_move: 0 } }, g, "x", { share: 1, to_move: 0 });
  assert.equal(Object.keys(under).length, 2);
});
