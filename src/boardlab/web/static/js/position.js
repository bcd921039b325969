// @ts-check
// Reading positions and moves as the server writes them (the server stays the judge of
// what is legal; these only say where things stand, to draw them).

const FILES = "abcdefghijklmnopqrs";

/** @param {number} f @param {number} r */
export const squareName = (f, r) => `${FILES[f]}${r + 1}`;
/** @param {string} s @returns {[number, number]} */
export const parseSquare = (s) => [FILES.indexOf(s[0].toLowerCase()), Number(s.slice(1)) - 1];

/**
 * Pieces by square ('a2' / 'G7' as written) and the side to move, from position text such
 * as "3/B2/1R1 b". Letters are matched to players by their first letter.
 * @param {string} text
 * @param {readonly string[]} players colour names, e.g. ["blue", "red"]
 * @returns {{n: number, pieces: Map<string, number>, toMove: number}}
 */
export function parsePosition(text, players) {
  const letters = players.map((p) => p[0].toUpperCase());
  const [board, side] = text.trim().split(/\s+/);
  const ranks = board.split("/");
  const n = ranks.length;
  /** @type {Map<string, number>} */
  const pieces = new Map();
  ranks.forEach((row, i) => {
    const rank = n - 1 - i;
    let file = 0;
    for (const tok of row.match(/\d+|[A-Za-z]/g) || []) {
      if (/\d/.test(tok)) file += Number(tok);
      else {
        const who = letters.indexOf(tok.toUpperCase());
        if (who < 0) throw new Error(`unknown piece ${tok}`);
        pieces.set(squareName(file, rank), who);
        file += 1;
      }
    }
    if (file !== n) throw new Error(`rank ${rank + 1} has ${file} squares, not ${n}`);
  });
  const toMove = letters.indexOf((side || "").toUpperCase());
  if (toMove < 0) throw new Error(`no side to move in ${text}`);
  return { n, pieces, toMove };
}

/**
 * The squares a move touches: {from, to, off} ("a2-b2", "c2-off", "G7-G4", "G7xG4").
 * @param {string | null} move
 * @returns {{from: string, to: string | null, off: boolean} | null}
 */
export function moveEnds(move) {
  if (!move || move === "pass") return null;
  const m = move.match(/^([a-s]\d+)\s*[-xX]\s*([a-s]\d+|off)$/i);
  if (!m) return null;
  const off = m[2].toLowerCase() === "off";
  return { from: m[1], to: off ? null : m[2], off };
}

/**
 * The points a Dot Dash slide passes (from excluded, to included): the dropped stones are
 * the two points before `to`.
 * @param {string} from @param {string} to
 * @returns {string[]}
 */
export function slidePath(from, to) {
  const [f0, r0] = parseSquare(from);
  const [f1, r1] = parseSquare(to);
  const df = Math.sign(f1 - f0);
  const dr = Math.sign(r1 - r0);
  const steps = Math.max(Math.abs(f1 - f0), Math.abs(r1 - r0));
  const out = [];
  for (let k = 1; k <= steps; k++) out.push(squareName(f0 + df * k, r0 + dr * k).replace(/^./, (c) => (from[0] === from[0].toUpperCase() ? c.toUpperCase() : c)));
  return out;
}
