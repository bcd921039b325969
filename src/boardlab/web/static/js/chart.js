// @ts-check
// The value history in the style GamesmanUni players know: the middle line is a draw, wins
// for the first player lie above it and losses below, and the distance from the outer edge
// is the distance to the end (a win now sits on the top edge). Hovering or tapping a point
// previews that position; clicking it goes there.

import { t } from "./i18n.js";

const NS = "http://www.w3.org/2000/svg";
/** @type {Record<string, string>} */
const FLIP = { win: "loss", loss: "win", draw: "draw" };

/**
 * @param {string} name @param {Record<string, string | number>} attrs @param {Element} parent
 * @returns {SVGElement}
 */
function el(name, attrs, parent) {
  const node = /** @type {SVGElement} */ (document.createElementNS(NS, name));
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  parent.appendChild(node);
  return node;
}

/**
 * @typedef {{ply: number, to_move: number, value: string | null, remoteness: number | null}} PlyValue
 */

/**
 * One point per position, from the first player's view: value and height (+ above the
 * draw line, - below; |height| grows as the end comes nearer). `top` is the largest
 * remoteness shown.
 * @param {PlyValue[]} history
 * @returns {{points: {ply: number, v: string | null, rem: number | null}[], top: number}}
 */
export function chartPoints(history) {
  const points = history.map((h) => {
    const v = h.value === null ? null : h.to_move === 0 ? h.value : FLIP[h.value];
    return { ply: h.ply, v, rem: v === "draw" ? null : h.remoteness };
  });
  const top = Math.max(4, ...points.map((p) => p.rem ?? 0));
  return { points, top };
}

/**
 * Draw `history` into `host`.
 * @param {HTMLElement} host
 * @param {PlyValue[]} history
 * @param {readonly string[]} players
 * @param {{onPick?: (ply: number) => void, onPreview?: (ply: number | null) => void}} handlers
 */
export function renderChart(host, history, players, handlers = {}) {
  host.replaceChildren();
  if (!history || history.length === 0) return;
  const W = 340;
  const H = 200;
  const pad = { l: 44, r: 8, t: 16, b: 34 };
  const { points, top } = chartPoints(history);
  const maxPly = Math.max(8, history.length - 1);
  const mid = pad.t + (H - pad.t - pad.b) / 2;
  const half = (H - pad.t - pad.b) / 2;
  const x = (/** @type {number} */ ply) => pad.l + (ply / maxPly) * (W - pad.l - pad.r);
  /** height: a win in 0 on the top edge, in `top` plies next to the middle */
  const y = (/** @type {string | null} */ v, /** @type {number | null} */ rem) => {
    if (v !== "win" && v !== "loss") return mid;
    const off = half * (1 - (rem ?? 0) / (top + 1));
    return v === "win" ? mid - off : mid + off;
  };
  const svg = /** @type {SVGSVGElement} */ (document.createElementNS(NS, "svg"));
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("class", "chart-svg");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("chart.label"));
  host.appendChild(svg);
  const first = t(`colour.${players[0]}`);
  el("rect", { x: pad.l, y: pad.t, width: W - pad.l - pad.r, height: half, class: "zone win" }, svg);
  el("rect", { x: pad.l, y: mid, width: W - pad.l - pad.r, height: half, class: "zone loss" }, svg);
  el("line", { x1: pad.l, x2: W - pad.r, y1: mid, y2: mid, class: "mid" }, svg);
  // remoteness ticks: 0 at the edges, the largest next to the middle
  for (const rem of [0, Math.round(top / 2)]) {
    for (const v of ["win", "loss"]) {
      el("text", { x: pad.l - 4, y: y(v, rem) + 3, class: "tick", "text-anchor": "end" }, svg).textContent = String(rem);
    }
  }
  // wins and losses named at the left: a decided game ends on an outer edge at the right
  const right = { "text-anchor": "end" };
  el("text", { x: pad.l + 4, y: pad.t + 13, class: "zone-label win" }, svg).textContent = t("chart.wins", { colour: first });
  el("text", { x: pad.l + 4, y: H - pad.b - 4, class: "zone-label loss" }, svg).textContent = t("chart.loses", { colour: first });
  el("text", { x: W - pad.r - 3, y: mid - 3, class: "zone-label draw", ...right }, svg).textContent = t("chart.draw");
  // axis titles
  el("text", { x: (pad.l + W - pad.r) / 2, y: H - 4, class: "axis-title", "text-anchor": "middle" }, svg).textContent = t("chart.x");
  el("text", { x: 12, y: mid, class: "axis-title", "text-anchor": "middle", transform: `rotate(-90 12 ${mid})` }, svg).textContent = t("chart.y");
  for (const ply of [0, maxPly]) {
    el("text", { x: x(ply), y: H - pad.b + 12, class: "tick", "text-anchor": "middle" }, svg).textContent = String(ply);
  }
  const known = points.filter((p) => p.v);
  if (known.length) {
    const d = known.map((p, i) => `${i ? "L" : "M"}${x(p.ply).toFixed(1)},${y(p.v, p.rem).toFixed(1)}`).join(" ");
    el("path", { d, class: "line" }, svg);
  }
  for (const p of points) {
    const c = el("circle", { cx: x(p.ply), cy: y(p.v, p.rem), r: 5, class: `pt v-${p.v || "none"}`, "data-ply": p.ply, tabindex: 0 }, svg);
    const title = document.createElementNS(NS, "title");
    const val = p.v ? t(`value.${p.v}`) : "?";
    title.textContent = `${t("chart.ply")} ${p.ply}: ${val}${p.v && p.v !== "draw" ? ` (${p.rem})` : ""}`;
    c.appendChild(title);
    c.addEventListener("pointerenter", () => handlers.onPreview?.(p.ply));
    c.addEventListener("focus", () => handlers.onPreview?.(p.ply));
    c.addEventListener("pointerleave", () => handlers.onPreview?.(null));
    c.addEventListener("blur", () => handlers.onPreview?.(null));
    c.addEventListener("click", () => handlers.onPick?.(p.ply));
  }
}

/**
 * The search's estimates of a game, where no table exists: the first colour's estimated share
 * of each position (1 at the top, an even position on the middle line), a gap where a
 * position is not estimated yet. `label` names the chart (the estimate and its depth).
 * @param {HTMLElement} host
 * @param {{ply: number, share: number | null}[]} points
 * @param {readonly string[]} players
 * @param {string} label
 * @param {{onPick?: (ply: number) => void}} handlers
 */
export function renderShareChart(host, points, players, label, handlers = {}) {
  host.replaceChildren();
  if (!points.length) return;
  const W = 340;
  const H = 200;
  const pad = { l: 44, r: 8, t: 16, b: 34 };
  const maxPly = Math.max(8, points.length - 1);
  const mid = pad.t + (H - pad.t - pad.b) / 2;
  const half = (H - pad.t - pad.b) / 2;
  const x = (/** @type {number} */ ply) => pad.l + (ply / maxPly) * (W - pad.l - pad.r);
  const y = (/** @type {number} */ share) => mid - (share - 0.5) * 2 * half;
  const svg = /** @type {SVGSVGElement} */ (document.createElementNS(NS, "svg"));
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("class", "chart-svg estimate-chart");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  host.appendChild(svg);
  const first = t(`colour.${players[0]}`);
  el("rect", { x: pad.l, y: pad.t, width: W - pad.l - pad.r, height: half, class: "zone win" }, svg);
  el("rect", { x: pad.l, y: mid, width: W - pad.l - pad.r, height: half, class: "zone loss" }, svg);
  el("line", { x1: pad.l, x2: W - pad.r, y1: mid, y2: mid, class: "mid" }, svg);
  for (const pct of [100, 50, 0]) {
    el("text", { x: pad.l - 4, y: y(pct / 100) + 3, class: "tick", "text-anchor": "end" }, svg).textContent = `${pct}%`;
  }
  // whose share it is stands above the plot, where no point can cover it
  el("text", { x: pad.l, y: pad.t - 4, class: "zone-label share" }, svg).textContent = t("chart.share", { colour: first });
  el("text", { x: (pad.l + W - pad.r) / 2, y: H - 4, class: "axis-title", "text-anchor": "middle" }, svg).textContent = t("chart.x");
  for (const ply of [0, maxPly]) {
    el("text", { x: x(ply), y: H - pad.b + 12, class: "tick", "text-anchor": "middle" }, svg).textContent = String(ply);
  }
  // the line breaks where a position has no estimate yet
  let d = "";
  let pen = false;
  for (const p of points) {
    if (p.share === null) {
      pen = false;
      continue;
    }
    d += `${pen ? "L" : "M"}${x(p.ply).toFixed(1)},${y(p.share).toFixed(1)} `;
    pen = true;
  }
  if (d) el("path", { d: d.trim(), class: "line" }, svg);
  for (const p of points) {
    if (p.share === null) continue;
    const v = p.share > 0.55 ? "win" : p.share < 0.45 ? "loss" : "draw";
    const c = el("circle", { cx: x(p.ply), cy: y(p.share), r: 4, class: `pt v-${v}`, "data-ply": p.ply, tabindex: 0 }, svg);
    const title = document.createElementNS(NS, "title");
    title.textContent = `${t("chart.ply")} ${p.ply}: ${first} ${Math.round(p.share * 100)}%`;
    c.appendChild(title);
    c.addEventListener("click", () => handlers.onPick?.(p.ply));
  }
}
