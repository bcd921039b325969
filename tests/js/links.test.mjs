// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { decodeLink, encodeLink } from "../../src/boardlab/web/static/js/links.js";

test("a game survives encoding and decoding, start and odd characters included", () => {
  const game = { game: "dotdash", variant: "standard", size: 9, start: "setup R:D4 B:E5,F4 r", moves: ["G7-G4", "D4xD7"] };
  const hash = encodeLink(game);
  assert.ok(!hash.includes(" "));
  assert.deepEqual(decodeLink("#" + hash), game);
});

test("no moves, no start", () => {
  const hash = encodeLink({ game: "dodgem", variant: "classic", size: 4, start: null, moves: [] });
  assert.equal(hash, "game=dodgem&variant=classic&size=4");
  assert.deepEqual(decodeLink(hash), { game: "dodgem", variant: "classic", size: 4, start: null, moves: [] });
});

test("help, empty and foreign hashes", () => {
  assert.equal(decodeLink("#help"), "help");
  assert.equal(decodeLink(""), null);
  assert.equal(decodeLink("#section-2"), null);
  const bad = decodeLink("#game=dodgem&size=x&moves=a2-b2,,");
  assert.ok(bad && bad !== "help");
  assert.equal(bad.size, 0);
  assert.deepEqual(bad.moves, ["a2-b2"]);
});
