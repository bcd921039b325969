// @ts-check
// Who sits on which colour. `sides` are the settings' participants (side A, side B), each
// "human" or a computer level; `swapped` means side A plays the second colour this game.

/** @param {string} who */
export const isComputer = (who) => who !== "human";

/**
 * Participants by colour for this game.
 * @param {readonly string[]} sides @param {boolean} swapped @returns {string[]}
 */
export function bySeat(sides, swapped) {
  return swapped ? [sides[1], sides[0]] : [sides[0], sides[1]];
}

/** Both sides are computers. @param {readonly string[]} sides */
export const isWatch = (sides) => sides.every(isComputer);

/** One human against one computer. @param {readonly string[]} sides */
export const versusComputer = (sides) => sides.some(isComputer) && sides.some((s) => !isComputer(s));

/**
 * Seats after the Dot Dash pie against the computer: the human on the colour they ended
 * with (`humanColour`, 0 or 1), the computer's level on the other, nothing swapped.
 * @param {readonly string[]} sides @param {number} humanColour
 * @returns {{sides: string[], swapped: boolean}}
 */
export function seatsAfterPie(sides, humanColour) {
  const level = sides.find(isComputer);
  if (!level || !sides.includes("human")) throw new Error("the pie against the computer needs one human and one computer");
  return { sides: humanColour === 0 ? ["human", level] : [level, "human"], swapped: false };
}

/**
 * The colour the human ends with after the pie: the chooser ("human" or "computer") took
 * `chooserColour`.
 * @param {"human" | "computer"} chooser @param {number} chooserColour
 */
export function humanColourAfterPie(chooser, chooserColour) {
  return chooser === "human" ? chooserColour : 1 - chooserColour;
}

/**
 * Sides for "Watch": both computers. A human side takes the other side's level, or `level`.
 * @param {readonly string[]} sides @param {string} level
 */
export function watchSides(sides, level) {
  const levels = sides.filter(isComputer);
  const fill = levels[0] || level;
  return sides.map((s) => (isComputer(s) ? s : fill));
}
