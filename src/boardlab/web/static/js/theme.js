// @ts-check
// The theme switch: system (follow the device), light or dark, remembered in the browser.
// theme-boot.js applies the choice before the first paint; this module changes it. Imported
// by each page, it wires the page's #theme button.

import { onLangChange, t } from "./i18n.js";
import "./play-texts.js";

export const THEME_STORE = "boardlab.theme";
/** @typedef {"system" | "light" | "dark"} Theme */
/** @type {Theme[]} */
export const THEMES = ["system", "light", "dark"];

/** The theme after `now` when the switch is pressed. @param {Theme} now @returns {Theme} */
export function nextTheme(now) {
  return THEMES[(THEMES.indexOf(now) + 1) % THEMES.length];
}

/** What the page shows for a choice: light or dark. @param {Theme} choice @param {boolean} systemDark */
export function resolveTheme(choice, systemDark) {
  if (choice === "light" || choice === "dark") return choice;
  return systemDark ? "dark" : "light";
}

/** The stored choice. @param {{getItem(k: string): string | null}} storage @returns {Theme} */
export function loadTheme(storage) {
  const v = storage.getItem(THEME_STORE);
  return v === "light" || v === "dark" ? v : "system";
}

/**
 * Make `button` the theme switch: each press goes system → light → dark; `label(theme)`
 * gives its title.
 * @param {HTMLElement} button @param {(theme: Theme) => string} label
 */
export function wireTheme(button, label) {
  const media = window.matchMedia("(prefers-color-scheme: dark)");
  let choice = loadTheme(localStorage);
  const show = () => {
    document.documentElement.dataset.theme = resolveTheme(choice, media.matches);
    button.dataset.themeChoice = choice;
    button.title = label(choice);
    const sr = button.querySelector(".sr");
    if (sr) sr.textContent = label(choice);
  };
  button.addEventListener("click", () => {
    choice = nextTheme(choice);
    if (choice === "system") localStorage.removeItem(THEME_STORE);
    else localStorage.setItem(THEME_STORE, choice);
    show();
  });
  show();
  return { refresh: show };
}

if (typeof document !== "undefined") {
  const button = document.getElementById("theme");
  if (button) {
    const sw = wireTheme(button, (theme) => t(`theme.${theme}`));
    onLangChange(() => sw.refresh());
  }
}
