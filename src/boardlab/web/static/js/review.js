// @ts-check
// Review logic without the page: the text of a mark, its style, and the summary line in the
// page's language. The server marks the moves; this module only words and groups them.

/** Marks that throw a value away. */
export const MISTAKES = ["win-loss", "win-draw", "draw-loss"];

/**
 * A reviewed move as the server sends it.
 * @typedef {object} ReviewMove
 * @property {number} ply
 * @property {number} number
 * @property {string} label
 * @property {boolean} first_player
 * @property {string} side
 * @property {string} move
 * @property {string} position
 * @property {string} mark
 * @property {boolean} mistake
 * @property {string} best
 * @property {string[]} better_line
 * @property {number | null} after_remoteness
 * @property {number | null} best_remoteness
 */

/** The class a mark gets: "mistake", "slower" or "" (a move that kept the value); marks of
 * the review by the search: "mistake", "dubious" or "pending" (not estimated yet).
 * @param {string} mark */
export function markClass(mark) {
  if (MISTAKES.includes(mark) || mark === "est-mistake") return "mistake";
  if (mark === "est-dubious") return "dubious";
  if (mark === "pending") return "pending";
  return mark === "slower" ? "slower" : "";
}

/** The text key of a mark, or null for a move that kept the value. @param {string} mark */
export function markKey(mark) {
  return MISTAKES.includes(mark) || ["slower", "est-dubious", "est-mistake"].includes(mark) ? `rv.mark.${mark}` : null;
}

/**
 * The summary line: "3 mistakes, first at move 7 (blue a2-b2); 1 slower win", worded by `t`.
 * @param {ReviewMove[]} moves @param {(key: string, vars?: Record<string, string | number>) => string} t
 */
export function summaryText(moves, t) {
  const mistakes = moves.filter((m) => MISTAKES.includes(m.mark));
  const slower = moves.filter((m) => m.mark === "slower").length;
  let text;
  if (!mistakes.length) text = t("rv.none");
  else {
    const first = mistakes[0];
    text = t(mistakes.length === 1 ? "rv.one" : "rv.many", {
      n: mistakes.length,
      number: first.number,
      colour: t(`colour.${first.side}`),
      move: first.move,
    });
  }
  if (slower) text += t(slower === 1 ? "rv.slowerOne" : "rv.slowerMany", { n: slower });
  return text;
}

/** Pairs of moves in record order, for a two-column list: [[first, second], ...].
 * @template {{first_player: boolean, number: number}} M
 * @param {M[]} moves @returns {Array<Array<M | null>>} */
export function rows(moves) {
  /** @type {Array<Array<M | null>>} */
  const out = [];
  for (const m of moves) {
    const last = out[out.length - 1];
    if (m.first_player) out.push([m, null]);
    else if (last && last[1] === null && last[0] && last[0].number === m.number) last[1] = m;
    else out.push([null, m]);
  }
  return out;
}

/**
 * The move chosen after ← (`delta` -1) or → (+1) from move `ply` (null: none chosen yet) of
 * a game of `total` moves; moves are numbered from 1, and the ends hold.
 * @param {number | null} ply @param {number} delta @param {number} total
 * @returns {number | null}
 */
export function stepPly(ply, delta, total) {
  if (total < 1) return null;
  if (ply === null) return delta > 0 ? 1 : total;
  return Math.min(total, Math.max(1, ply + delta));
}

/**
 * @typedef {{side: string, moves: number, kept: number, slower: number, "win-draw": number,
 *   "win-loss": number, "draw-loss": number}} SideSummary
 */

/**
 * Each side's moves counted by what they did to the value (kept it, a slower win, or each
 * kind of mistake), in the order the sides first move.
 * @param {ReviewMove[]} moves @returns {SideSummary[]}
 */
export function sideSummaries(moves) {
  /** @type {Map<string, SideSummary>} */
  const by = new Map();
  for (const m of moves) {
    let s = by.get(m.side);
    if (!s) {
      s = { side: m.side, moves: 0, kept: 0, slower: 0, "win-draw": 0, "win-loss": 0, "draw-loss": 0 };
      by.set(m.side, s);
    }
    s.moves += 1;
    if (m.mark === "slower") s.slower += 1;
    else if (m.mark === "win-draw" || m.mark === "win-loss" || m.mark === "draw-loss") s[m.mark] += 1;
    else s.kept += 1;
  }
  return [...by.values()];
}

/**
 * One side's line: "Blue: 6 moves, 5 kept the value, 1 win → loss", worded by `t`.
 * @param {SideSummary} s @param {(key: string, vars?: Record<string, string | number>) => string} t
 */
export function sideText(s, t) {
  const parts = [t("rv.sideKept", { n: s.kept, total: s.moves })];
  if (s.slower) parts.push(t("rv.sideSlower", { n: s.slower }));
  for (const k of MISTAKES) {
    const n = s[/** @type {"win-draw" | "win-loss" | "draw-loss"} */ (k)];
    if (n) parts.push(`${n} × ${t(`rv.mark.${k}`)}`);
  }
  return `${t(`colour.${s.side}`)}: ${parts.join(" · ")}`;
}
