// @ts-check
// The page's one store and the facts derived from it. Nothing here touches the DOM.

import { createStore } from "./store.js";
import { bySeat, isComputer } from "./seating.js";

export const SETTINGS_STORE = "boardlab.settings.v1";

/**
 * @typedef {{game: string, variant: string, size: number, sides: string[], alternate: boolean, speed: number, analysis: boolean}} Settings
 * @typedef {{game: string, variant: string, size: number, start: string | null, moves: string[], redo: string[]}} Game
 * @typedef {{winner: number | null, reason: string, tag?: string}} Result
 */

/** @type {Settings} */
export const DEFAULTS = { game: "dodgem", variant: "classic", size: 4, sides: ["human", "3"], alternate: false, speed: 300, analysis: false };

/** @returns {Settings} */
export function loadSettings() {
  try {
    const saved = JSON.parse(localStorage.getItem(SETTINGS_STORE) || "{}");
    const s = { ...DEFAULTS, ...saved };
    if (!Array.isArray(s.sides) || s.sides.length !== 2) s.sides = [...DEFAULTS.sides];
    return s;
  } catch {
    return { ...DEFAULTS };
  }
}

/** @param {Settings} s */
export function saveSettings(s) {
  localStorage.setItem(SETTINGS_STORE, JSON.stringify(s));
}

export const store = createStore({
  /** @type {any} */ catalogue: null,
  settings: loadSettings(),
  /** @type {Game} */ game: { game: "dodgem", variant: "classic", size: 4, start: null, moves: [], redo: [] },
  /** @type {any} the server's state of the game (StateOut) */ view: null,
  swapped: false,
  gameNo: 0,
  /** @type {"here" | "link" | "file"} */ origin: "here",
  counted: false,
  /** @type {number | null} colour that resigned */ resigned: null,
  paused: false,
  thinking: false,
  /** @type {any} */ forced: null,
  /** @type {any} */ analysis: null,
  /** @type {any} the search's estimate of the shown position (EstimateOut and its position), where no table exists */ estimate: null,
  /** @type {Record<string, import("./estimate.js").Seen>} estimates seen, by rules and position (for the move list) */ seen: {},
  /** @type {{done: number, total: number} | null} */ run: null,
  tally: { a: 0, d: 0, b: 0, n: 0 },
  /** @type {any} TableOut of the current rules */ table: null,
  /** @type {number | null} ply previewed from the chart */ preview: null,
  /** @type {{chooser: string, human: number} | null} */ pieNote: null,
  seed: 0,
  /** @type {string[] | null} what the New game menus say while Watch seats computers on both sides */ menuSides: null,
  /** @type {{a: number, d: number, b: number, n: number} | null} the record before the game just counted */ tallyBefore: null,
  /** the end-of-game card was closed for this game */ endClosed: false,
  /** a Dot Dash pie setup is being placed on the board */ pieStage: false,
});

/** @typedef {ReturnType<typeof store.get>} State */

/** Take new settings; they are kept in the browser as the New game menus say (while Watch
 * seats computers on both sides, the menus' sides are kept, not Watch's).
 * @param {Settings} settings */
export function writeSettings(settings) {
  store.set({ settings });
  const menu = store.get().menuSides;
  saveSettings(menu ? { ...settings, sides: menu } : settings);
}

/** Participants by colour in this game. @param {State} s */
export const seats = (s) => bySeat(s.settings.sides, s.swapped);

/** The game's result, a resignation included (null while it goes on). @param {State} s @returns {Result | null} */
export function resultOf(s) {
  if (s.view && s.view.result) return s.view.result;
  if (s.resigned !== null) return { winner: 1 - s.resigned, reason: "resignation" };
  return null;
}

/** The colour a resign button gives up: the human's, or the side to move's between humans. @param {State} s */
export function resigningColour(s) {
  const bySide = seats(s);
  const humans = [0, 1].filter((c) => !isComputer(bySide[c]));
  if (humans.length === 1) return humans[0];
  return s.view ? s.view.to_move : 0;
}
