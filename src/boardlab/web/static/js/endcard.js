// @ts-check
// What the end-of-game card says: the result for the player at this board ("You won",
// "Red wins"), why it ended, and the record with the change this game made. No DOM here.

/**
 * @typedef {{a: number, d: number, b: number, n: number}} Tally
 * @typedef {{winner: number | null, reason: string}} Result
 * @typedef {{title: string, kind: "win" | "loss" | "draw" | "neutral", reason: string,
 *   record: {label: string, n: number, plus: boolean}[]}} EndCard
 */

/**
 * @param {object} a
 * @param {Result} a.result
 * @param {readonly string[]} a.seats who plays each colour ("human" or a level)
 * @param {(colour: number) => string} a.colourName
 * @param {(key: string, vars?: Record<string, string | number>) => string} a.t
 * @param {Tally} a.tally the record now
 * @param {Tally | null} a.before the record before this game counted (null: it did not count)
 * @param {[string, string]} a.labels side A's and side B's names in the record
 * @returns {EndCard}
 */
export function endCard({ result, seats, colourName, t, tally, before, labels }) {
  const humans = [0, 1].filter((c) => seats[c] === "human");
  let kind = /** @type {EndCard["kind"]} */ ("neutral");
  let title;
  if (result.winner === null) {
    kind = "draw";
    title = t("end.draw");
  } else if (humans.length === 1) {
    kind = result.winner === humans[0] ? "win" : "loss";
    title = t(kind === "win" ? "end.win" : "end.loss");
  } else title = t("end.wins", { colour: colourName(result.winner) });
  /** @param {"a" | "d" | "b"} k */
  const plus = (k) => !!before && tally[k] === before[k] + 1;
  const record = [
    { label: labels[0], n: tally.a, plus: plus("a") },
    { label: t("record.draws"), n: tally.d, plus: plus("d") },
    { label: labels[1], n: tally.b, plus: plus("b") },
  ];
  return { title, kind, reason: t(`reason.${result.reason}`), record };
}
