// @ts-check
// The turn loop: computers move until a human is to move, the game ends or it is paused.
// Each game (and each 100-game run) runs under its own AbortController: starting anything
// new aborts what ran before, so a late answer can never land on a newer game.

/** @returns {Error} */
export function abortError() {
  const err = new Error("aborted");
  err.name = "AbortError";
  return err;
}

/** @param {unknown} err */
export const isAbort = (err) => err instanceof Error && err.name === "AbortError";

/**
 * Resolve after `ms`, or reject with an AbortError as soon as `signal` aborts.
 * @param {number} ms @param {AbortSignal} signal @returns {Promise<void>}
 */
export function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(abortError());
      return;
    }
    const id = setTimeout(() => {
      signal.removeEventListener("abort", stop);
      resolve();
    }, ms);
    function stop() {
      clearTimeout(id);
      reject(abortError());
    }
    signal.addEventListener("abort", stop, { once: true });
  });
}

/** Throw an AbortError if the signal has fired. @param {AbortSignal} signal */
export function checkAborted(signal) {
  if (signal.aborted) throw abortError();
}

/** Runs one task at a time; starting a task aborts the one before. */
export class Runner {
  constructor() {
    /** @type {AbortController | null} */
    this.ctrl = null;
  }

  /**
   * Abort the running task and start `task` with a fresh signal. Resolves to the task's
   * value, or to undefined when it was aborted.
   * @template R
   * @param {(signal: AbortSignal) => Promise<R>} task
   * @returns {Promise<R | undefined>}
   */
  async start(task) {
    this.cancel();
    const ctrl = new AbortController();
    this.ctrl = ctrl;
    try {
      return await task(ctrl.signal);
    } catch (err) {
      if (isAbort(err) || ctrl.signal.aborted) return undefined;
      throw err;
    } finally {
      if (this.ctrl === ctrl) this.ctrl = null;
    }
  }

  /** Abort whatever runs now. */
  cancel() {
    if (this.ctrl) this.ctrl.abort();
    this.ctrl = null;
  }

  get busy() {
    return this.ctrl !== null;
  }
}

/**
 * @typedef {object} LoopDeps
 * @property {() => {over: boolean, paused: boolean, toMove: number} | null} now  the game now
 * @property {() => string[]} seats  who plays each colour ("human" or a level)
 * @property {() => number} delay  ms before a computer move
 * @property {(signal: AbortSignal) => Promise<unknown>} ask  ask the server for the move(s)
 * @property {(answer: any) => void} apply  take the answer into the store
 */

/**
 * Let computers move until a human is to move ("human"), the game ends ("over") or it is
 * paused ("paused"). Rejects with an AbortError when aborted.
 * @param {LoopDeps} deps @param {AbortSignal} signal
 * @returns {Promise<"human" | "over" | "paused">}
 */
export async function playComputers(deps, signal) {
  for (;;) {
    checkAborted(signal);
    const g = deps.now();
    if (!g || g.over) return "over";
    if (g.paused) return "paused";
    if (deps.seats()[g.toMove] === "human") return "human";
    await sleep(deps.delay(), signal);
    const answer = await deps.ask(signal);
    checkAborted(signal);
    deps.apply(answer);
  }
}

/**
 * A run of `total` computer games: each is started by `newGame`, played by `playComputers`
 * and reported to `finished(k)` (k games done); `gap` ms between games. Returns the number
 * of games played to their end (fewer when paused).
 * @param {number} total
 * @param {LoopDeps & {newGame: (signal: AbortSignal) => Promise<void>, finished: (k: number) => void, gap: () => number}} deps
 * @param {AbortSignal} signal
 */
export async function runSeries(total, deps, signal) {
  let done = 0;
  while (done < total) {
    await deps.newGame(signal);
    checkAborted(signal);
    const end = await playComputers(deps, signal);
    if (end !== "over") return done;
    done += 1;
    deps.finished(done);
    if (done < total) await sleep(deps.gap(), signal);
  }
  return done;
}
