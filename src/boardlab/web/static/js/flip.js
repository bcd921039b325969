// @ts-check
// Board flip: the viewer turns the board half a turn (the other side at the bottom), by the
// #flip button or the "f" key, remembered in the browser. The boards read `isFlipped()` when
// they draw and redraw when it changes; the moves they send are the same either way.

import { onLangChange, t } from "./i18n.js";
import "./play-texts.js";

export const FLIP_STORE = "boardlab.flip";

/** The stored choice. @param {{getItem(k: string): string | null}} storage */
export function loadFlip(storage) {
  try {
    return storage.getItem(FLIP_STORE) === "1";
  } catch {
    return false; // no storage: never flipped
  }
}

/**
 * A point's place on a board of `n` points a side, counted from the drawing's left and top:
 * column `c` and row `r` counted from the bottom-left as the rules count them. Flipped, the
 * last column is drawn first and the first row on top.
 * @param {number} c @param {number} r @param {number} n @param {boolean} flipped
 * @returns {[number, number]}
 */
export function drawnAt(c, r, n, flipped) {
  return flipped ? [n - 1 - c, r] : [c, n - 1 - r];
}

/** @type {Record<string, string>} */
const OPPOSITE = { east: "west", west: "east", north: "south", south: "north" };

/** The edge of the drawing where a side's edge of the rules lies. @param {string} edge @param {boolean} flipped */
export function drawnEdge(edge, flipped) {
  return flipped ? OPPOSITE[edge] || edge : edge;
}

/**
 * Whether a key press means "flip": a plain f, not typed into a field and without Ctrl, Alt or
 * Meta (Shift+F counts too).
 * @param {{key: string, ctrlKey?: boolean, altKey?: boolean, metaKey?: boolean, target?: any}} ev
 */
export function isFlipKey(ev) {
  if (ev.key !== "f" && ev.key !== "F") return false;
  if (ev.ctrlKey || ev.altKey || ev.metaKey) return false;
  const tgt = ev.target;
  if (tgt && typeof tgt.closest === "function" && tgt.closest("input,textarea,select,[contenteditable=true]")) return false;
  return true;
}

let flipped = typeof localStorage === "undefined" ? false : loadFlip(localStorage);
/** @type {Set<() => void>} */
const listeners = new Set();

/** Whether the board is drawn turned round now. */
export function isFlipped() {
  return flipped;
}

/** Turn the board (or set it) and tell the boards. @param {boolean} [value] */
export function setFlipped(value = !flipped) {
  flipped = value;
  try {
    if (flipped) localStorage.setItem(FLIP_STORE, "1");
    else localStorage.removeItem(FLIP_STORE);
  } catch {
    // no storage: the choice lasts as long as the page
  }
  for (const f of [...listeners]) f();
}

/** Call `f` after each flip; returns the unsubscribe. @param {() => void} f */
export function onFlip(f) {
  listeners.add(f);
  return () => listeners.delete(f);
}

if (typeof document !== "undefined") {
  const button = document.getElementById("flip");
  const show = () => {
    if (!button) return;
    button.setAttribute("aria-pressed", String(flipped));
    const text = t("flip.title");
    button.title = text;
    const sr = button.querySelector(".sr");
    if (sr) sr.textContent = text;
  };
  if (button) {
    button.addEventListener("click", () => setFlipped());
    onFlip(show);
    onLangChange(show);
    show();
  }
  window.addEventListener("keydown", (ev) => {
    if (!isFlipKey(ev) || !document.getElementById("board")) return;
    if (document.querySelector("dialog[open]")) return;
    ev.preventDefault();
    setFlipped();
  });
}
