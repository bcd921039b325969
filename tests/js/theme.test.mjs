// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { THEME_STORE, loadTheme, nextTheme, resolveTheme } from "../../src/boardlab/web/static/js/theme.js";

test("the switch goes system, light, dark and round again", () => {
  assert.equal(nextTheme("system"), "light");
  assert.equal(nextTheme("light"), "dark");
  assert.equal(nextTheme("dark"), "system");
});

test("system follows the device; light and dark hold whatever it says", () => {
  assert.equal(resolveTheme("system", true), "dark");
  assert.equal(resolveTheme("system", false), "light");
  assert.equal(resolveTheme("light", true), "light");
  assert.equal(resolveTheme("dark", false), "dark");
});

test("a missing or foreign stored value is the system's choice", () => {
  const st = (/** @type {string | null} */ v) => ({ getItem: (/** @type {string} */ k) => (k === THEME_STORE ? v : null) });
  assert.equal(loadTheme(st(null)), "system");
  assert.equal(loadTheme(st("purple")), "system");
  assert.equal(loadTheme(st("dark")), "dark");
});
