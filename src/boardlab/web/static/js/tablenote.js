// @ts-check
// What the level-4 note says about the table for the chosen rules (the server's
// GET /api/tables answer), and which build, if any, the page offers. No DOM here.

import { formatDuration } from "./buildtime.js";
import { getLang, t } from "./i18n.js";

/**
 * @typedef {{state: string, solvable?: boolean, message?: string | null, estimate_s?: number | null, buildable?: boolean, disk_bytes?: number | null, positions?: number | null, commands?: string[]}} TableInfo
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
  const wanted = solvable && (state === "missing" || state === "failed" || damaged);
  const seconds = tb && tb.estimate_s ? tb.estimate_s : null;
  const time = seconds !== null ? formatDuration(seconds) : null;
  if (wanted && tb && tb.buildable === false) {
    // too long a build for the page: what the table is, its cost here, what to run instead
    if (mode) text += `${sep}${bigTableText(tb)}`;
    return { text, offer: null };
  }
  const canBuild = wanted;
  // only a big table (a minute or more) needs much memory
  if (canBuild && time !== null && mode) text += `${sep}${t(seconds && seconds >= 20 ? "table.estimateBig" : "table.estimate", { time })}`;
  let offer = null;
  if (canBuild) {
    offer = time !== null ? t(damaged ? "level4.rebuild" : "level4.offer", { time }) : t(damaged ? "level4.rebuildNoTime" : "level4.offerNoTime");
  }
  return { text, offer };
}

/**
 * The note for a table the page does not build (hours here): what it is, the build's time
 * and disk on this machine, and the commands that build or install it.
 * @param {TableInfo} tb
 * @returns {string}
 */
export function bigTableText(tb) {
  const sep = getLang() === "ja" ? "" : " ";
  const time = tb.estimate_s ? formatDuration(tb.estimate_s) : "?";
  const disk = tb.disk_bytes ? formatBytes(tb.disk_bytes) : "?";
  const [solve, install] = tb.commands || [];
  let text = t("table.big", { time, disk });
  if (tb.positions) text = `${t("table.bigAbout", { positions: tb.positions.toLocaleString("en") })}${sep}${text}`;
  if (solve && install) text += `${sep}${t("table.bigCommands", { solve, install })}`;
  return text;
}

/**
 * Bytes as a short size ("870 MB", "2.4 GB").
 * @param {number} n
 * @returns {string}
 */
export function formatBytes(n) {
  if (n >= 1e9) return `${(n / 1e9).toFixed(n >= 1e10 ? 0 : 1)} GB`;
  if (n >= 1e6) return `${Math.round(n / 1e6)} MB`;
  return `${Math.max(1, Math.round(n / 1e3))} kB`;
}
