// @ts-check
// Review by the search where no table exists (Dot Dash, Dodgem boards without a table): each
// position of the game gets a quick estimate (POST /api/estimate with `quick`), and each move
// is marked by what it did to its mover's estimated share, as the main page's move list does.
// Pure logic here: the moves as the review page lists them, the summary, the chart's points.

import { moveMarks } from "./estimate.js";

/**
 * What a quick estimate said of one position (the page keeps the whole answer).
 * @typedef {{to_move: number, share: number, depth: number, line: string[], proven: boolean}} PositionEstimate
 */

/**
 * A move of the review by the search, in the review page's shape (ReviewMove's fields the page
 * reads) with the estimate's depth. `mark`: "est-kept", "est-dubious", "est-mistake", or
 * "pending" while its positions are not estimated yet.
 * @typedef {{ply: number, number: number, label: string, first_player: boolean, side: string,
 *   move: string, mark: string, mistake: boolean, best: string, better_line: string[],
 *   depth: number | null}} EstimatedMove
 */

/**
 * The moves of a game marked by the estimates so far.
 * @param {{moves: string[], players: readonly string[], firstMover: number,
 *   seen: (PositionEstimate | null)[], end: {winner: number | null} | null}} game
 *   `firstMover`: the colour (0 or 1) that makes the first move; `seen[i]`: the estimate of
 *   the position before move i + 1 (index moves.length: the last position), null if not
 *   (yet) estimated; `end`: the result of a finished game
 * @returns {EstimatedMove[]}
 */
export function estimatedMoves({ moves, players, firstMover, seen, end }) {
  const marks = moveMarks(
    moves.map((_, i) => seen[i] ?? null).concat([seen[moves.length] ?? null]),
    end,
  );
  // a record numbers moves in pairs from the first player's; a game begun by the second
  // player has its first move on the first row's right
  const offset = firstMover === 0 ? 0 : 1;
  return moves.map((move, i) => {
    const mover = (firstMover + i) % 2;
    const number = Math.floor((i + offset) / 2) + 1;
    const before = seen[i] ?? null;
    const mark = marks[i] ? `est-${marks[i]}` : "pending";
    return {
      ply: i + 1,
      number,
      label: `${number}${mover === 0 ? "." : "…"} ${move}`,
      first_player: mover === 0,
      side: players[mover],
      move,
      mark,
      mistake: mark === "est-mistake",
      best: before && before.line.length ? before.line[0] : "",
      better_line: before ? before.line : [],
      depth: before ? before.depth : null,
    };
  });
}

/** The depths the estimates reached, lowest and highest; null before any.
 * @param {(PositionEstimate | null)[]} seen @returns {[number, number] | null} */
export function depthRange(seen) {
  const depths = seen.filter((e) => !!e).map((e) => /** @type {PositionEstimate} */ (e).depth);
  return depths.length ? [Math.min(...depths), Math.max(...depths)] : null;
}

/**
 * Each side's moves counted by mark, in the order the sides first move.
 * @param {EstimatedMove[]} moves
 * @returns {{side: string, moves: number, kept: number, dubious: number, mistake: number}[]}
 */
export function estimatedSides(moves) {
  /** @type {Map<string, {side: string, moves: number, kept: number, dubious: number, mistake: number}>} */
  const by = new Map();
  for (const m of moves) {
    let s = by.get(m.side);
    if (!s) {
      s = { side: m.side, moves: 0, kept: 0, dubious: 0, mistake: 0 };
      by.set(m.side, s);
    }
    s.moves += 1;
    if (m.mark === "est-kept") s.kept += 1;
    else if (m.mark === "est-dubious") s.dubious += 1;
    else if (m.mark === "est-mistake") s.mistake += 1;
  }
  return [...by.values()];
}

/**
 * The chart's points: the first player's estimated share of each position (0 to 1), the end of
 * a finished game as its result, null where no estimate is known yet.
 * @param {(PositionEstimate | null)[]} seen @param {number} total positions (moves + 1)
 * @param {{winner: number | null} | null} end
 * @returns {{ply: number, share: number | null}[]}
 */
export function sharePoints(seen, total, end) {
  const out = [];
  for (let ply = 0; ply < total; ply++) {
    const e = seen[ply];
    let share = null;
    if (e) share = e.to_move === 0 ? e.share : 1 - e.share;
    else if (end && ply === total - 1) share = end.winner === null ? 0.5 : end.winner === 0 ? 1 : 0;
    out.push({ ply, share });
  }
  return out;
}

/**
 * The summary line of a review by the search, worded by `t`: "By the estimate, 2 mistakes,
 * first at move 7 (red G7-G4); 1 dubious move".
 * @param {EstimatedMove[]} moves @param {(key: string, vars?: Record<string, string | number>) => string} t
 */
export function estimateSummary(moves, t) {
  const mistakes = moves.filter((m) => m.mark === "est-mistake");
  const dubious = moves.filter((m) => m.mark === "est-dubious").length;
  let text;
  if (!mistakes.length) text = t("rv.estNone");
  else {
    const first = mistakes[0];
    text = t(mistakes.length === 1 ? "rv.estOne" : "rv.estMany", { n: mistakes.length, number: first.number, colour: t(`colour.${first.side}`), move: first.move });
  }
  if (dubious) text += t(dubious === 1 ? "rv.estDubiousOne" : "rv.estDubiousMany", { n: dubious });
  return text;
}

/**
 * One side's line of a review by the search: "Red: 5 of 7 moves kept the estimate · 1 dubious".
 * @param {{side: string, moves: number, kept: number, dubious: number, mistake: number}} s
 * @param {(key: string, vars?: Record<string, string | number>) => string} t
 */
export function estimatedSideText(s, t) {
  const parts = [t("rv.estSide", { n: s.kept, total: s.moves })];
  if (s.dubious) parts.push(t("rv.estSideDubious", { n: s.dubious }));
  if (s.mistake) parts.push(t("rv.estSideMistake", { n: s.mistake }));
  return `${t(`colour.${s.side}`)}: ${parts.join(" · ")}`;
}
