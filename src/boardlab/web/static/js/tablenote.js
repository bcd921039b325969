// @ts-check
// What the level-4 note says about the table for the chosen rules (the server's
// GET /api/tables answer), and which build, if any, the page offers. No DOM here.

import { formatDuration } from "./buildtime.js";
import { getLang, t } from "./i18n.js";

/**
 * @typedef {{state: string, solvable?: boolean, message?: string | null, estimate_s?: number | null}} TableInfo
 * @typedef {{text: string, offer: string | null}} TableNote
 */

/**
 * The note's text for level 4's way of playing (`mode`: "perfect", "search" or null) and
 * the label of the build button (null: no build offered). A damaged table is named as
 * damaged with the server's one-line message (which names the rebuild command), and the
 * page offers to rebuild it; a missing or failed one is offered a build.
 * @param {TableInfo | null} tb
 * @param {"perfect" | "search" | null} mode
 * @param {string} game the game's display name
 * @returns {TableNote}
 */
export function tableNote(tb, mode, game) {
  const state = tb ? tb.state : null;
  const solvable = !!(tb && tb.solvable);
  const sep = getLang() === "ja" ? "" : " ";
  let text = "";
  if (mode === "perfect") text = t("level4.perfect");
  else if (mode === "search") {
    if (!solvable) text = t("level4.searchOnly", { game });
    else if (state === "building") text = t("level4.building");
    else if (state === "damaged") text = t("level4.damaged", { message: (tb && tb.message) || t("table.damaged") });
    else text = t("level4.search");
  }
  const damaged = solvable && state === "damaged";
  const canBuild = solvable && (state === "missing" || state === "failed" || damaged);
  const seconds = tb && tb.estimate_s ? tb.estimate_s : null;
  const time = seconds !== null ? formatDuration(seconds) : null;
  // only a big table (a minute or more) needs much memory
  if (canBuild && time !== null && mode) text += `${sep}${t(seconds && seconds >= 20 ? "table.estimateBig" : "table.estimate", { time })}`;
  let offer = null;
  if (canBuild) {
    offer = time !== null ? t(damaged ? "level4.rebuild" : "level4.offer", { time }) : t(damaged ? "level4.rebuildNoTime" : "level4.offerNoTime");
  }
  return { text, offer };
}
