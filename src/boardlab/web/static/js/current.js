// @ts-check
// The game being played on this page, kept in the browser so that a reload goes on with it:
// a game restored this way is still "played here" (it counts once when it ends, and the
// computer's turn resumes by itself), unlike a game opened from someone's link.

export const CURRENT_STORE = "boardlab.current.v1";

/**
 * @typedef {{getItem(k: string): string | null, setItem(k: string, v: string): void, removeItem(k: string): void}} StorageLike
 * @typedef {{game: string, variant: string, size: number, start?: string | null, moves: string[]}} GameSpec
 * @typedef {{game: GameSpec & {redo?: string[]}, sides: string[], swapped: boolean, counted: boolean,
 *   resigned: number | null, seed: number, gameNo: number}} Current
 */

/** @param {GameSpec} a @param {GameSpec} b */
export function sameGame(a, b) {
  return (
    a.game === b.game &&
    a.variant === b.variant &&
    Number(a.size) === Number(b.size) &&
    (a.start || null) === (b.start || null) &&
    a.moves.length === b.moves.length &&
    a.moves.every((m, i) => m === b.moves[i])
  );
}

/** Keep the game played here. @param {StorageLike} storage @param {Current} cur */
export function saveCurrent(storage, cur) {
  try {
    storage.setItem(CURRENT_STORE, JSON.stringify(cur));
  } catch {
    // a full or blocked storage only loses the resume after a reload
  }
}

/** Forget it (a game from a link or a file replaces it on the board). @param {StorageLike} storage */
export function clearCurrent(storage) {
  try {
    storage.removeItem(CURRENT_STORE);
  } catch {
    // nothing kept
  }
}

/**
 * The kept game when it is the one `link` names (the page's own link after a reload), else
 * null: a link to any other game opens as a link.
 * @param {StorageLike} storage @param {GameSpec} link @returns {Current | null}
 */
export function resumable(storage, link) {
  /** @type {any} */
  let cur;
  try {
    cur = JSON.parse(storage.getItem(CURRENT_STORE) || "null");
  } catch {
    return null;
  }
  if (!cur || typeof cur !== "object" || !cur.game || !Array.isArray(cur.game.moves)) return null;
  if (!Array.isArray(cur.sides) || cur.sides.length !== 2 || !cur.sides.every((/** @type {unknown} */ x) => typeof x === "string")) return null;
  if (!sameGame(cur.game, link)) return null;
  return {
    game: { ...cur.game, redo: Array.isArray(cur.game.redo) ? cur.game.redo.map(String) : [] },
    sides: [...cur.sides],
    swapped: !!cur.swapped,
    counted: !!cur.counted,
    resigned: cur.resigned === 0 || cur.resigned === 1 ? cur.resigned : null,
    seed: Number.isInteger(cur.seed) ? cur.seed : 0,
    gameNo: Number.isInteger(cur.gameNo) ? cur.gameNo : 0,
  };
}
