// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { TEXTS } from "../../src/boardlab/web/static/js/i18n.js";

/** @param {string} text */
const slots = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test("English and Japanese have the same keys", () => {
  const en = Object.keys(TEXTS.en).sort();
  const ja = Object.keys(TEXTS.ja).sort();
  assert.deepEqual(en.filter((k) => !ja.includes(k)), [], "missing in Japanese");
  assert.deepEqual(ja.filter((k) => !en.includes(k)), [], "missing in English");
});

test("each text fills the same placeholders in both languages", () => {
  /** @type {Record<string, string>} */
  const en = TEXTS.en;
  /** @type {Record<string, string>} */
  const ja = TEXTS.ja;
  // Japanese counts a forced win in plies only (手), so it may leave out {moves}
  const differ = Object.keys(en).filter(
    (k) => k in ja && slots(en[k]).filter((x) => x !== "moves").join() !== slots(ja[k]).filter((x) => x !== "moves").join(),
  );
  assert.deepEqual(differ, []);
  assert.deepEqual(Object.keys(ja).filter((k) => slots(ja[k]).includes("moves") && !slots(en[k]).includes("moves")), []);
});
