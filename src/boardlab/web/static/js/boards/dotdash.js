// @ts-check
// Dot Dash board: points with red and blue stones, five-in-a-rows drawn as lines, scores and
// reserves, and the pie setup as a two-step dialogue (place three stones, then choose). Against
// the computer the human first says who places: the computer then chooses or places through
// the handlers `onPieChoose(setup)` and `onPiePlace()` (promises), which the app answers. In a
// game with a friend on another device the view's `pie` is "place" (this player places: the
// three stones go to `onPiePlaced(setup)`) or "wait" (the friend is placing: an empty board).

import { drawnAt, isFlipped, onFlip } from "../flip.js";
import { getLang, t } from "../i18n.js";
import { moveEnds } from "../position.js";
import { motionOK } from "./dodgem.js";
import { pickPoint, targetRadius, zoomFactor, zoomScroll } from "./zoom.js";

const NS = "http://www.w3.org/2000/svg";
const COLS = "ABCDEFGHIJKLMNOPQRS";
const GAP = 60;
const PAD = 50;
/** @type {Record<string, string>} */
const COLOURS = { red: "#e0483e", blue: "#2f6fdf" };

/**
 * The pie dialogue under way: stones placed so far ([point, "R" | "B"]), against whom, and
 * whether the computer (or, "remote", the server) is answering.
 * @typedef {{placed: [string, string][], vs: "humans" | "computer" | "remote", busy: boolean}} Setup
 * @typedef {import("./dodgem.js").BoardView} BoardView
 * @typedef {import("./dodgem.js").BoardHandlers & {
 *   onSetup: (setup: string, colour: number, chooser: "human" | null) => void,
 *   onPieBegin: () => void, onPiePlace: () => Promise<string>, onPieChoose: (setup: string) => Promise<void>,
 *   onPiePlaced?: (setup: string) => Promise<boolean>, onError: (err: unknown) => void,
 *   onPieStage?: (placing: boolean) => void}} PieHandlers
 */

/** @param {number} c @param {number} r */
export const pointName = (c, r) => `${COLS[c]}${r + 1}`;
/** @param {string} s @returns {[number, number]} */
const parsePoint = (s) => [COLS.indexOf(s[0].toUpperCase()), Number(s.slice(1)) - 1];

/**
 * Stones by point ('G7' -> 'R'|'B'), board size and side to move, from position text.
 * @param {string} text @returns {{n: number, stones: Map<string, string>, toMove: string}}
 */
export function parsePosition(text) {
  const [board, side] = text.trim().split(/\s+/);
  const rows = board.split("/");
  const n = rows.length;
  /** @type {Map<string, string>} */
  const stones = new Map();
  rows.forEach((row, i) => {
    const r = n - 1 - i;
    let c = 0;
    for (const tok of row.match(/\d+|[RBrb]/g) || []) {
      if (/\d/.test(tok)) c += Number(tok);
      else {
        stones.set(pointName(c, r), tok.toUpperCase());
        c += 1;
      }
    }
  });
  return { n, stones, toMove: side.toLowerCase() === "r" ? "R" : "B" };
}

/** The element `sel` inside `root` (one that was just built there). @param {Element} root @param {string} sel */
const part = (root, sel) => /** @type {HTMLElement} */ (root.querySelector(sel));

/**
 * @param {string} name @param {Record<string, string | number>} [attrs] @param {Element | null} [parent]
 * @returns {SVGElement}
 */
function el(name, attrs = {}, parent = null) {
  const node = /** @type {SVGElement} */ (document.createElementNS(NS, name));
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (parent) parent.appendChild(node);
  return node;
}

/** @param {HTMLElement} host @param {PieHandlers} handlers */
export function createDotDashBoard(host, handlers) {
  const info = document.createElement("div");
  info.className = "dd-info";
  const svg = el("svg", { class: "board-svg dd", role: "grid", tabindex: "0" });
  // A tap needs no zoom: it picks the nearest stone that can move, or the nearest point a
  // selected stone can slide to, so every destination is reached on the whole board. Zoom
  // is there on demand (the button in the score line) for a closer look.
  const zoomButton = document.createElement("button");
  zoomButton.type = "button";
  zoomButton.id = "dd-zoom";
  zoomButton.className = "small";
  const scroller = document.createElement("div");
  scroller.className = "dd-scroller";
  scroller.appendChild(svg);
  host.replaceChildren(info, scroller);
  /** magnification now (1: the whole board) */
  let zoom = 1;
  /** @type {BoardView} set by the first update, before anything is drawn */
  let view = /** @type {any} */ (null);
  /** @type {{n: number, stones: Map<string, string>, toMove: string}} */
  let pos = /** @type {any} */ (null);
  /** @type {string | null} */
  let selected = null;
  /** @type {Setup | null} */
  let setup = null;
  /** @type {string | null} */
  let prevPosition = null;

  /** Slide the stone of `move` from its start; the dropped stones fade in behind it. */
  /** @param {string | null} move */
  function animate(move) {
    const ends = moveEnds(move);
    if (!ends || !ends.to || !motionOK()) return;
    const [c0, r0] = parsePoint(ends.from);
    const [c1, r1] = parsePoint(ends.to);
    const [x0, y0] = xy(c0, r0);
    const [x1, y1] = xy(c1, r1);
    const stone = svg.querySelector(`[data-stone="${ends.to.toUpperCase()}"]`);
    if (stone) stone.animate([{ transform: `translate(${x0 - x1}px, ${y0 - y1}px)` }, { transform: "translate(0px, 0px)" }], { duration: 220, easing: "ease-out" });
    const dc = Math.sign(c1 - c0);
    const dr = Math.sign(r1 - r0);
    for (const k of [1, 2]) {
      const drop = svg.querySelector(`[data-stone="${pointName(c1 - dc * k, r1 - dr * k)}"]`);
      if (drop) drop.animate([{ opacity: 0 }, { opacity: 0 }, { opacity: 1 }], { duration: 320 });
    }
  }

  const legal = () => new Set(view && view.interactive && !setup ? view.state.legal_moves : []);
  const colourOf = (/** @type {string} */ letter) => (letter === "R" ? "red" : "blue");
  /** Where point (c, r) is drawn, in board units (a flipped board turned round). */
  /** @param {number} c @param {number} r @returns {[number, number]} */
  const xy = (c, r) => {
    const [col, row] = drawnAt(c, r, pos.n, isFlipped());
    return [PAD + col * GAP, PAD + row * GAP];
  };

  function drawInfo() {
    info.replaceChildren();
    for (const letter of ["R", "B"]) {
      const box = document.createElement("div");
      box.className = `dd-side c-${colourOf(letter)}${pos.toMove === letter ? " to-move" : ""}`;
      box.innerHTML = '<span class="stone"></span><span class="name"></span><span class="score"></span><span class="reserve"></span>';
      part(box, ".name").textContent = t(`colour.${colourOf(letter)}`);
      const idx = letter === "R" ? 0 : 1;
      const facts = view.state.facts || {};
      part(box, ".score").textContent = t("dd.fives", { n: facts.fives ? facts.fives[idx] : 0 });
      const left = facts.reserves ? facts.reserves[idx] : null;
      part(box, ".reserve").textContent =
        left === null || left === undefined ? t("dd.unlimited") : t("dd.reserve", { n: Math.max(0, left) });
      info.appendChild(box);
    }
    const tools = document.createElement("div");
    tools.className = "dd-tools";
    if (view.pie && !setup) {
      const b = document.createElement("button");
      b.type = "button";
      b.id = "pie-setup";
      b.textContent = t("dd.pie");
      b.addEventListener("click", startSetup);
      tools.appendChild(b);
    }
    // zoom only where the points are small for a finger
    zoomButton.textContent = t(zoom > 1 ? "dd.zoomOut" : "dd.zoomIn");
    zoomButton.setAttribute("aria-pressed", String(zoom > 1));
    if (zoom > 1 || zoomFactor(cellPixels()) > 1) tools.appendChild(zoomButton);
    info.appendChild(tools);
  }

  /** The distance between two points on screen, in CSS pixels (a guess before layout). */
  function cellPixels() {
    const w = svg.getBoundingClientRect().width || scroller.clientWidth || host.clientWidth;
    return w ? (w * GAP) / boardUnits() : GAP;
  }

  /** whether a pie setup was under way at the last drawing (told to the page when it changes) */
  let reportedSetup = false;

  function draw() {
    if (!!setup !== reportedSetup) {
      reportedSetup = !!setup;
      const on = reportedSetup;
      if (handlers.onPieStage) queueMicrotask(() => handlers.onPieStage?.(on));
    }
    const n = pos.n;
    const size = PAD * 2 + (n - 1) * GAP;
    svg.replaceChildren();
    svg.setAttribute("viewBox", `0 0 ${size} ${size}`);
    svg.setAttribute("aria-label", t("dd.label", { n }));
    el("rect", { x: 6, y: 6, width: size - 12, height: size - 12, rx: 18, class: "dd-wood" }, svg);
    for (let i = 0; i < n; i++) {
      const [x0, y0] = xy(0, i);
      const [x1] = xy(n - 1, i);
      el("line", { x1: x0, y1: y0, x2: x1, y2: y0, class: "dd-grid" }, svg);
      const [cx, cy0] = xy(i, 0);
      const [, cy1] = xy(i, n - 1);
      el("line", { x1: cx, y1: cy0, x2: cx, y2: cy1, class: "dd-grid" }, svg);
      el("text", { x: cx, y: size - 10, class: "coord dd-coord" }, svg).textContent = COLS[i];
      el("text", { x: 17, y: y0 + 9, class: "coord dd-coord" }, svg).textContent = String(i + 1);
    }
    // last move: from, to and the two dropped stones
    const ends = !setup ? moveEnds(view.lastMove) : null;
    if (ends && ends.to) {
      const [c0, r0] = parsePoint(ends.from);
      const [c1, r1] = parsePoint(ends.to);
      const [x0, y0] = xy(c0, r0);
      const [x1, y1] = xy(c1, r1);
      el("line", { x1: x0, y1: y0, x2: x1, y2: y1, class: "dd-last-path" }, svg);
      el("circle", { cx: x0, cy: y0, r: 12, class: "dd-last from" }, svg);
      el("circle", { cx: x1, cy: y1, r: 28, class: "dd-last" }, svg);
    }
    for (let c = 0; c < n; c++) {
      for (let r = 0; r < n; r++) {
        const [x, y] = xy(c, r);
        el("rect", { x: x - GAP / 2, y: y - GAP / 2, width: GAP, height: GAP, class: "dd-hit", "data-pt": pointName(c, r) }, svg);
      }
    }
    const stones = setup ? new Map(setup.placed) : pos.stones;
    for (const [p, letter] of stones) {
      const [c, r] = parsePoint(p);
      const [x, y] = xy(c, r);
      const g = el("g", { class: `dd-stone c-${colourOf(letter)}`, "data-stone": p, "pointer-events": "none" }, svg);
      el("circle", { cx: x + 2, cy: y + 3, r: 23, class: "shadow" }, g);
      el("circle", { cx: x, cy: y, r: 23, fill: COLOURS[colourOf(letter)] }, g);
      el("circle", { cx: x - 7, cy: y - 8, r: 8, class: "shine" }, g);
    }
    for (const line of setup ? [] : (view.state.facts?.lines || [])) {
      const [x0, y0] = xy(...parsePoint(line.points[0]));
      const [x1, y1] = xy(...parsePoint(line.points[line.points.length - 1]));
      el("line", { x1: x0, y1: y0, x2: x1, y2: y1, class: `dd-five c-${view.state.players[line.player]}`, "pointer-events": "none" }, svg);
    }
    if (zoom > 1) drawRulers();
    if (selected) {
      const [c, r] = parsePoint(selected);
      const [x, y] = xy(c, r);
      el("circle", { cx: x, cy: y, r: 28, class: "selected" }, svg);
      for (const m of legal()) {
        const mm = m.toUpperCase().match(/^([A-S]\d+)([-X])([A-S]\d+)$/);
        if (!mm || mm[1] !== selected) continue;
        const [dc, dr] = parsePoint(mm[3]);
        const [dx, dy] = xy(dc, dr);
        const ev = view.evals ? view.evals.get(m) : null;
        el("circle", { cx: dx, cy: dy, r: targetRadius(cellPixels(), GAP, !!ev), "data-target": mm[3], class: `target${ev ? ` v-${ev.value}` : ""}${mm[2] === "X" ? " capture" : ""}`, "pointer-events": "none" }, svg);
        if (ev && ev.remoteness !== null && ev.remoteness !== undefined) {
          el("text", { x: dx, y: dy + 6, class: "rem small", "pointer-events": "none" }, svg).textContent = String(ev.remoteness);
        }
      }
    }
  }

  /** Zoomed, the board's edges scroll away: coordinates that stay at the visible left and bottom. */
  function drawRulers() {
    const n = pos.n;
    const size = boardUnits();
    const rows = el("g", { class: "dd-ruler rows", "pointer-events": "none" }, svg);
    el("rect", { x: 0, y: 6, width: 38, height: size - 12, class: "dd-ruler-bg" }, rows);
    const cols = el("g", { class: "dd-ruler cols", "pointer-events": "none" }, svg);
    el("rect", { x: 6, y: size - 34, width: size - 12, height: 28, class: "dd-ruler-bg" }, cols);
    for (let i = 0; i < n; i++) {
      const [x, y] = xy(i, i);
      el("text", { x, y: size - 10, class: "coord dd-coord" }, cols).textContent = COLS[i];
      el("text", { x: 19, y: y + 9, class: "coord dd-coord" }, rows).textContent = String(i + 1);
    }
    placeRulers();
  }

  /** Keep the rulers on the visible edges of the zoomed board. */
  function placeRulers() {
    const cols = svg.querySelector(".dd-ruler.cols");
    const rows = svg.querySelector(".dd-ruler.rows");
    if (!cols || !rows || zoom === 1) return;
    const per = boardUnits() / svg.getBoundingClientRect().width; // SVG units per CSS pixel
    const bottom = (scroller.scrollTop + scroller.clientHeight) * per;
    cols.setAttribute("transform", `translate(0 ${bottom - boardUnits()})`);
    rows.setAttribute("transform", `translate(${scroller.scrollLeft * per} 0)`);
  }

  /** @param {string} p */
  function activate(p) {
    if (setup) {
      setupClick(p);
      return;
    }
    const blocked = handlers.canAct();
    if (blocked) {
      handlers.onIllegal(blocked);
      return;
    }
    const stone = pos.stones.get(p);
    if (stone === pos.toMove) {
      selected = selected === p ? null : p;
      if (selected && ![...legal()].some((m) => m.toUpperCase().startsWith(p) && /[-X]/.test(m.toUpperCase()[p.length]))) {
        handlers.onIllegal(t("dd.stuck", { pt: p }));
      } else handlers.onIllegal(null);
      draw();
      return;
    }
    if (!selected) {
      handlers.onIllegal(stone ? t("dd.notYours", { sq: p, colour: t(`colour.${colourOf(stone)}`), mover: t(`colour.${colourOf(pos.toMove)}`) }) : t("dd.pick", { colour: t(`colour.${colourOf(pos.toMove)}`) }));
      return;
    }
    const move = [...legal()].find((m) => {
      const u = m.toUpperCase();
      return u === `${selected}-${p}` || u === `${selected}X${p}`;
    });
    if (move) {
      selected = null;
      zoomOut();
      handlers.onMove(move);
    } else handlers.onIllegal(t("dd.slide"));
  }

  // -- pie setup: step 1 place one stone of one colour and two of the other; step 2 choose --
  function startSetup() {
    if (view.pie === "computer") {
      handlers.onPieBegin();
      askPlacer();
      return;
    }
    const blocked = handlers.canAct();
    if (blocked) {
      handlers.onIllegal(blocked);
      return;
    }
    beginPlacing("humans");
  }

  /** @param {"humans" | "computer"} vs */
  function beginPlacing(vs) {
    setup = { placed: [], vs, busy: false };
    selected = null;
    handlers.onIllegal(t("dd.setup1"));
    drawInfo();
    draw();
  }

  /**
   * A small modal dialog with a title, a line of text and buttons [[key, label, action]].
   * @param {string} id @param {string} title @param {string} text
   * @param {[[string, string] | null, string, () => void, boolean][]} buttons
   */
  function modal(id, title, text, buttons) {
    const dlg = document.createElement("dialog");
    dlg.className = "dialog";
    dlg.id = id;
    dlg.innerHTML = '<h2></h2><p></p><div class="row-buttons"></div>';
    part(dlg, "h2").textContent = title;
    part(dlg, "p").textContent = text;
    const row = part(dlg, ".row-buttons");
    for (const [data, label, action, primary] of buttons) {
      const b = document.createElement("button");
      b.type = "button";
      if (data) b.dataset[data[0]] = data[1];
      if (primary) b.className = "primary";
      b.textContent = label;
      b.addEventListener("click", () => {
        dlg.close();
        dlg.remove();
        action();
      });
      row.appendChild(b);
    }
    dlg.addEventListener("cancel", () => dlg.remove());
    document.body.appendChild(dlg);
    dlg.showModal();
  }

  function askPlacer() {
    modal("pie-who", t("dd.pieTitle"), t("dd.whoPlaces"), [
      [["placer", "me"], t("dd.placeMe"), () => beginPlacing("computer"), true],
      [["placer", "computer"], t("dd.placeComputer"), computerPlaces, true],
      [null, t("dd.cancel"), () => handlers.onIllegal(null), false],
    ]);
  }

  async function computerPlaces() {
    setup = { placed: [], vs: "computer", busy: true };
    selected = null;
    drawInfo();
    draw();
    handlers.onIllegal(t("dd.piePlacing"));
    let text;
    try {
      text = await handlers.onPiePlace();
    } catch (err) {
      setup = null;
      handlers.onError(err);
      drawInfo();
      draw();
      return;
    }
    setup.placed = setupStones(text);
    setup.busy = false;
    handlers.onIllegal(null);
    draw();
    askChoice(text);
  }

  /**
   * [[point, 'R'|'B']] from setup text such as `setup R:G7 B:G8,H7 r`.
   * @param {string} text @returns {[string, string][]}
   */
  function setupStones(text) {
    /** @type {[string, string][]} */
    const out = [];
    for (const tok of text.trim().split(/\s+/)) {
      const m = tok.match(/^([RB]):(.+)$/i);
      if (m) for (const p of m[2].split(",")) out.push([p.toUpperCase(), m[1].toUpperCase()]);
    }
    return out;
  }

  /** What the computer placed, in words, and who moves first. @param {[string, string][]} placed */
  function placedLine(placed) {
    const on = (/** @type {string} */ letter) => placed.filter(([, c]) => c === letter).map(([q]) => q).join(", ");
    const single = placed.filter(([, c]) => c === "R").length === 1 ? "red" : "blue";
    const word = t(`colour.${single}`);
    return t("dd.computerPlaced", { red: on("R"), blue: on("B"), first: getLang() === "en" ? word.toLowerCase() : word });
  }

  /** @param {[string, string][]} placed */
  function setupText(placed) {
    const reds = placed.filter(([, c]) => c === "R").map(([q]) => q);
    const blues = placed.filter(([, c]) => c === "B").map(([q]) => q);
    const first = reds.length === 1 ? "r" : "b";
    return `setup R:${reds.join(",")} B:${blues.join(",")} ${first}`;
  }

  /** @param {string} p */
  function setupClick(p) {
    if (!setup || setup.busy) return;
    const idx = setup.placed.findIndex(([q]) => q === p);
    if (idx >= 0) setup.placed.splice(idx, 1);
    else if (setup.placed.length < 3) setup.placed.push([p, setup.placed.length === 0 ? "R" : "B"]);
    draw();
    if (setup.placed.length === 3) zoomOut();
    if (setup.placed.length < 3) handlers.onIllegal(t("dd.setup1"));
    else if (setup.vs === "computer") computerChooses();
    else if (setup.vs === "remote") sendPlacement();
    else askChoice();
  }

  /** Send the three stones to the friend's game; refused, they stay to be changed. */
  async function sendPlacement() {
    const current = setup;
    if (!current || !handlers.onPiePlaced) return;
    current.busy = true;
    const ok = await handlers.onPiePlaced(setupText(current.placed));
    if (!ok && setup === current) current.busy = false;
  }

  async function computerChooses() {
    const current = setup;
    if (!current) return;
    const text = setupText(current.placed);
    current.busy = true;
    handlers.onIllegal(t("dd.pieChoosing"));
    try {
      await handlers.onPieChoose(text);
      setup = null;
    } catch (err) {
      // keep the stones so one can be moved, and say what was wrong
      current.busy = false;
      handlers.onError(err);
    }
    drawInfo();
    draw();
  }

  /** @param {string | null} [placedText] */
  function askChoice(placedText = null) {
    const dlg = document.createElement("dialog");
    dlg.className = "dialog";
    dlg.id = "pie-dialog";
    dlg.innerHTML = '<h2></h2><p></p><div class="row-buttons"></div>';
    part(dlg, "h2").textContent = t("dd.setup2title");
    part(dlg, "p").textContent = placedText && setup ? placedLine(setup.placed) : t("dd.setup2");
    const row = part(dlg, ".row-buttons");
    for (const letter of ["R", "B"]) {
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.choose = letter;
      b.className = "primary";
      b.textContent = t("dd.choose", { colour: t(`colour.${colourOf(letter)}`) });
      b.addEventListener("click", () => finish(letter));
      row.appendChild(b);
    }
    const cancel = document.createElement("button");
    cancel.type = "button";
    cancel.textContent = t("dd.cancel");
    cancel.addEventListener("click", () => finish(null));
    row.appendChild(cancel);
    dlg.addEventListener("cancel", (ev) => {
      ev.preventDefault();
      finish(null);
    });
    document.body.appendChild(dlg);
    dlg.showModal();

    /** @param {string | null} letter */
    function finish(letter) {
      dlg.close();
      dlg.remove();
      if (!setup) return;
      const placed = setup.placed;
      const vs = setup.vs;
      setup = null;
      if (!letter) {
        handlers.onIllegal(null);
        drawInfo();
        draw();
        return;
      }
      // against the computer the human is the chooser here; two humans: side B chooses
      handlers.onSetup(placedText || setupText(placed), letter === "R" ? 0 : 1, vs === "computer" ? "human" : null);
    }
  }

  /** The whole board's size in the SVG's own units. */
  const boardUnits = () => PAD * 2 + (pos.n - 1) * GAP;

  /** Magnify so that points are a finger apart, centred on the selected stone (or the last
   * move, or the middle). */
  function zoomIn() {
    const k = zoomFactor(cellPixels());
    if (k <= 1) return;
    const w = scroller.clientWidth;
    const h = scroller.clientHeight;
    const ends = moveEnds(view.lastMove);
    const focus = selected || (ends && ends.to ? ends.to.toUpperCase() : null);
    const [c, r] = focus ? parsePoint(focus) : [(pos.n - 1) / 2, (pos.n - 1) / 2];
    const [ux, uy] = xy(c, r);
    zoom = k;
    scroller.classList.add("zoomed");
    svg.style.width = `${k * 100}%`;
    const { left, top } = zoomScroll({ x: (ux / boardUnits()) * w, y: (uy / boardUnits()) * h, w, h, vw: w, vh: h, k });
    scroller.scrollTo(left, top);
    drawInfo();
    draw();
  }

  function zoomOut() {
    if (zoom === 1) return;
    zoom = 1;
    scroller.classList.remove("zoomed");
    svg.style.width = "";
    scroller.scrollTo(0, 0);
    if (view) {
      drawInfo();
      draw();
    }
  }

  zoomButton.addEventListener("click", () => (zoom > 1 ? zoomOut() : zoomIn()));
  scroller.addEventListener("scroll", placeRulers, { passive: true });
  const unflip = onFlip(() => {
    if (!svg.isConnected) unflip(); // a board the page has replaced
    else if (view) draw();
  });

  /** The points a tap may mean now: stones of the side to move that can slide, and the
   * points the selected stone can slide to. */
  function candidates() {
    if (setup || !view || !view.interactive) return [];
    /** @type {Set<string>} */
    const out = new Set();
    for (const m of legal()) {
      const mm = m.toUpperCase().match(/^([A-S]\d+)[-X]([A-S]\d+)$/);
      if (!mm) continue;
      out.add(mm[1]);
      if (mm[1] === selected) out.add(mm[2]);
    }
    return [...out].map((p) => {
      const [c, r] = parsePoint(p);
      const [x, y] = xy(c, r);
      return { p, x, y };
    });
  }

  svg.addEventListener("click", (ev) => {
    if (!view) return;
    const rect = svg.getBoundingClientRect();
    const per = boardUnits() / rect.width; // SVG units per CSS pixel
    const ux = (ev.clientX - rect.left) * per;
    const uy = (ev.clientY - rect.top) * per;
    const near = /** @type {HTMLElement | null} */ (/** @type {Element} */ (ev.target).closest("[data-pt]"));
    const grid = near && near.dataset.pt ? near.dataset.pt : null;
    const p = pickPoint({ x: ux, y: uy, gap: GAP, perPixel: per, grid, candidates: candidates() });
    if (p) activate(p);
  });

  return {
    /** Redraw for a new state. @param {BoardView} next */
    update(next) {
      const samePos = view && view.state.position === next.state.position;
      view = next;
      pos = parsePosition(next.state.position);
      if (next.pie === "place" || next.pie === "wait") {
        // the friend game's setup stage: stones placed here, or an empty board while the friend places
        if (next.pie === "wait") setup = { placed: [], vs: "remote", busy: true };
        else if (!setup || setup.vs !== "remote") setup = { placed: [], vs: "remote", busy: false };
      } else if (setup && setup.vs === "remote") setup = null;
      if (!samePos || !next.interactive) selected = null;
      if (!samePos) zoomOut();
      drawInfo();
      draw();
      const positions = next.state.positions || [];
      if (prevPosition && !next.preview && positions.length >= 2 && positions[positions.length - 2] === prevPosition) {
        animate(next.lastMove);
      }
      prevPosition = next.preview ? null : next.state.position;
    },
    redraw() {
      if (view) {
        drawInfo();
        draw();
      }
    },
  };
}

/** The renderer entry that boards/registry.js loads by the declared name. */
export const createBoard = createDotDashBoard;
