// @ts-check
// Links hold the whole game: rules, an optional start and the moves, in the URL's hash.

/**
 * @typedef {object} GameSpec
 * @property {string} game
 * @property {string} variant
 * @property {number} size
 * @property {string | null} [start]
 * @property {string[]} moves
 */

/**
 * The hash part (without '#') for a game.
 * @param {GameSpec} g
 * @returns {string}
 */
export function encodeLink(g) {
  const parts = [`game=${encodeURIComponent(g.game)}`, `variant=${encodeURIComponent(g.variant)}`, `size=${g.size}`];
  if (g.start) parts.push(`start=${encodeURIComponent(g.start)}`);
  if (g.moves.length) parts.push(`moves=${g.moves.map(encodeURIComponent).join(",")}`);
  return parts.join("&");
}

/**
 * Read a hash ('#...' or without '#'): a game, "help", or null when it names no game.
 * @param {string} hash
 * @returns {GameSpec | "help" | null}
 */
export function decodeLink(hash) {
  const h = hash.replace(/^#/, "");
  if (!h) return null;
  if (h === "help") return "help";
  const q = new URLSearchParams(h);
  const game = q.get("game");
  if (!game) return null;
  const size = Number(q.get("size"));
  return {
    game,
    variant: q.get("variant") || "",
    size: Number.isInteger(size) && size > 0 ? size : 0,
    start: q.get("start"),
    moves: (q.get("moves") || "").split(",").map((m) => m.trim()).filter(Boolean),
  };
}
