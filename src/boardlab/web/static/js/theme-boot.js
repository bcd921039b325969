// @ts-check
// Loaded in each page's head, before the first paint: the colour theme the player chose
// (light or dark), or the system's. A plain script (not a module) so that it runs at once.
(() => {
  const root = document.documentElement;
  /** @type {string | null} */
  let chosen = null;
  try {
    chosen = localStorage.getItem("boardlab.theme");
  } catch {
    // no storage: the system decides
  }
  const system = window.matchMedia("(prefers-color-scheme: dark)");
  const apply = () => {
    const pick = chosen === "light" || chosen === "dark" ? chosen : system.matches ? "dark" : "light";
    root.dataset.theme = pick;
  };
  apply();
  // the system's choice can change while the page is open (evening mode)
  system.addEventListener("change", () => {
    try {
      chosen = localStorage.getItem("boardlab.theme");
    } catch {
      chosen = null;
    }
    apply();
  });
})();
