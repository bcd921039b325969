// @ts-check
// One state store for the page: a plain object replaced on every change, and listeners
// called after each change. Modules read with get() and write with set(patch).

/**
 * @template T
 * @typedef {object} Store
 * @property {() => T} get
 * @property {(patch: Partial<T> | ((s: T) => Partial<T>)) => T} set
 * @property {(f: (s: T, prev: T) => void) => () => void} subscribe
 */

/**
 * @template {object} T
 * @param {T} initial
 * @returns {Store<T>}
 */
export function createStore(initial) {
  let state = Object.freeze(Object.assign({}, initial));
  /** @type {Set<(s: T, prev: T) => void>} */
  const listeners = new Set();
  return {
    get: () => state,
    set(patch) {
      const prev = state;
      const part = typeof patch === "function" ? patch(prev) : patch;
      state = Object.freeze(Object.assign({}, prev, part));
      for (const f of [...listeners]) f(state, prev);
      return state;
    },
    subscribe(f) {
      listeners.add(f);
      return () => listeners.delete(f);
    },
  };
}
