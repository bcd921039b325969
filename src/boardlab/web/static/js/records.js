// @ts-check
// The main page's game records and links: export the game as a record file (the same words
// for players as the terminal writes), import one (it opens as a game that never counts),
// copy, download or load the text, and the link to the game on the board.

import { api } from "./api.js";
import { t } from "./i18n.js";
import { isComputer } from "./seating.js";
import { seats, store } from "./state.js";
import { encodeLink } from "./links.js";

const S = () => store.get();
/** @param {string} id @returns {HTMLElement} */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** @param {"export" | "import"} mode @param {string} [text] */
function openRecordDialog(mode, text = "") {
  $("record-dialog-title").textContent = t(mode === "export" ? "dialog.export" : "dialog.import");
  const area = /** @type {HTMLTextAreaElement} */ ($("record-text"));
  area.value = text;
  area.readOnly = mode === "export";
  $("record-copy").hidden = mode !== "export";
  $("record-download").hidden = mode !== "export";
  $("record-load").hidden = mode === "export";
  $("record-file").hidden = mode === "export";
  $("record-error").hidden = true;
  /** @type {HTMLDialogElement} */ ($("record-dialog")).showModal();
}

/** The same words for players as the terminal writes: "human", "level 2", "random". @param {string} who */
export const playerWord = (who) => (!isComputer(who) ? "human" : who === "random" ? "random" : `level ${who}`);

/** @param {Deps} deps */
async function exportRecord({ showMessage, errorText }) {
  const s = S();
  try {
    /** @type {Record<string, string>} */
    const players = {};
    seats(s).forEach((who, i) => (players[s.view.players[i]] = playerWord(who)));
    const rec = await api.exportRecord(s.game, players);
    openRecordDialog("export", rec.text);
  } catch (err) {
    showMessage(errorText(err), "error");
  }
}

/** @param {Deps} deps */
async function importRecord({ openGame, toast }) {
  try {
    const rec = await api.importRecord(/** @type {HTMLTextAreaElement} */ ($("record-text")).value);
    /** @type {HTMLDialogElement} */ ($("record-dialog")).close();
    await openGame(rec, "file");
    toast(t("toast.imported", { n: rec.moves.length }));
  } catch (err) {
    const box = $("record-error");
    box.textContent = /** @type {Error} */ (err).message;
    box.hidden = false;
  }
}

/** The link to the game on the board. */
export const linkFor = () => `${location.origin}${location.pathname}#${encodeLink(S().game)}`;

/** Copy the link, or show it to copy by hand. @param {(text: string) => void} toast */
export async function copyLink(toast) {
  const url = linkFor();
  try {
    await navigator.clipboard.writeText(url);
    toast(t("toast.linkCopied"));
  } catch {
    window.prompt(t("toast.copyThis"), url);
  }
}

/**
 * @typedef {{showMessage: (text: string | null, kind?: string) => void, errorText: (err: any) => string,
 *   toast: (text: string) => void, openGame: (rec: any, origin: "link" | "file") => Promise<void>}} Deps
 */

/** Wire the record dialog's buttons. @param {Deps} deps */
export function wireRecords(deps) {
  const { toast } = deps;
  $("export").addEventListener("click", () => exportRecord(deps));
  $("import").addEventListener("click", () => openRecordDialog("import"));
  $("record-load").addEventListener("click", () => importRecord(deps));
  $("record-copy").addEventListener("click", async () => {
    const area = /** @type {HTMLTextAreaElement} */ ($("record-text"));
    try {
      await navigator.clipboard.writeText(area.value);
      toast(t("toast.copied"));
    } catch {
      area.select();
    }
  });
  $("record-download").addEventListener("click", () => {
    const blob = new Blob([/** @type {HTMLTextAreaElement} */ ($("record-text")).value], { type: "text/plain" });
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    const g = S().game;
    a.download = `${g.game}-${g.size}x${g.size}.txt`;
    a.click();
    URL.revokeObjectURL(a.href);
  });
  $("record-file").addEventListener("change", async () => {
    const f = /** @type {HTMLInputElement} */ ($("record-file")).files?.[0];
    if (f) /** @type {HTMLTextAreaElement} */ ($("record-text")).value = await f.text();
  });
}
