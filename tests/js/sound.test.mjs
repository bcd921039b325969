// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { NOTES, soundFor, soundOn } from "../../src/boardlab/web/static/js/sound.js";

test("a move, a win, a loss and another end each have their own sound", () => {
  assert.equal(soundFor(false, null, 0), "move");
  assert.equal(soundFor(true, 0, 0), "win");
  assert.equal(soundFor(true, 1, 0), "loss");
  assert.equal(soundFor(true, null, 0), "end"); // a draw
  assert.equal(soundFor(true, 1, null), "end"); // no single human at the board
  const tunes = Object.values(NOTES).map((n) => n.join());
  assert.equal(new Set(tunes).size, tunes.length);
  assert.ok(NOTES.win[1] > NOTES.win[0] && NOTES.loss[1] < NOTES.loss[0]); // up for a win, down for a loss
});

test("sounds are off unless switched on", () => {
  assert.equal(soundOn(), false); // no storage here: off
});
