// @ts-check
// The record of games played here, kept per settings in the browser (localStorage). Only a
// game played to its end on this page counts, once; a game opened from a link or a record
// file never does.

export const RECORD_STORE = "boardlab.records.v1";

/**
 * @typedef {{a: number, d: number, b: number, n: number}} Tally  a: wins of side A (the
 *   first participant of the settings), b: wins of side B, d: draws, n: games
 * @typedef {{getItem(k: string): string | null, setItem(k: string, v: string): void}} StorageLike
 * @typedef {{game: string, variant: string, size: number, sides: readonly string[], alternate: boolean}} RecordSettings
 */

/** @returns {Tally} */
export const emptyTally = () => ({ a: 0, d: 0, b: 0, n: 0 });

/**
 * The key a record is kept under: the game, its rules and who plays.
 * @param {RecordSettings} s
 */
export function recordKey(s) {
  return JSON.stringify([s.game, s.variant, s.size, [...s.sides], !!s.alternate]);
}

/** @param {StorageLike} storage @returns {Record<string, Tally>} */
function readAll(storage) {
  try {
    const all = JSON.parse(storage.getItem(RECORD_STORE) || "{}");
    return all && typeof all === "object" && !Array.isArray(all) ? all : {};
  } catch {
    return {};
  }
}

/**
 * The tally for these settings (zeros when none is kept).
 * @param {StorageLike} storage @param {RecordSettings} s @returns {Tally}
 */
export function loadTally(storage, s) {
  const t = readAll(storage)[recordKey(s)];
  if (!t) return emptyTally();
  const num = (/** @type {unknown} */ x) => (Number.isInteger(x) && Number(x) >= 0 ? Number(x) : 0);
  return { a: num(t.a), d: num(t.d), b: num(t.b), n: num(t.n) };
}

/**
 * Add one finished game. `winner` is the colour index that won (null: a draw) and
 * `swapped` whether side A played the second colour in that game.
 * @param {StorageLike} storage @param {RecordSettings} s
 * @param {number | null} winner @param {boolean} swapped
 * @returns {Tally} the new tally
 */
export function addResult(storage, s, winner, swapped) {
  const all = readAll(storage);
  const t = loadTally(storage, s);
  if (winner === null) t.d += 1;
  else if ((winner === 0) !== swapped) t.a += 1;
  else t.b += 1;
  t.n += 1;
  all[recordKey(s)] = t;
  storage.setItem(RECORD_STORE, JSON.stringify(all));
  return t;
}

/** Forget the tally of these settings. @param {StorageLike} storage @param {RecordSettings} s */
export function resetTally(storage, s) {
  const all = readAll(storage);
  delete all[recordKey(s)];
  storage.setItem(RECORD_STORE, JSON.stringify(all));
  return emptyTally();
}

/**
 * Whether a game counts now: it ended, it was played here from its start (not opened from
 * a link or a file), and it has not been counted yet.
 * @param {{over: boolean, origin: "here" | "link" | "file", counted: boolean}} g
 */
export function counts(g) {
  return g.over && g.origin === "here" && !g.counted;
}
