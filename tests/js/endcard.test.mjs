// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { endCard } from "../../src/boardlab/web/static/js/endcard.js";
import { TEXTS, t } from "../../src/boardlab/web/static/js/i18n.js";
import "../../src/boardlab/web/static/js/play-texts.js";

const colourName = (/** @type {number} */ c) => ["Blue", "Red"][c];
const labels = /** @type {[string, string]} */ (["You", "Level 4"]);

test("the human's own result, the reason and the record's change", () => {
  const card = endCard({
    result: { winner: 1, reason: "cleared" },
    seats: ["human", "4"],
    colourName,
    t,
    tally: { a: 2, d: 0, b: 5, n: 7 },
    before: { a: 2, d: 0, b: 4, n: 6 },
    labels,
  });
  assert.equal(card.title, "You lost");
  assert.equal(card.kind, "loss");
  assert.equal(card.reason, "all cars left the board");
  assert.deepEqual(card.record.map((r) => [r.label, r.n, r.plus]), [["You", 2, false], ["Draws", 0, false], ["Level 4", 5, true]]);
});

test("a win with colours swapped, a draw, and two humans", () => {
  const win = endCard({ result: { winner: 0, reason: "resignation" }, seats: ["4", "human"], colourName, t, tally: { a: 1, d: 0, b: 0, n: 1 }, before: null, labels });
  assert.equal(win.title, "You lost");
  const won = endCard({ result: { winner: 1, reason: "resignation" }, seats: ["4", "human"], colourName, t, tally: { a: 0, d: 0, b: 1, n: 1 }, before: null, labels });
  assert.equal(won.kind, "win");
  assert.ok(won.record.every((r) => !r.plus)); // not counted: no change shown
  const draw = endCard({ result: { winner: null, reason: "repetition" }, seats: ["human", "2"], colourName, t, tally: { a: 0, d: 1, b: 0, n: 1 }, before: { a: 0, d: 0, b: 0, n: 0 }, labels });
  assert.equal(draw.kind, "draw");
  assert.deepEqual(draw.record.map((r) => r.plus), [false, true, false]);
  const friends = endCard({ result: { winner: 1, reason: "cleared" }, seats: ["human", "human"], colourName, t, tally: { a: 0, d: 0, b: 1, n: 1 }, before: null, labels });
  assert.equal(friends.title, "Red wins");
  assert.equal(friends.kind, "neutral");
});

test("the main page's new texts exist in both languages with the same placeholders", () => {
  const slots = (/** @type {string} */ s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join();
  /** @type {Record<string, string>} */
  const en = TEXTS.en;
  /** @type {Record<string, string>} */
  const ja = TEXTS.ja;
  for (const k of Object.keys(en)) {
    assert.ok(k in ja, `${k} missing in Japanese`);
    // Japanese counts a forced win in plies only (手), so it may leave out {moves}
    assert.equal(slots(en[k].replace("{moves}", "")), slots(ja[k].replace("{moves}", "")), k);
  }
  for (const k of Object.keys(ja)) assert.ok(k in en, `${k} missing in English`);
  // a touch text stands beside its plain one
  for (const k of Object.keys(en).filter((x) => x.endsWith(".touch"))) assert.ok(k.slice(0, -6) in en, k);
});
