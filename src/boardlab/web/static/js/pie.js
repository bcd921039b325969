// @ts-check
// The pie rule on the main page, for a game that declares a setup stage: when the board
// offers the setup, when a fresh game waits for it, what the note after it says, and the
// page's answers to the board's pie dialogue (the computer placing the stones, or choosing a
// colour for the stones placed here, then the game from that setup). The computer's part is
// asked on the turn loop's abort signal: a newer game aborts it, and its answer never lands.

import { api } from "./api.js";
import { hasSetup } from "./boards/registry.js";
import { t } from "./i18n.js";
import { humanColourAfterPie, isComputer, seatsAfterPie, versusComputer } from "./seating.js";
import { resultOf, seats, store, writeSettings } from "./state.js";
import { loadTally } from "./record.js";
import { abortError } from "./turnloop.js";

/** @typedef {import("./state.js").State} State */

const S = () => store.get();

/**
 * The setup the board offers now: "computer" (a fresh game against the computer, before
 * its first move), "humans" (two humans, to the one whose turn it is), or null (no offer:
 * a game without a setup stage, a game over, two computers, or the computer to move).
 * @param {State} s @returns {"computer" | "humans" | null}
 */
export function pieOffer(s) {
  if (!s.view || !hasSetup(s.view.game) || resultOf(s)) return null;
  const sides = s.settings.sides;
  if (versusComputer(sides)) return !s.game.start && s.view.moves.length === 0 ? "computer" : null;
  if (sides.every(isComputer)) return null;
  return isComputer(seats(s)[s.view.to_move]) ? null : "humans";
}

/** Whether a fresh game against the computer waits for the pie (the computer would move
 * first): it starts paused. @param {State} s */
export function pieWaits(s) {
  return hasSetup(s.game.game) && !s.game.start && versusComputer(s.settings.sides) && isComputer(seats(s)[0]);
}

/**
 * The note after the pie against the computer: who chose which colour ("" without one).
 * @param {{chooser: string, human: number} | null} note @param {(colour: number) => string} colourWord
 */
export function pieNoteText(note, colourWord) {
  if (!note) return "";
  const { chooser, human } = note;
  return chooser === "human"
    ? t("dd.youChose", { colour: colourWord(human), other: colourWord(1 - human) })
    : t("dd.computerChose", { colour: colourWord(1 - human), other: colourWord(human) });
}

/**
 * @typedef {object} PieDeps
 * @property {import("./turnloop.js").Runner} runner  the page's turn loop
 * @property {(start: string | null) => Promise<void>} freshGame  a new game from a setup
 * @property {() => void} drive  the computers' turns
 * @property {(text: string | null, kind?: string, ms?: number) => void} showMessage
 * @property {(err: any) => string} errorText
 * @property {() => void} fillSetup  the New game menus redrawn from the settings
 * @property {() => string} pieText  the note after the pie, in the page's words
 */

/**
 * The page's answers to the board's pie dialogue (the board's handlers of the same names).
 * @param {PieDeps} deps
 */
export function createPie({ runner, freshGame, drive, showMessage, errorText, fillSetup, pieText }) {
  /** A game from the pie's setup. Against the computer `chooser` ("human" or "computer")
   * took `chooserColour` and the players are seated from that; two humans: side B chose.
   * @param {string} setup @param {number} chooserColour @param {"human" | "computer" | null} [chooser] */
  async function onSetup(setup, chooserColour, chooser = null) {
    runner.cancel();
    const s = S();
    if (chooser) {
      const human = humanColourAfterPie(chooser, chooserColour);
      const seated = seatsAfterPie(s.settings.sides, human);
      writeSettings({ ...s.settings, sides: seated.sides });
      store.set({ swapped: seated.swapped, pieNote: { chooser, human }, tally: loadTally(localStorage, S().settings) });
      fillSetup();
    } else {
      store.set({ swapped: chooserColour === 0, pieNote: null });
    }
    try {
      await freshGame(setup);
    } catch (err) {
      showMessage(errorText(err), "error");
      return;
    }
    const said = pieText();
    if (said) showMessage(said, "info", 15000);
    drive();
  }

  /** The computer's part, on the turn loop's signal: an AbortError once a newer game (or
   * anything else the loop starts) took over.
   * @param {"place" | "choose"} role @param {string | null} setup */
  async function ask(role, setup) {
    const s = S();
    const level = /** @type {string} */ (s.settings.sides.find(isComputer));
    const res = await runner.start((signal) => api.pie(s.game, role, setup, level, s.seed, signal));
    if (res === undefined) throw abortError();
    return res;
  }

  return {
    onSetup,
    /** The pie against the computer begins: the computer waits. */
    onPieBegin: () => {
      runner.cancel();
      store.set({ paused: true, thinking: false });
    },
    /** The computer places the stones: their setup text. */
    onPiePlace: async () => /** @type {string} */ ((await ask("place", null)).setup),
    /** The computer chooses a colour for the stones placed here; the game starts from them.
     * @param {string} setup */
    onPieChoose: async (setup) => {
      const res = await ask("choose", setup);
      await onSetup(res.setup, res.colour, "computer");
    },
    /** Whether stones are being placed on the board (the page's notices follow it).
     * @param {boolean} placing */
    onPieStage: (placing) => {
      if (S().pieStage !== placing) store.set({ pieStage: placing });
    },
  };
}
