// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { helpHtml } from "../../src/boardlab/web/static/js/help.js";

/** @param {string} html */
const headings = (html) => [...html.matchAll(/<h2>(.*?)<\/h2>/g)].map((m) => m[1]);

test("the help puts the rules of the game on the board first, in both languages", () => {
  assert.deepEqual(headings(helpHtml("en")), ["Dodgem: how to play", "Dot Dash"]);
  assert.deepEqual(headings(helpHtml("en", "dotdash")), ["Dot Dash", "Dodgem: how to play"]);
  assert.deepEqual(headings(helpHtml("ja", "dotdash")), ["ドットダッシュ", "ドッジェムの遊び方"]);
  for (const lang of ["en", "ja"]) {
    const a = helpHtml(lang);
    const b = helpHtml(lang, "dotdash");
    assert.equal(a.length, b.length); // the same text, reordered
    assert.ok(b.trimEnd().endsWith("</p>") && b.includes('<p class="small">')); // references last
    assert.ok(b.indexOf('<p class="small">') > b.lastIndexOf("<h2>"));
  }
});
