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

/**
 * The point a tap means. `grid` is the point whose square was hit (null outside the grid);
 * `candidates` are the points that make sense now (stones that can move, the selected
 * stone's destinations), in board units like (`x`, `y`). A hit candidate is taken as hit;
 * otherwise the nearest candidate within a finger's reach (half a point apart, at least 24
 * CSS pixels, never a whole point) wins over the bare square, so small boards need no zoom.
 * @param {{x: number, y: number, gap: number, perPixel: number, grid: string | null,
 *   candidates: {p: string, x: number, y: number}[]}} a
 * @returns {string | null}
 */
export function pickPoint({ x, y, gap, perPixel, grid, candidates }) {
  if (grid && candidates.some((c) => c.p === grid)) return grid;
  const reach = Math.min(gap, Math.max(gap / 2, 24 * perPixel));
  let best = null;
  let bestD = Infinity;
  for (const c of candidates) {
    const d = Math.hypot(c.x - x, c.y - y);
    if (d < reach && d < bestD) {
      best = c.p;
      bestD = d;
    }
  }
  return best ?? grid;
}

/**
 * A destination dot's radius in board units for points `cell` CSS pixels apart (`gap`
 * units apart): at least 5 CSS pixels so it is seen on a phone, larger when it carries a
 * value, and never more than 0.28 of the gap so that it stays clear of its neighbours and of
 * the coordinates at the board's edges.
 * @param {number} cell @param {number} gap @param {boolean} withValue
 */
export function targetRadius(cell, gap, withValue) {
  const base = withValue ? 16 : 11;
  const seen = cell > 0 ? (5 * gap) / cell : base;
  return Math.min(0.28 * gap, Math.max(base, seen));
}
