// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { Runner, isAbort, playComputers, runSeries, sleep } from "../../src/boardlab/web/static/js/turnloop.js";

/** A fake game: each answer is one ply; the game ends after `length` plies. */
function fakeGame({ seats = ["1", "2"], length = 4, wait = 0 } = {}) {
  const g = { ply: 0, paused: false, applied: [], asked: 0, games: 0 };
  const deps = {
    now: () => ({ over: g.ply >= length, paused: g.paused, toMove: g.ply % 2 }),
    seats: () => seats,
    delay: () => 0,
    ask: async (/** @type {AbortSignal} */ signal) => {
      g.asked += 1;
      if (wait) await sleep(wait, signal);
      return g.ply + 1;
    },
    apply: (/** @type {number} */ ply) => {
      g.applied.push(ply);
      g.ply = ply;
    },
    newGame: async () => {
      g.ply = 0;
      g.games += 1;
    },
    finished: () => {},
    gap: () => 0,
  };
  return { g, deps };
}

test("computers play until the end; a human's turn stops the loop", async () => {
  const { g, deps } = fakeGame({ length: 5 });
  assert.equal(await playComputers(deps, new AbortController().signal), "over");
  assert.deepEqual(g.applied, [1, 2, 3, 4, 5]);
  const vs = fakeGame({ seats: ["human", "2"] });
  vs.g.ply = 1;
  assert.equal(await playComputers(vs.deps, new AbortController().signal), "human");
  assert.deepEqual(vs.g.applied, [2]);
});

test("starting a new game aborts the old one: its late answer never lands", async () => {
  const runner = new Runner();
  const slow = fakeGame({ wait: 50 });
  const first = runner.start((signal) => playComputers(slow.deps, signal));
  await sleep(10, new AbortController().signal);
  const fresh = fakeGame({ length: 2 });
  const second = runner.start((signal) => playComputers(fresh.deps, signal));
  assert.equal(await first, undefined);
  assert.equal(await second, "over");
  assert.deepEqual(slow.g.applied, []);
  assert.equal(slow.g.asked, 1);
  assert.deepEqual(fresh.g.applied, [1, 2]);
  assert.equal(runner.busy, false);
});

test("a paused game stops before asking again", async () => {
  const { g, deps } = fakeGame({ length: 10 });
  const origApply = deps.apply;
  deps.apply = (ply) => {
    origApply(ply);
    if (ply === 3) g.paused = true;
  };
  assert.equal(await playComputers(deps, new AbortController().signal), "paused");
  assert.equal(g.asked, 3);
});

test("a 100-game run counts every game and stops at once when cancelled", async () => {
  const { g, deps } = fakeGame({ length: 3 });
  const done = [];
  deps.finished = (k) => done.push(k);
  assert.equal(await runSeries(100, deps, new AbortController().signal), 100);
  assert.equal(done.length, 100);
  assert.equal(g.applied.length, 300);

  const slow = fakeGame({ length: 3, wait: 5 });
  const runner = new Runner();
  const run = runner.start((signal) => runSeries(100, slow.deps, signal));
  await sleep(40, new AbortController().signal);
  runner.cancel();
  assert.equal(await run, undefined);
  const played = slow.g.applied.length;
  await sleep(30, new AbortController().signal);
  assert.equal(slow.g.applied.length, played);
  assert.ok(slow.g.games < 100);
});

test("sleep rejects with an AbortError when aborted", async () => {
  const ctrl = new AbortController();
  const p = sleep(1000, ctrl.signal);
  ctrl.abort();
  await assert.rejects(p, (err) => isAbort(err));
});

test("errors other than aborts reach the caller", async () => {
  const runner = new Runner();
  await assert.rejects(runner.start(async () => {
    throw new Error("server down");
  }), /server down/);
});
