// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { bySeat, humanColourAfterPie, isWatch, seatsAfterPie, versusComputer, watchSides } from "../../src/boardlab/web/static/js/seating.js";

test("after the pie the human sits on the colour they took, red or blue", () => {
  for (const sides of [["human", "2"], ["2", "human"]]) {
    // the human chooses red (colour 0)
    let seated = seatsAfterPie(sides, humanColourAfterPie("human", 0));
    assert.deepEqual(bySeat(seated.sides, seated.swapped), ["human", "2"]);
    // the human chooses blue
    seated = seatsAfterPie(sides, humanColourAfterPie("human", 1));
    assert.deepEqual(bySeat(seated.sides, seated.swapped), ["2", "human"]);
    // the computer chooses red: the human gets blue
    seated = seatsAfterPie(sides, humanColourAfterPie("computer", 0));
    assert.deepEqual(bySeat(seated.sides, seated.swapped), ["2", "human"]);
  }
});

test("the pie needs one human and one computer", () => {
  assert.throws(() => seatsAfterPie(["human", "human"], 0));
  assert.throws(() => seatsAfterPie(["1", "2"], 0));
});

test("seats, watch and versus", () => {
  assert.deepEqual(bySeat(["human", "3"], true), ["3", "human"]);
  assert.ok(isWatch(["1", "4"]) && !isWatch(["human", "4"]));
  assert.ok(versusComputer(["human", "4"]) && !versusComputer(["human", "human"]));
  assert.deepEqual(watchSides(["human", "2"], "3"), ["2", "2"]);
  assert.deepEqual(watchSides(["human", "human"], "3"), ["3", "3"]);
});
