// @ts-check
// The levels' measured ratings as the page shows them (the numbers come from /api/ladder).

import { t } from "./i18n.js";
import "./play-texts.js";

/**
 * An option's label with the level's rating, "Level 2 · rated 911"; a label that already
 * carries one gets the new one; without a rating the bare label.
 * @param {string} label @param {number | undefined} rating
 */
export function ratedLabel(label, rating) {
  const base = label.split(" · ")[0];
  return rating === undefined ? base : `${base} · ${t("ladder.rated", { n: rating })}`;
}
