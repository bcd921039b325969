// @ts-check
// Tap-to-zoom for boards whose points are too small to hit with a finger. A first tap on such a
// board only zooms it, centred on the tap; taps on the zoomed board then act, and "Zoom out"
// (or a move) brings the whole board back. Pure figures here; the board does the DOM.

/** The smallest comfortable tap target in CSS pixels (Apple asks for 44, Material for 48). */
export const MIN_TARGET = 44;
/** Below this effective target a tap zooms first. */
export const ZOOM_BELOW = 40;

/**
 * How much to magnify a board whose points are `cell` CSS pixels apart: 1 when they are big
 * enough already, otherwise at least 2 and enough for MIN_TARGET.
 * @param {number} cell @returns {number}
 */
export function zoomFactor(cell) {
  if (!(cell > 0) || cell >= ZOOM_BELOW) return 1;
  return Math.max(2, Math.ceil((MIN_TARGET / cell) * 100) / 100);
}

/**
 * Scroll offsets that put the point tapped at (`x`, `y`) (CSS pixels in the unzoomed board of
 * width `w` and height `h`) in the middle of a viewport of `vw` by `vh` after zooming by `k`,
 * kept inside the zoomed board.
 * @param {{x: number, y: number, w: number, h: number, vw: number, vh: number, k: number}} a
 * @returns {{left: number, top: number}}
 */
export function zoomScroll({ x, y, w, h, vw, vh, k }) {
  const clamp = (/** @type {number} */ v, /** @type {number} */ hi) => Math.round(Math.min(Math.max(v, 0), Math.max(hi, 0)));
  return { left: clamp(x * k - vw / 2, w * k - vw), top: clamp(y * k - vh / 2, h * k - vh) };
}
