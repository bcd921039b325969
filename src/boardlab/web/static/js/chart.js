// The game so far as an SVG chart: remoteness per ply, each point coloured by the value
// of that position for the first player (draws sit on the axis).

import { t } from "./i18n.js";

const NS = "http://www.w3.org/2000/svg";
const FLIP = { win: "loss", loss: "win", draw: "draw" };

function el(name, attrs, parent) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  parent.appendChild(node);
  return node;
}

/** Draw `history` (list of {ply, to_move, value, remoteness}) into `host`. */
export function renderChart(host, history, players, onPick) {
  host.replaceChildren();
  if (!history || history.length === 0) return;
  const W = 320;
  const H = 150;
  const pad = { l: 30, r: 10, t: 12, b: 26 };
  const maxRem = Math.max(4, ...history.map((h) => h.remoteness || 0));
  const maxPly = Math.max(8, history.length - 1);
  const x = (ply) => pad.l + (ply / maxPly) * (W - pad.l - pad.r);
  const y = (rem) => H - pad.b - (rem / maxRem) * (H - pad.t - pad.b);
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("class", "chart-svg");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("chart.label"));
  host.appendChild(svg);
  for (const frac of [0, 0.5, 1]) {
    const rem = Math.round(maxRem * frac);
    el("line", { x1: pad.l, x2: W - pad.r, y1: y(rem), y2: y(rem), class: "grid" }, svg);
    el("text", { x: pad.l - 6, y: y(rem) + 4, class: "tick", "text-anchor": "end" }, svg).textContent = rem;
  }
  el("text", { x: W - pad.r, y: H - 6, class: "tick", "text-anchor": "end" }, svg).textContent = t("chart.ply");
  el("text", { x: pad.l, y: H - 6, class: "tick" }, svg).textContent = "0";
  const pts = history.map((h) => {
    const v = h.value === null ? null : h.to_move === 0 ? h.value : FLIP[h.value];
    return { ply: h.ply, v, rem: h.value === "draw" || h.remoteness === null ? 0 : h.remoteness };
  });
  const path = pts.map((p, i) => `${i ? "L" : "M"}${x(p.ply).toFixed(1)},${y(p.rem).toFixed(1)}`).join(" ");
  el("path", { d: path, class: "line" }, svg);
  for (const p of pts) {
    const c = el("circle", { cx: x(p.ply), cy: y(p.rem), r: 4.2, class: `pt v-${p.v || "none"}`, "data-ply": p.ply }, svg);
    const title = document.createElementNS(NS, "title");
    title.textContent = `${t("chart.ply")} ${p.ply}: ${p.v ? t(`value.${p.v}`) : "?"}${p.v && p.v !== "draw" ? ` (${p.rem})` : ""}`;
    c.appendChild(title);
    if (onPick) c.addEventListener("click", () => onPick(p.ply));
  }
  const legend = document.createElement("p");
  legend.className = "chart-legend";
  const first = t(`colour.${players[0]}`);
  legend.innerHTML = "";
  legend.append(t("chart.legend", { colour: first }) + " ");
  for (const v of ["win", "draw", "loss"]) {
    const s = document.createElement("span");
    s.className = `chip v-${v}`;
    s.textContent = t(`value.${v}`);
    legend.append(s, " ");
  }
  host.appendChild(legend);
}
