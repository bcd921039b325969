// @ts-check
// The tables on the main page: whether level 4 and the analysis have their table here, small
// tables built at once, a build followed until it ends (on an abort signal, cancelled with it),
// the analysis of the position shown and, where no table exists, the search's estimate.

import { api } from "./api.js";
import { t } from "./i18n.js";
import { store } from "./state.js";
import { isAbort, sleep } from "./turnloop.js";

/** Tables up to this size are built as soon as level 4 or the analysis asks for them. */
export const AUTO_BUILD_MAX = 4;

const S = () => store.get();

/** The estimates seen, with one more: by rules and position, for the move list's marks
 * (bounded: a long session starts afresh).
 * @param {Record<string, import("./estimate.js").Seen>} seen @param {{game: string, variant: string, size: number}} g
 * @param {string} position @param {{share: number, to_move: number}} res */
export function withSeen(seen, g, position, res) {
  const kept = Object.keys(seen).length < 4000 ? seen : {};
  return { ...kept, [`${g.game}/${g.variant}/${g.size}|${position}`]: { share: res.share, to_move: res.to_move } };
}

/**
 * The page's table work, reporting through `showMessage`.
 * @param {{showMessage: (text: string | null, kind?: string) => void, errorText: (err: any) => string}} deps
 */
export function createTables({ showMessage, errorText }) {
  /** The rules the table in the store belongs to ("game/variant/size"). */
  let tableRules = "";

  /** Ask whether level 4 has its table here; small tables are built at once. */
  async function checkLevel4() {
    const s = S();
    const rules = s.settings;
    const key = `${rules.game}/${rules.variant}/${rules.size}`;
    if (key !== tableRules) {
      tableRules = key;
      store.set({ table: null }); // not known for these rules until the server answers
    }
    if (!s.settings.sides.includes("4") && !s.settings.analysis) {
      store.set({ table: null });
      return;
    }
    const same = () => {
      const now = S().settings;
      return now.game === rules.game && now.variant === rules.variant && now.size === rules.size;
    };
    try {
      let st = await api.tableStatus(rules);
      if (!same()) return; // the settings moved on while we asked: a later check answers
      if (st.state === "missing" && autoBuilds(rules)) st = await api.buildTable(rules);
      if (!same()) return;
      store.set({ table: st });
      if (st.state === "building") pollTable();
    } catch (err) {
      store.set({ table: null });
    }
  }

  /** @type {AbortController | null} the build being followed (one at a time) */
  let polling = null;
  /** Follow a build until it ends: its progress in the store, the analysis once it is ready. */
  async function pollTable() {
    if (polling) polling.abort();
    const ctl = new AbortController();
    polling = ctl;
    try {
      for (;;) {
        await sleep(400, ctl.signal);
        const st = await api.tableStatus(S().settings, ctl.signal);
        store.set({ table: st });
        if (st.state === "building") continue;
        if (st.state === "ready") {
          if (S().settings.analysis) loadAnalysis();
        } else if (st.state === "failed" && st.message !== "the build was cancelled") showMessage(st.message || t("table.unavailable"), "error");
        return;
      }
    } catch (err) {
      if (!isAbort(err)) showMessage(errorText(err), "error");
    } finally {
      if (polling === ctl) polling = null;
    }
  }

  async function buildTable() {
    try {
      const st = await api.buildTable(S().settings);
      store.set({ table: st });
      if (st.state === "building") pollTable();
    } catch (err) {
      showMessage(errorText(err), "error");
    }
  }

  /** Rules whose build the player cancelled here: no longer built automatically. */
  const cancelled = new Set();
  /** @param {{game: string, variant: string, size: number}} r */
  const autoBuilds = (r) => r.size <= AUTO_BUILD_MAX && !cancelled.has(`${r.game}/${r.variant}/${r.size}`);

  /** Stop the build under way for the current rules. */
  async function cancelBuild() {
    if (polling) polling.abort();
    const r = S().settings;
    cancelled.add(`${r.game}/${r.variant}/${r.size}`);
    try {
      const st = await api.cancelBuild(S().settings);
      store.set({ table: st });
      showMessage(t("table.cancelled"), "info");
      if (S().settings.analysis) loadAnalysis();
    } catch (err) {
      showMessage(errorText(err), "error");
    }
  }

  async function loadAnalysis() {
    const s = S();
    const asked = JSON.stringify(s.game);
    let res;
    try {
      res = await api.analysis(s.game);
    } catch (err) {
      showMessage(errorText(err), "error");
      return;
    }
    const now = S();
    if (JSON.stringify(now.game) !== asked || !now.settings.analysis) return;
    store.set({ analysis: { ...res, ply: now.game.moves.length } });
    if (!res.available && now.view && !now.view.result) loadEstimate();
    if (!res.available && (res.table === "building" || (res.table === "missing" && autoBuilds(now.game)))) {
      if (res.table === "missing") await buildTable();
      else pollTable();
    }
  }

  /** @type {AbortController | null} the estimate being asked for (one at a time) */
  let estimating = null;
  /** Ask the search for its estimate of the position shown, where no table exists. */
  async function loadEstimate() {
    const s = S();
    if (estimating) estimating.abort();
    const ctl = new AbortController();
    estimating = ctl;
    const asked = JSON.stringify(s.game);
    const position = s.view.position;
    let res;
    try {
      res = await api.estimate(s.game, ctl.signal);
    } catch (err) {
      if (ctl.signal.aborted) return;
      res = null;
    } finally {
      if (estimating === ctl) estimating = null;
    }
    const now = S();
    if (JSON.stringify(now.game) !== asked || !now.settings.analysis) return;
    if (!res) {
      store.set({ estimate: { failed: true, position } });
      return;
    }
    store.set({ estimate: { ...res, position }, seen: withSeen(now.seen, now.game, position, res) });
    // the two positions before, where the page has no estimate yet (a computer that replied
    // at once, a game opened from a link), so the last moves get their marks
    const prefix = `${now.game.game}/${now.game.variant}/${now.game.size}|`;
    for (let back = 1; back <= 2 && back <= now.game.moves.length; back++) {
      const ply = now.game.moves.length - back;
      const earlier = now.view.positions[ply];
      if (S().seen[prefix + earlier]) continue;
      const g = { ...now.game, moves: now.game.moves.slice(0, ply) };
      estimating = ctl;
      try {
        const r = await api.estimate(g, ctl.signal);
        if (JSON.stringify(S().game) !== asked) return;
        store.set({ seen: withSeen(S().seen, now.game, earlier, r) });
      } catch (err) {
        return;
      } finally {
        if (estimating === ctl) estimating = null;
      }
    }
  }

  return { checkLevel4, buildTable, cancelBuild, loadAnalysis, loadEstimate };
}
