// @ts-check
// The main page's ways into learning: "Review" opens the game on the Review page, and when
// the computer announces a forced win, "Save as puzzle" keeps a position of this game in the
// browser's puzzle list (the one before the human's last move if it makes a puzzle, else the
// one the computer moved from).

import "./learn-texts.js";
import { encodeLink } from "./links.js";
import { saveCandidates, savePuzzle } from "./puzzles.js";
import { isComputer } from "./seating.js";
import { resultOf, seats } from "./state.js";
import { t } from "./i18n.js";

/** @param {string} id @returns {HTMLElement} */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/**
 * @param {typeof import("./state.js").store} store
 * @param {(text: string, kind: string) => void} notify
 */
export function wireLearning(store, notify) {
  const S = () => store.get();
  const save = $("save-puzzle");
  const review = $("review-game");

  /** Whether a Save as puzzle offer stands: the computer announced a forced win here. */
  const offer = () => {
    const s = S();
    return !!(s.forced && s.forced.computer && s.view && !resultOf(s) && seats(s).some((x) => !isComputer(x)));
  };
  store.subscribe(() => {
    save.hidden = !offer();
  });

  save.addEventListener("click", async () => {
    const s = S();
    if (!offer()) return;
    const human = seats(s).findIndex((x) => !isComputer(x));
    for (const position of saveCandidates(s.view, human)) {
      const res = await fetch("/api/puzzle", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ game: s.game.game, variant: s.game.variant, size: s.game.size, position }),
      });
      if (!res.ok) continue;
      const { added } = savePuzzle(localStorage, await res.json());
      notify(t(added ? "pz.savedToast" : "pz.savedAlready"), "info");
      return;
    }
    notify(t("pz.noPuzzle"), "warn");
  });

  review.addEventListener("click", () => {
    location.href = `/review#${encodeLink(S().game)}`;
  });
}
