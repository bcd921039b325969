// @ts-check
// Dodgem board: SVG, mouse, touch and keyboard. The renderer knows the geometry of the
// variant so it can explain an illegal attempt; the server's legal move list is the truth.

import { drawnAt, drawnEdge, isFlipped, onFlip } from "../flip.js";
import { t } from "../i18n.js";
import { moveEnds, parsePosition as readPosition, parseSquare, squareName } from "../position.js";

const NS = "http://www.w3.org/2000/svg";
const FILES = "abcdefghijklmnopqrs";
const CELL = 100;
const STRIP = 52;
const LABEL = 30;
const DOUBLE_MS = 450;
/** @type {Record<string, string>} */
export const COLOURS = { blue: "#2f6fdf", red: "#e0483e", green: "#1f9d63" };
/** @type {Record<string, number>} */
const ANGLE = { east: 0, north: -90, south: 90, west: 180 };
/** The arrow keys' steps as drawn (right, up, ...), in files and ranks. */
/** @type {Record<string, number[]>} */
const KEY_STEPS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
/** @type {Record<string, string>} */
const DIRS = { "1,0": "east", "-1,0": "west", "0,1": "north", "0,-1": "south" };

/**
 * What a board draws: the server's state and how the page sees it now.
 * @typedef {object} BoardView
 * @property {any} state the server's state (StateOut), with `facts`
 * @property {boolean} [preview] an earlier position shown from the chart
 * @property {string | null} lastMove
 * @property {number} lastMover
 * @property {Map<string, {move: string, value: string, remoteness: number | null}> | null} evals
 * @property {boolean} interactive
 * @property {string | null} [pie]
 *
 * @typedef {object} BoardHandlers
 * @property {(move: string) => void} onMove
 * @property {(text: string | null) => void} onIllegal
 * @property {() => string | null} canAct
 *
 * @typedef {{n: number, top: number, right: number, bottom: number, left: number, south: boolean, flipped: boolean, w: number, h: number}} Layout
 */

export { squareName };

/** Whether moves should glide (off when the user prefers reduced motion). */
export function motionOK() {
  return !(typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches);
}

/**
 * Steps and exit edge of both players, from the facts the server sends with the state.
 * @param {{steps: number[][][], exits: string[]}} facts
 */
function geometryOf(facts) {
  return facts.steps.map((steps, p) => ({ steps, exit: facts.exits[p] }));
}

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

/** @param {Element} parent @param {string} colour @param {number} player @param {number} angle */
function carShape(parent, colour, player, angle) {
  const g = el("g", { class: `car car-${player}`, transform: `rotate(${angle})` }, parent);
  el("ellipse", { cx: 3, cy: 6, rx: 38, ry: 30, class: "car-shadow" }, g);
  for (const [x, y] of [[-22, -30], [14, -30], [-22, 24], [14, 24]]) {
    el("rect", { x, y, width: 14, height: 7, rx: 3, class: "wheel" }, g);
  }
  el("rect", { x: -36, y: -26, width: 72, height: 52, rx: 16, fill: colour, class: "body" }, g);
  el("rect", { x: -36, y: -26, width: 72, height: 52, rx: 16, fill: "url(#gloss)" }, g);
  el("rect", { x: 6, y: -19, width: 14, height: 38, rx: 6, class: "windshield" }, g);
  el("rect", { x: -28, y: -17, width: 9, height: 34, rx: 4, class: "rear" }, g);
  return g;
}

/**
 * Create a Dodgem board inside `host`. `handlers.onMove(text)` is called with a legal move,
 * `handlers.onIllegal(text)` with an explanation, `handlers.canAct()` returns null when the
 * user may move or an explanation why not.
 */
/** @param {HTMLElement} host @param {BoardHandlers} handlers */
export function createDodgemBoard(host, handlers) {
  const svg = el("svg", { class: "board-svg", role: "grid", tabindex: "0" });
  host.replaceChildren(svg);
  /** @type {BoardView} set by the first update, before anything is drawn */
  let view = /** @type {any} */ (null);
  /** @type {{n: number, cars: Map<string, number>, toMove: number}} */
  let pos = /** @type {any} */ (null);
  /** @type {string | null} */
  let selected = null;
  /** @type {string | null} */
  let cursor = null;
  /** @type {{sq: string | null, time: number}} */
  let lastClick = { sq: null, time: 0 };
  let keyboardUsed = false;
  /** @type {string | null} the position drawn last, to animate the move that follows it */
  let prevPosition = null;

  /** Glide the car of `move` from its square (short; the next draw simply replaces it). */
  /** @param {string | null} move */
  function animate(move) {
    const ends = moveEnds(move);
    if (!ends || !motionOK()) return;
    const L = layout();
    const [sf, sr] = parseSquare(ends.from);
    const [sx, sy] = xy(sf, sr, L);
    const mover = view.lastMover;
    const angle = ANGLE[edgeOf(mover)];
    if (ends.off) {
      const [ex, ey] = exitPlace(sf, sr, mover, L);
      const ghost = el("g", { transform: `translate(${sx + CELL / 2},${sy + CELL / 2})`, class: "car-wrap ghost" }, svg);
      const inner = el("g", {}, ghost);
      carShape(inner, COLOURS[view.state.players[mover]], mover, angle);
      inner.animate(
        [{ transform: "translate(0px, 0px)", opacity: 1 }, { transform: `translate(${ex - sx - CELL / 2}px, ${ey - sy - CELL / 2}px)`, opacity: 0 }],
        { duration: 280, easing: "ease-in", fill: "forwards" },
      );
      return;
    }
    const car = svg.querySelector(`[data-car="${ends.to}"] > g`);
    if (!car) return;
    const [tf, tr] = parseSquare(/** @type {string} */ (ends.to));
    const [tx, ty] = xy(tf, tr, L);
    car.animate(
      [{ transform: `translate(${sx - tx}px, ${sy - ty}px) rotate(${angle}deg)` }, { transform: `translate(0px, 0px) rotate(${angle}deg)` }],
      { duration: 180, easing: "ease-out" },
    );
  }

  const legal = () => new Set(view && view.interactive ? view.state.legal_moves : []);
  const geo = () => geometryOf(view.state.facts);
  const playerName = (/** @type {number} */ p) => t(`colour.${view.state.players[p]}`);
  /** The edge of the drawing a player's cars leave by (the board may be flipped). @param {number} p */
  const edgeOf = (p) => drawnEdge(geo()[p].exit, isFlipped());

  /** @returns {Layout} */
  function layout() {
    const n = pos.n;
    const flipped = isFlipped();
    const exits = new Set(geo().map((_, p) => edgeOf(p)));
    const top = exits.has("north") ? STRIP : 14;
    const right = exits.has("east") ? STRIP : 14;
    const bottom = LABEL + (exits.has("south") ? STRIP : 0);
    // the ranks' labels stay outermost on the left, beyond a strip there
    const left = LABEL + (exits.has("west") ? STRIP : 0);
    const south = exits.has("south");
    return { n, top, right, bottom, left, south, flipped, w: left + n * CELL + right, h: top + n * CELL + bottom };
  }

  /** @param {number} f @param {number} r @param {Layout} L @returns {[number, number]} */
  function xy(f, r, L) {
    const [col, row] = drawnAt(f, r, L.n, L.flipped);
    return [L.left + col * CELL, L.top + row * CELL];
  }

  /** @param {number} player */
  function explainStep(player) {
    const g = geo()[player];
    const words = g.steps.map((s) => t(`dir.${drawnEdge(DIRS[s.join(",")], isFlipped())}`));
    return t("illegal.step", { colour: playerName(player), fwd: words[0], a: words[1], b: words[2] });
  }

  /** @param {number} f @param {number} r @param {number} player @param {Layout} L @returns {[number, number]} */
  function exitPlace(f, r, player, L) {
    const edge = edgeOf(player);
    const [x, y] = xy(f, r, L);
    if (edge === "east") return [x + CELL + STRIP / 2 + 2, y + CELL / 2];
    if (edge === "west") return [x - STRIP / 2 - 2, y + CELL / 2];
    if (edge === "north") return [x + CELL / 2, y - STRIP / 2 - 2];
    return [x + CELL / 2, y + CELL + STRIP / 2 + 2];
  }

  function draw() {
    const L = layout();
    const n = L.n;
    svg.replaceChildren();
    svg.setAttribute("viewBox", `0 0 ${L.w} ${L.h}`);
    svg.setAttribute("aria-label", t("board.label", { n }));
    const defs = el("defs", {}, svg);
    const gloss = el("linearGradient", { id: "gloss", x1: 0, y1: 0, x2: 0, y2: 1 }, defs);
    el("stop", { offset: "0", "stop-color": "#fff", "stop-opacity": "0.45" }, gloss);
    el("stop", { offset: "0.5", "stop-color": "#fff", "stop-opacity": "0.05" }, gloss);
    el("stop", { offset: "1", "stop-color": "#000", "stop-opacity": "0.18" }, gloss);
    const players = view.state.players;
    geo().forEach((g, p) => {
      const pat = el("pattern", { id: `hatch${p}`, width: 14, height: 14, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" }, defs);
      el("rect", { width: 14, height: 14, fill: COLOURS[players[p]], opacity: 0.08 }, pat);
      el("rect", { width: 5, height: 14, fill: COLOURS[players[p]], opacity: 0.22 }, pat);
    });

    // exit strips
    geo().forEach((g, p) => {
      const edge = edgeOf(p);
      let r;
      if (edge === "east") r = { x: L.left + n * CELL + 4, y: L.top, width: STRIP - 8, height: n * CELL };
      else if (edge === "west") r = { x: LABEL + 4, y: L.top, width: STRIP - 8, height: n * CELL };
      else if (edge === "north") r = { x: L.left, y: 4, width: n * CELL, height: STRIP - 8 };
      else r = { x: L.left, y: L.top + n * CELL + 4, width: n * CELL, height: STRIP - 8 };
      el("rect", { ...r, rx: 10, fill: `url(#hatch${p})`, class: `exit-strip exit-${p}` }, svg);
      const word = t("board.exit");
      if (edge === "east" || edge === "west") {
        // stacked letters read well in any script
        const chars = [...word];
        const step = 22;
        const y0 = r.y + r.height / 2 - ((chars.length - 1) * step) / 2;
        chars.forEach((ch, i) => {
          const c = el("text", { class: "exit-label stacked", fill: COLOURS[players[p]], x: r.x + r.width / 2, y: y0 + i * step + 6 }, svg);
          c.textContent = ch;
        });
      } else {
        const label = el("text", { class: "exit-label", fill: COLOURS[players[p]], x: r.x + r.width / 2, y: r.y + r.height / 2 + 5 }, svg);
        label.textContent = word;
      }
    });

    el("rect", { x: L.left - 6, y: L.top - 6, width: n * CELL + 12, height: n * CELL + 12, rx: 14, class: "frame" }, svg);
    const last = view.lastMove;
    const lastSquares = new Set();
    if (last && last !== "pass") {
      const [a, b] = last.split("-");
      lastSquares.add(a);
      if (b !== "off") lastSquares.add(b);
    }
    for (let r = 0; r < n; r++) {
      for (let f = 0; f < n; f++) {
        const [x, y] = xy(f, r, L);
        const name = squareName(f, r);
        const cls = ["sq", (f + r) % 2 ? "light" : "dark"];
        if (lastSquares.has(name)) cls.push("last");
        el("rect", { x, y, width: CELL, height: CELL, class: cls.join(" "), "data-sq": name, role: "gridcell", "aria-label": name }, svg);
      }
    }
    // coordinates
    for (let i = 0; i < n; i++) {
      const [x] = xy(i, 0, L);
      const below = L.top + n * CELL + (L.south ? STRIP : 0);
      const ft = el("text", { x: x + CELL / 2, y: below + 22, class: "coord" }, svg);
      ft.textContent = FILES[i];
      const [, y] = xy(0, i, L);
      const rt = el("text", { x: LABEL - 17, y: y + CELL / 2 + 6, class: "coord" }, svg);
      rt.textContent = String(i + 1);
    }
    const ends = moveEnds(last);
    if (ends) {
      const [sf, sr] = parseSquare(ends.from);
      const [sx, sy] = xy(sf, sr, L);
      let tx, ty;
      if (ends.off) {
        [tx, ty] = exitPlace(sf, sr, view.lastMover, L);
        el("circle", { cx: tx, cy: ty, r: 16, class: "last-exit" }, svg);
      } else {
        const [tf, tr] = parseSquare(/** @type {string} */ (ends.to));
        const [bx, by] = xy(tf, tr, L);
        [tx, ty] = [bx + CELL / 2, by + CELL / 2];
      }
      el("line", { x1: sx + CELL / 2, y1: sy + CELL / 2, x2: tx, y2: ty, class: `last-trace${ends.off ? " off" : ""}` }, svg);
    }

    const moves = legal();
    const evals = view.evals;
    // cars
    for (const [name, p] of pos.cars) {
      const [f, r] = parseSquare(name);
      const [x, y] = xy(f, r, L);
      const g = el("g", { transform: `translate(${x + CELL / 2},${y + CELL / 2})`, class: "car-wrap", "data-car": name }, svg);
      carShape(g, COLOURS[players[p]], p, ANGLE[edgeOf(p)]);
      if (evals && p === pos.toMove && !selected) {
        const best = bestFor(name, evals);
        if (best) el("circle", { cx: 30, cy: -30, r: 9, class: `badge v-${best}` }, g);
      }
    }
    if (selected) {
      const [f, r] = parseSquare(selected);
      const [x, y] = xy(f, r, L);
      el("rect", { x: x + 4, y: y + 4, width: CELL - 8, height: CELL - 8, rx: 12, class: "selected" }, svg);
      for (const m of moves) {
        const [a, b] = m.split("-");
        if (a !== selected) continue;
        const ev = evals ? evals.get(m) : null;
        const cls = `target${ev ? ` v-${ev.value}` : ""}`;
        let cx, cy;
        if (b === "off") {
          [cx, cy] = exitPlace(f, r, pos.toMove, L);
          const g = el("g", { class: "exit-marker", "data-exit": selected, role: "button", "aria-label": t("board.takeOff", { sq: selected }) }, svg);
          el("circle", { cx, cy, r: 21, class: cls }, g);
          const angle = ANGLE[edgeOf(pos.toMove)];
          el("path", { d: "M -8 -8 L 4 0 L -8 8", transform: `translate(${cx},${cy}) rotate(${angle})`, class: "arrow" }, g);
        } else {
          const [bf, br] = parseSquare(b);
          const [bx, by] = xy(bf, br, L);
          [cx, cy] = [bx + CELL / 2, by + CELL / 2];
          el("circle", { cx, cy, r: ev ? 22 : 15, class: cls, "pointer-events": "none" }, svg);
        }
        if (ev && ev.remoteness !== null && ev.remoteness !== undefined) {
          if (b === "off") {
            // beside the arrow, never on it
            // beside the marker along its strip, so it stays inside the board's frame
            const edge = edgeOf(pos.toMove);
            const along = edge === "east" || edge === "west" ? [0, -34] : [34, 0];
            const [bx, by] = [cx + along[0], cy + along[1]];
            const g = el("g", { class: "rem-badge", "pointer-events": "none" }, svg);
            el("circle", { cx: bx, cy: by, r: 13, class: `rem-bg v-${ev.value}` }, g);
            el("text", { x: bx, y: by + 5, class: "rem tiny" }, g).textContent = String(ev.remoteness);
          } else {
            el("text", { x: cx, y: cy + 7, class: "rem", "pointer-events": "none" }, svg).textContent = String(ev.remoteness);
          }
        }
      }
    }
    drawCursor();
  }

  // The keyboard cursor is drawn on its own so focus changes never rebuild the board
  // (a rebuild between mousedown and mouseup would swallow the click).
  function drawCursor() {
    for (const old of svg.querySelectorAll(".cursor")) old.remove();
    if (!cursor || !pos || document.activeElement !== svg || !keyboardUsed) return;
    const L = layout();
    const [f, r] = parseSquare(cursor);
    const [x, y] = xy(f, r, L);
    el("rect", { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, rx: 8, class: "cursor" }, svg);
  }

  /** @param {string} sq @param {Map<string, {value: string}>} evals @returns {string | null} */
  function bestFor(sq, evals) {
    let best = null;
    /** @type {Record<string, number>} */
    const rank = { win: 3, draw: 2, loss: 1 };
    for (const [m, ev] of evals) {
      if (!m.startsWith(`${sq}-`)) continue;
      if (!best || rank[ev.value] > rank[best]) best = ev.value;
    }
    return best;
  }

  /** @param {string} sq */
  function tryExit(sq) {
    const p = pos.cars.get(sq);
    const move = `${sq}-off`;
    if (legal().has(move)) {
      selected = null;
      handlers.onMove(move);
      return;
    }
    const edge = t(`edge.${edgeOf(p ?? pos.toMove)}`);
    handlers.onIllegal(t("illegal.notOnEdge", { sq, colour: playerName(p ?? pos.toMove), edge }));
  }

  /** @param {string} sq @param {boolean} viaKeyboard */
  function activate(sq, viaKeyboard) {
    if (!view) return;
    const blocked = handlers.canAct();
    if (blocked) {
      handlers.onIllegal(blocked);
      return;
    }
    const now = performance.now();
    const double = !viaKeyboard && lastClick.sq === sq && now - lastClick.time < DOUBLE_MS;
    lastClick = { sq, time: double ? 0 : now };
    const owner = pos.cars.get(sq);
    const me = pos.toMove;
    if (owner === me) {
      if (double || (viaKeyboard && selected === sq)) {
        tryExit(sq);
        return;
      }
      if (selected === sq) {
        selected = null;
      } else {
        selected = sq;
        const any = [...legal()].some((m) => m.startsWith(`${sq}-`));
        if (!any) handlers.onIllegal(t("illegal.stuck", { sq }));
        else handlers.onIllegal(null);
      }
      draw();
      return;
    }
    if (!selected) {
      if (owner === undefined) handlers.onIllegal(t("illegal.pick", { colour: playerName(me) }));
      else handlers.onIllegal(t("illegal.notYours", { sq, colour: playerName(owner), mover: playerName(me) }));
      return;
    }
    const move = `${selected}-${sq}`;
    if (legal().has(move)) {
      selected = null;
      handlers.onMove(move);
      return;
    }
    const [sf, sr] = parseSquare(selected);
    const [f, r] = parseSquare(sq);
    const isStep = geo()[me].steps.some(([df, dr]) => sf + df === f && sr + dr === r);
    if (isStep && owner !== undefined) handlers.onIllegal(t("illegal.occupied", { sq }));
    else handlers.onIllegal(explainStep(me));
  }

  svg.addEventListener("click", (ev) => {
    const target = /** @type {HTMLElement | null} */ (/** @type {Element} */ (ev.target).closest("[data-sq],[data-exit]"));
    if (!target || !view) return;
    svg.focus({ preventScroll: true });
    if (target.dataset.exit) {
      tryExit(target.dataset.exit);
      return;
    }
    const sq = target.dataset.sq || "a1";
    cursor = sq;
    activate(sq, false);
  });
  svg.addEventListener("focus", () => {
    if (!cursor && pos) cursor = selected || [...pos.cars.entries()].find(([, p]) => p === pos.toMove)?.[0] || "a1";
    drawCursor();
  });
  svg.addEventListener("blur", () => view && drawCursor());
  const unflip = onFlip(() => {
    if (!svg.isConnected) unflip(); // a board the page has replaced
    else if (view) draw();
  });
  svg.addEventListener("pointerdown", () => {
    keyboardUsed = false;
  });
  svg.addEventListener("keydown", (ev) => {
    if (!pos) return;
    keyboardUsed = true;
    const n = pos.n;
    let [f, r] = parseSquare(cursor || "a1");
    const step = KEY_STEPS[ev.key];
    if (step) {
      // the arrows move the cursor as drawn: turned round with a flipped board
      const k = isFlipped() ? -1 : 1;
      f = Math.min(n - 1, Math.max(0, f + k * step[0]));
      r = Math.min(n - 1, Math.max(0, r + k * step[1]));
      cursor = squareName(f, r);
      drawCursor();
    } else if (ev.key === "Enter" || ev.key === " ") {
      activate(cursor || "a1", true);
    } else if (ev.key === "Escape") {
      selected = null;
      draw();
    } else if ((ev.key === "x" || ev.key === "Delete" || ev.key === "o") && selected) {
      tryExit(selected);
    } else return;
    ev.preventDefault();
  });

  return {
    /** Redraw for a new state. @param {BoardView} next */
    update(next) {
      const samePos = view && view.state.position === next.state.position;
      view = next;
      const read = readPosition(next.state.position, next.state.players);
      pos = { n: read.n, cars: read.pieces, toMove: read.toMove };
      if (!samePos || !next.interactive) selected = null;
      if (!samePos) lastClick = { sq: null, time: 0 };
      if (selected && pos.cars.get(selected) !== pos.toMove) selected = null;
      draw();
      const positions = next.state.positions || [];
      if (prevPosition && !next.preview && positions.length >= 2 && positions[positions.length - 2] === prevPosition) {
        animate(next.lastMove);
      }
      prevPosition = next.preview ? null : next.state.position;
    },
    redraw() {
      if (view) draw();
    },
  };
}

/** The renderer entry that boards/registry.js loads by the declared name. */
export const createBoard = createDodgemBoard;
