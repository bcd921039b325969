// @ts-check
// Puzzle logic without the page: judging an answer, the solver's puzzle rating (Elo against
// each puzzle's rating), the streak, and the puzzles kept in the browser. Every function is
// pure or takes its storage as an argument, so node --test runs them.

export const START_RATING = 1000;
export const K_FACTOR = 32;
const PROGRESS_KEY = "boardlab.puzzles.progress";
const SAVED_KEY = "boardlab.puzzles.saved";
const MAX_SAVED = 50;

/**
 * A puzzle as the server sends it.
 * @typedef {object} Puzzle
 * @property {string} id
 * @property {string} game
 * @property {string} variant
 * @property {number} size
 * @property {"win" | "defend" | "hold"} kind
 * @property {boolean} fastest
 * @property {string} position
 * @property {string} to_move
 * @property {string} value
 * @property {number | null} remoteness
 * @property {string} solution
 * @property {string[]} line
 * @property {Record<string, string>} wrong
 * @property {number} rating
 *
 * @typedef {{rating: number, streak: number, best: number, solved: number, failed: number, done: string[]}} Progress
 * @typedef {{getItem(k: string): string | null, setItem(k: string, v: string): void}} Storage
 */

/**
 * What a move does in a puzzle: the solution, or a wrong move with what it leads to.
 * @param {Puzzle} puzzle @param {string} move
 * @returns {{correct: boolean, outcome: string | null}}
 */
export function judge(puzzle, move) {
  if (move === puzzle.solution) return { correct: true, outcome: null };
  return { correct: false, outcome: puzzle.wrong[move] ?? null };
}

/** The expected score of a solver rated `rating` against a puzzle rated `puzzleRating`.
 * @param {number} rating @param {number} puzzleRating */
export function expected(rating, puzzleRating) {
  return 1 / (1 + 10 ** ((puzzleRating - rating) / 400));
}

/**
 * The solver's new rating after a first try at a puzzle (Elo, K = 32): solving a hard
 * puzzle gains more than solving an easy one, failing an easy one costs more.
 * @param {number} rating @param {number} puzzleRating @param {boolean} solved
 */
export function newRating(rating, puzzleRating, solved) {
  return Math.round(rating + K_FACTOR * ((solved ? 1 : 0) - expected(rating, puzzleRating)));
}

/** @returns {Progress} */
export function freshProgress() {
  return { rating: START_RATING, streak: 0, best: 0, solved: 0, failed: 0, done: [] };
}

/**
 * The progress after a first try at `puzzle`. Only the first try of a puzzle counts: a
 * retry, or a puzzle already done, leaves rating and streak as they were.
 * @param {Progress} p @param {Puzzle} puzzle @param {boolean} solved
 * @returns {Progress}
 */
export function recordTry(p, puzzle, solved) {
  if (p.done.includes(puzzle.id)) return p;
  const streak = solved ? p.streak + 1 : 0;
  return {
    rating: newRating(p.rating, puzzle.rating, solved),
    streak,
    best: Math.max(p.best, streak),
    solved: p.solved + (solved ? 1 : 0),
    failed: p.failed + (solved ? 0 : 1),
    done: [...p.done, puzzle.id].slice(-500),
  };
}

/** @param {Storage} storage @returns {Progress} */
export function loadProgress(storage) {
  try {
    const raw = JSON.parse(storage.getItem(PROGRESS_KEY) || "null");
    if (raw && typeof raw.rating === "number" && Array.isArray(raw.done)) return { ...freshProgress(), ...raw };
  } catch {
    // a damaged entry starts afresh
  }
  return freshProgress();
}

/** @param {Storage} storage @param {Progress} p */
export function saveProgress(storage, p) {
  storage.setItem(PROGRESS_KEY, JSON.stringify(p));
}

/**
 * The next puzzle to offer: the first not done whose rating is nearest the solver's.
 * @param {Puzzle[]} puzzles @param {Progress} p
 * @returns {Puzzle | null}
 */
export function nextPuzzle(puzzles, p) {
  const open = puzzles.filter((x) => !p.done.includes(x.id));
  if (!open.length) return null;
  return open.reduce((a, b) => (Math.abs(b.rating - p.rating) < Math.abs(a.rating - p.rating) ? b : a));
}

/** The puzzles saved from games (newest first). @param {Storage} storage @returns {Puzzle[]} */
export function loadSaved(storage) {
  try {
    const raw = JSON.parse(storage.getItem(SAVED_KEY) || "[]");
    return Array.isArray(raw) ? raw.filter((x) => x && typeof x.position === "string" && typeof x.solution === "string") : [];
  } catch {
    return [];
  }
}

/**
 * Keep a puzzle in the browser's list (once per position and rules; newest first).
 * @param {Storage} storage @param {Puzzle} puzzle
 * @returns {{saved: Puzzle[], added: boolean}}
 */
export function savePuzzle(storage, puzzle) {
  const list = loadSaved(storage);
  const same = (/** @type {Puzzle} */ x) =>
    x.position === puzzle.position && x.game === puzzle.game && x.variant === puzzle.variant && x.size === puzzle.size;
  if (list.some(same)) return { saved: list, added: false };
  const saved = [{ ...puzzle, id: `saved-${puzzle.game}-${puzzle.variant}-${puzzle.size}-${puzzle.position}` }, ...list].slice(0, MAX_SAVED);
  storage.setItem(SAVED_KEY, JSON.stringify(saved));
  return { saved, added: true };
}

/** The text key of a puzzle's task. @param {Puzzle} puzzle */
export function taskKey(puzzle) {
  if (puzzle.kind === "win") return puzzle.fastest ? "pz.task.fastest" : "pz.task.win";
  return `pz.task.${puzzle.kind}`;
}

/** The positions worth saving when a computer announces a forced win, best first: where
 * the human moved last (a mistake may be found there), then where the computer moved from.
 * @param {{positions: string[], to_move: number}} state @param {number} human the human's colour
 * @returns {string[]} */
export function saveCandidates(state, human) {
  const n = state.positions.length;
  const out = [];
  // positions[i] has colour (to_move + i - (n - 1)) to move, alternating back from the end
  for (let i = n - 2; i >= 0 && out.length < 2; i--) {
    const mover = (((state.to_move - (n - 1 - i)) % 2) + 2) % 2;
    if (out.length === 0 && mover === human) out.push(state.positions[i]);
    else if (out.length === 1 && mover !== human) out.push(state.positions[i]);
  }
  return out;
}
