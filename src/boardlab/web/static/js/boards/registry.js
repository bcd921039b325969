// @ts-check
// The board renderers, by the name each game declares (`renderer` in /api/games): the module
// boards/<renderer>.js, loaded once, whose `createBoard` draws the game. A game that declares
// none, or whose module cannot be loaded, is drawn by the generic renderer. No game is named
// here: a new game's renderer is one new file beside the others.

import { createGenericBoard } from "./generic.js";

/** @type {Map<string, Function>} game name -> its board maker */
const makers = new Map();
/** @type {Map<string, string | null>} game name -> its setup stage (null: none) */
const setups = new Map();

/**
 * Load the renderer of every game of the catalogue (GET /api/games) and note its setup stage.
 * @param {{games: {name: string, renderer?: string | null, setup?: string | null}[]}} catalogue
 */
export async function loadRenderers(catalogue) {
  await Promise.all(
    catalogue.games.map(async (g) => {
      setups.set(g.name, g.setup || null);
      if (!g.renderer || !/^[a-z][a-z0-9_]*$/.test(g.renderer) || makers.has(g.name)) return;
      try {
        const mod = await import(`./${g.renderer}.js`);
        if (typeof mod.createBoard === "function") makers.set(g.name, mod.createBoard);
      } catch {
        // a renderer that cannot be loaded: the generic board draws the game
      }
    }),
  );
}

/** The board maker of a game: its declared renderer once loaded, else the generic one.
 * @param {string} game */
export function boardMaker(game) {
  return makers.get(game) || createGenericBoard;
}

/** Whether a game opens with a setup stage (a pie rule) before its first move.
 * @param {string} game */
export function hasSetup(game) {
  return !!setups.get(game);
}
