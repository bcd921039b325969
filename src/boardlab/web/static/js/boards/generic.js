// @ts-check
// Fallback for a game without its own renderer: the position in notation and its legal
// moves as buttons, so any registered game can be played in the page.

import { t } from "../i18n.js";

/**
 * @param {HTMLElement} host
 * @param {import("./dodgem.js").BoardHandlers} handlers
 */
export function createGenericBoard(host, handlers) {
  const box = document.createElement("div");
  box.className = "generic-board";
  host.replaceChildren(box);
  /** @type {import("./dodgem.js").BoardView} set by the first update, before anything is drawn */
  let view = /** @type {any} */ (null);

  function draw() {
    box.replaceChildren();
    const pre = document.createElement("pre");
    pre.className = "position-text";
    pre.textContent = view.state.position;
    box.appendChild(pre);
    const list = document.createElement("div");
    list.className = "generic-moves";
    for (const m of view.interactive ? view.state.legal_moves.slice(0, 400) : []) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = m;
      const ev = view.evals && view.evals.get(m);
      if (ev) b.classList.add(`v-${ev.value}`);
      b.addEventListener("click", () => {
        const blocked = handlers.canAct();
        if (blocked) handlers.onIllegal(blocked);
        else handlers.onMove(m);
      });
      list.appendChild(b);
    }
    box.appendChild(list);
    const hint = document.createElement("p");
    hint.className = "hint";
    hint.textContent = t("board.generic");
    box.appendChild(hint);
  }

  return {
    /** @param {import("./dodgem.js").BoardView} next */
    update(next) {
      view = next;
      draw();
    },
    redraw() {
      if (view) draw();
    },
  };
}
