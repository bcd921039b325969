// @ts-check
// The main page's ways into learning: "Review" opens the game on the Review page, and when
// the computer announces a forced win, "Save as puzzle" keeps a position of this game in the
// browser's puzzle list (the one before the human's last move if it makes a puzzle, else the
// one the computer moved from).

import { request } from "./api.js";
import "./learn-texts.js";
import { ratedLabel } from "./ladder.js";
import { encodeLink } from "./links.js";
import { saveCandidates, savePuzzle } from "./puzzles.js";
import { isComputer } from "./seating.js";
import { resultOf, seats } from "./state.js";
import { t } from "./i18n.js";

/** @type {Map<string, Promise<Record<string, number>>>} */
const ladders = new Map();

/** The levels' ratings as measured on exactly this board, none for a board never measured
 * (cached). @param {string} game @param {string} variant @param {number} size
 * @returns {Promise<Record<string, number>>} */
function ladderFor(game, variant, size) {
  const key = `${game}/${variant}/${size}`;
  let p = ladders.get(key);
  if (!p) {
    const q = new URLSearchParams({ game, size: String(size) });
    if (variant) q.set("variant", variant);
    p = request("GET", `/api/ladder?${q}`)
      .then((d) => d.ratings || {})
      .catch(() => ({}));
    ladders.set(key, p);
  }
  return p;
}

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
      let found;
      try {
        found = await request("POST", "/api/puzzle", { game: s.game.game, variant: s.game.variant, size: s.game.size, position });
      } catch {
        continue;
      }
      const { added } = savePuzzle(localStorage, found);
      notify(t(added ? "pz.savedToast" : "pz.savedAlready"), "info");
      return;
    }
    notify(t("pz.noPuzzle"), "warn");
  });

  // each computer level's rating, measured on the board chosen in the New game sheet,
  // beside its name (the sheet's own menus say which board; an unmeasured one shows none)
  /** @param {string} id */
  const chosen = (id) => /** @type {HTMLSelectElement} */ ($(id)).value;
  let asked = 0;
  const decorate = async () => {
    const ask = ++asked;
    if (!chosen("s-game") || !Number(chosen("s-size"))) return; // the menus are not filled yet
    const ratings = await ladderFor(chosen("s-game"), chosen("s-variant"), Number(chosen("s-size")));
    if (ask !== asked) return; // a later choice's answer decorates instead
    $("s-rating-note").hidden = Object.keys(ratings).length === 0;
    for (const id of ["s-side0", "s-side1"]) {
      for (const o of /** @type {HTMLSelectElement} */ ($(id)).options) {
        if (o.value === "human") continue;
        const text = ratedLabel(o.text, ratings[o.value]);
        if (o.text !== text) o.text = text;
      }
    }
  };
  const watch = new MutationObserver(() => decorate());
  for (const id of ["s-side0", "s-side1"]) watch.observe($(id), { childList: true });
  for (const id of ["s-game", "s-variant", "s-size"]) $(id).addEventListener("change", () => decorate());
  decorate();

  // Review is offered on every board: from the table where one covers it, else by the
  // search's estimates (the Review page falls back by itself)
  review.hidden = false;

  review.addEventListener("click", () => {
    location.href = `/review#${encodeLink(S().game)}`;
  });
}
