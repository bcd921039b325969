// @ts-check
// The value each played move leads to for the side that played it, from the analysis's
// value history (the value of each position for the side to move there): the move list is
// coloured by it, as GamesmanUni colours moves.

/** @typedef {{ply: number, to_move: number, value: "win" | "draw" | "loss" | null, remoteness: number | null}} PlyValue */

/** @type {Record<string, "win" | "draw" | "loss">} */
const FLIP = { win: "loss", loss: "win", draw: "draw" };

/**
 * For move i (from position i to position i + 1) the value for its mover, or null where the
 * position after it is not valued (the game's end counts: the mover won, lost or drew).
 * @param {PlyValue[]} history values of positions 0..n
 * @returns {("win" | "draw" | "loss" | null)[]} one per move
 */
export function moveValues(history) {
  /** @type {("win" | "draw" | "loss" | null)[]} */
  const out = [];
  for (let i = 0; i + 1 < history.length; i++) {
    const after = history[i + 1];
    if (!after || after.value === null) {
      out.push(null);
      continue;
    }
    // the value after is for the side to move then: the mover's own when it moves again
    out.push(after.to_move === history[i].to_move ? after.value : FLIP[after.value]);
  }
  return out;
}
