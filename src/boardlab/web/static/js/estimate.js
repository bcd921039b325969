// @ts-check
// The search's estimate where no table exists (POST /api/estimate): the bar's shares by
// colour, the label that says it is an estimate and how deep it looked, and the move list's
// marks from the estimates of the positions before and after each move.

/** @typedef {{to_move: number, ply: number, score: number, share: number, depth: number, nodes: number, line: string[], proven: boolean, plies: number | null}} Estimate */
/** @typedef {{share: number, to_move: number}} Seen what an estimate said of a position */

// How much of its share a move may give away and still count as kept, or as dubious
export const KEPT = 0.05;
export const DUBIOUS = 0.15;

/**
 * The bar's share of each colour (summing to 1), from an estimate for the side to move.
 * @param {Seen} est
 * @returns {[number, number]}
 */
export function shares(est) {
  const s = Math.min(1, Math.max(0, est.share));
  return est.to_move === 0 ? [s, 1 - s] : [1 - s, s];
}

/**
 * The label key and arguments: a proven result with its length, else an estimate with its depth.
 * @param {Estimate} est
 * @returns {{key: string, args: Record<string, number>}}
 */
export function label(est) {
  if (est.proven && est.plies !== null) {
    return { key: est.share >= 0.5 ? "est.provenWin" : "est.provenLoss", args: { plies: est.plies } };
  }
  return { key: "est.label", args: { depth: est.depth } };
}

/**
 * The percentage shown for the side to move (a whole number, never 0 or 100 for an estimate,
 * which is never certain).
 * @param {Estimate} est
 */
export function percent(est) {
  const p = Math.round(est.share * 100);
  return est.proven ? p : Math.min(99, Math.max(1, p));
}

/**
 * For move i (from position i to position i + 1) what it did to its mover's share: "kept",
 * "dubious" or "mistake", or null where either position has no estimate. A position where the
 * game ended counts as what the mover got (1 won, 0 lost, 0.5 drawn), given in `end`.
 * @param {(Seen | null | undefined)[]} seen estimates of positions 0..n (null: none)
 * @param {{winner: number | null} | null} [end] the game's result, when it is over
 * @returns {("kept" | "dubious" | "mistake" | null)[]} one per move
 */
export function moveMarks(seen, end = null) {
  /** @type {("kept" | "dubious" | "mistake" | null)[]} */
  const out = [];
  for (let i = 0; i + 1 < seen.length; i++) {
    const before = seen[i];
    const after = seen[i + 1];
    if (!before) {
      out.push(null);
      continue;
    }
    const mover = before.to_move;
    /** @type {number | null} */
    let got = null;
    if (after) got = after.to_move === mover ? after.share : 1 - after.share;
    else if (end && i + 2 === seen.length) got = end.winner === null ? 0.5 : end.winner === mover ? 1 : 0;
    if (got === null) {
      out.push(null);
      continue;
    }
    const lost = before.share - got;
    out.push(lost <= KEPT ? "kept" : lost <= DUBIOUS ? "dubious" : "mistake");
  }
  return out;
}
