// @ts-check
// Drawing the page from the store: status, notices, board, controls, record, analysis, move
// list and the New game sheet. Every function here reads the state and writes the DOM only.

import { count, getLang, t } from "./i18n.js";
import { boardMaker } from "./boards/registry.js";
import { Pace, formatDuration } from "./buildtime.js";
import { renderChart } from "./chart.js";
import { controlState } from "./controls.js";
import { endCard } from "./endcard.js";
import { label as estimateLabel, moveMarks, percent, shares } from "./estimate.js";
import { moveValues } from "./movevalues.js";
import { pieNoteText, pieOffer } from "./pie.js";
import { isComputer, isWatch } from "./seating.js";
import { resultOf, seats } from "./state.js";
import { bigTableText, tableNote } from "./tablenote.js";

/** @param {string} id @returns {HTMLElement} */
export const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/**
 * @param {{store: typeof import("./state.js").store, handlers: Record<string, Function>}} deps
 */
export function createView({ store, handlers }) {
  /** @type {any} */
  let board = null;
  let boardGame = "";
  /** @type {any} */
  let lastBoardKey = null;
  const buildPace = new Pace();
  const runPace = new Pace();

  const S = () => store.get();

  /** A colour's name. @param {number} p */
  const colourName = (p) => t(`colour.${S().view ? S().view.players[p] : "blue"}`);
  /** A colour's name inside a sentence. @param {number} p */
  const colourWord = (p) => (getLang() === "en" ? colourName(p).toLowerCase() : colourName(p));

  /** How a participant is named: "You", "Player 1", "Computer level 3 (A)"; `short`: "Level 3".
   * @param {number} i side A or B @param {boolean} [short] */
  function participantLabel(i, short = false) {
    const sides = S().settings.sides;
    const who = sides[i];
    const other = sides[1 - i];
    if (!isComputer(who)) return isComputer(other) ? t("who.you") : t(i === 0 ? "who.player1" : "who.player2");
    const base = who === "random" ? t("who.random") : t(short ? "who.levelShort" : "who.level", { n: who });
    return who === other ? `${base} (${i === 0 ? "A" : "B"})` : base;
  }

  /** The participant on a colour. @param {number} colour */
  const sideLabel = (colour) => participantLabel(S().swapped ? 1 - colour : colour);

  /** Level 4's way of playing here: "perfect", "search" or null (no level 4). */
  function level4Mode() {
    const s = S();
    if (!s.settings.sides.includes("4") || !s.table) return null; // no word until the server says
    return s.table && s.table.state === "ready" ? "perfect" : "search";
  }

  /** The note after the pie against the computer, in the page's words. */
  const pieText = () => pieNoteText(S().pieNote, colourWord);

  // -- board ----------------------------------------------------------------------------
  function boardView() {
    const s = S();
    let state = s.view;
    const preview = s.preview !== null && s.preview < state.positions.length && s.preview !== state.moves.length;
    if (preview) {
      const ply = /** @type {number} */ (s.preview);
      // marks of the current position (completed lines, threats) do not belong to an earlier one
      const facts = { ...state.facts, lines: [], fives: null };
      state = { ...state, position: state.positions[ply], moves: state.moves.slice(0, ply), positions: state.positions.slice(0, ply + 1), facts, to_move: (state.to_move + state.moves.length - ply) % 2 };
    }
    const who = seats(s)[state.to_move];
    const ply = state.moves.length;
    return {
      state,
      preview,
      lastMove: ply ? state.moves[ply - 1] : null,
      lastMover: (state.to_move + 1) % 2,
      evals: !preview && !resultOf(s) && s.settings.analysis && s.analysis && s.analysis.available ? new Map(s.analysis.moves.map((/** @type {any} */ m) => [m.move, m])) : null,
      interactive: !preview && !resultOf(s) && !isComputer(who),
      pie: preview ? null : pieOffer(s),
    };
  }

  function renderBoard(force = false) {
    const s = S();
    if (!s.view) return;
    const key = [s.view, s.analysis, s.preview, s.settings.analysis, s.swapped, s.resigned, s.paused, s.thinking, s.settings.sides.join()];
    if (!force && lastBoardKey && key.every((k, i) => k === lastBoardKey[i])) return;
    lastBoardKey = key;
    if (!board || boardGame !== s.view.game) {
      const make = boardMaker(s.view.game);
      board = make($("board"), handlers);
      boardGame = s.view.game;
    }
    board.update(boardView());
  }

  // -- status, notices, controls ------------------------------------------------------------
  function renderStatus() {
    const s = S();
    if (!s.view) return;
    renderStatusLine();
    // the full text where a phone cuts the line short
    $("status-text").title = $("status-text").textContent || "";
    const n = s.view.moves.length;
    $("status-hint").textContent = n ? t("status.last", { move: s.view.moves[n - 1] }) : t("status.first", { colour: colourName(s.view.to_move) });
  }

  function renderStatusLine() {
    const s = S();
    const dot = $("turn-dot");
    const text = $("status-text");
    const r = resultOf(s);
    if (s.preview !== null && s.preview !== s.view.moves.length) {
      dot.className = "turn-dot";
      text.textContent = s.preview === 0 ? t("status.previewStart") : t("status.preview", { plies: count("ply", s.preview) });
      return;
    }
    if (r) {
      dot.className = `turn-dot ${r.winner === null ? "draw" : `c-${s.view.players[r.winner]}`}`;
      const reason = t(`reason.${r.reason}`);
      text.textContent = r.winner === null ? t("status.draw", { reason }) : t("status.win", { colour: colourName(r.winner), who: sideLabel(r.winner), reason });
      return;
    }
    if (s.pieStage) {
      dot.className = "turn-dot";
      text.textContent = t("status.pieSetup");
      return;
    }
    const p = s.view.to_move;
    dot.className = `turn-dot c-${s.view.players[p]}`;
    let who = sideLabel(p);
    const seat = seats(s)[p];
    const mode = level4Mode();
    if (seat === "4" && mode) who += ` · ${t(`level4.tag.${mode}`)}`;
    let line = s.thinking ? t("status.thinking", { colour: colourName(p), who }) : t("status.toMove", { colour: colourName(p), who });
    if (!s.thinking && s.paused && isComputer(seat)) {
      line += ` · ${t("status.paused")}`;
      if (pieOffer(s) === "computer") line += ` · ${t("status.pieOffer")}`;
    }
    text.textContent = line;
  }

  function renderNotice() {
    const s = S();
    const box = $("notice");
    let f = s.forced;
    if (!f && s.settings.analysis && s.analysis && s.analysis.forced) f = s.analysis.forced;
    if (!f || !s.view || resultOf(s)) {
      box.hidden = true;
      return;
    }
    const args = { colour: colourName(f.winner), other: colourName(1 - f.winner), who: sideLabel(f.winner), moves: count("move", Math.ceil(f.plies / 2)), plies: count("ply", f.plies) };
    const key = f.computer ? "notice.computer" : f.winner === s.view.to_move ? "notice.forced" : "notice.forcedOther";
    box.textContent = t(key, args);
    box.className = `notice c-${s.view.players[f.winner]}`;
    box.hidden = false;
  }

  /** What level 4 does on these rules, with the offer to build its table and the progress. */
  function renderLevelNote() {
    const s = S();
    const box = $("level-note");
    const hint = $("s-level4-box");
    const mode = level4Mode();
    const bar = $("table-progress");
    const build = $("build-table");
    const tb = s.table;
    const building = tb && tb.state === "building";
    if (!mode && !(building && s.settings.analysis)) {
      box.hidden = true;
      hint.hidden = true;
      return;
    }
    const { text, offer } = tableNote(tb, mode, t(`game.${s.settings.game}`));
    $("level-text").textContent = text;
    $("s-level4").textContent = text;
    box.dataset.table = tb ? tb.state : "";
    hint.hidden = !mode;
    box.hidden = false;
    for (const b of [build, $("s-build")]) {
      b.hidden = offer === null;
      b.textContent = offer ?? "";
    }
    if (building) {
      const frac = tb.total > 0 ? Math.min(1, tb.done / tb.total) : 0;
      const pct = Math.round(frac * 100);
      let label = t("table.solving", { pct });
      if (tb.phase === "writing") label = t("table.writing", { pct });
      else if (tb.phase === "opening") label = t("table.opening");
      else if (tb.total > 0 && tb.done >= tb.total) label = t("table.counting"); // solved: counting before the file is written
      // the time left from this build's own pace (solving is most of it)
      const left = tb.phase === "opening" ? null : buildPace.left(`${tb.ruleset}/${tb.phase}`, frac, Date.now());
      if (left !== null) label += ` · ${t("time.left", { time: formatDuration(left) })}`;
      showProgress(bar, frac, label);
    } else {
      bar.hidden = true;
      buildPace.reset();
    }
  }

  /** @param {HTMLElement} bar @param {number} frac @param {string} label */
  function showProgress(bar, frac, label) {
    bar.hidden = false;
    /** @type {HTMLElement} */ (bar.querySelector(".bar")).style.width = `${(frac * 100).toFixed(1)}%`;
    /** @type {HTMLElement} */ (bar.querySelector(".label")).textContent = label;
  }

  function renderControls() {
    const s = S();
    const c = controlState(s);
    /** @type {HTMLButtonElement} */ ($("undo")).disabled = c.undoDisabled;
    /** @type {HTMLButtonElement} */ ($("redo")).disabled = c.redoDisabled;
    $("resign").hidden = !c.resignShown;
    /** @type {HTMLButtonElement} */ ($("resign")).disabled = c.resignDisabled;
    $("swap").hidden = !c.swapShown;
    $("pause").hidden = !c.pauseShown;
    $("pause").textContent = t(c.pauseLabel === "continue" ? "ctl.continue" : "ctl.pause");
    for (const b of $("s-speed").querySelectorAll("button")) {
      b.setAttribute("aria-pressed", String(Number(/** @type {HTMLElement} */ (b).dataset.speed) === Number(s.settings.speed)));
    }
  }

  /** The card over the board when a game with a player at this board ends. */
  function renderEndCard() {
    const s = S();
    const box = $("endcard");
    const r = resultOf(s);
    const show = !!r && !!s.view && s.origin === "here" && !s.endClosed && !s.run && s.preview === null && !isWatch(s.settings.sides);
    box.hidden = !show;
    if (!show || !r) return;
    const card = endCard({
      result: r,
      seats: seats(s),
      colourName,
      t,
      tally: s.tally,
      before: s.counted ? s.tallyBefore : null,
      labels: [participantLabel(0, true), participantLabel(1, true)],
    });
    box.className = `endcard ${card.kind}`;
    $("endcard-title").textContent = card.title;
    $("endcard-reason").textContent = card.reason.charAt(0).toUpperCase() + card.reason.slice(1);
    const rec = $("endcard-record");
    rec.replaceChildren();
    card.record.forEach((c, i) => {
      if (i) rec.append(" · ");
      const span = document.createElement("span");
      span.textContent = `${c.label} ${c.n}`;
      if (c.plus) {
        span.className = "plus";
        span.textContent += " (+1)";
      }
      rec.append(span);
    });
    $("end-review").hidden = $("review-game").hidden;
    $("end-swap").hidden = !s.settings.sides.some(isComputer);
  }

  function renderRecord() {
    const s = S();
    const box = $("record");
    const tl = s.tally;
    box.replaceChildren();
    const cells = [[participantLabel(0, true), tl.a, "a"], [t("record.draws"), tl.d, "d"], [participantLabel(1, true), tl.b, "b"]];
    for (const [label, n, cls] of cells) {
      const c = document.createElement("div");
      c.className = `rec rec-${cls}`;
      const num = document.createElement("span");
      num.className = "n";
      num.textContent = String(n);
      const l = document.createElement("span");
      l.className = "l";
      l.textContent = String(label);
      c.append(num, l);
      box.appendChild(c);
    }
    const games = document.createElement("p");
    games.className = "rec-games";
    games.id = "record-games";
    games.textContent = t("record.games", { n: tl.n });
    games.dataset.games = String(tl.n);
    games.title = t("record.note");
    box.appendChild(games);
    const bar = $("run-progress");
    if (s.run) {
      // the time left from the games played so far (a 6×6 level 4 game can take minutes)
      const frac = s.run.done / s.run.total;
      const left = s.run.done > 0 ? runPace.left("run", frac, Date.now()) : (runPace.left("run", 0, Date.now()), null);
      const args = { done: Math.min(s.run.done + 1, s.run.total), total: s.run.total };
      showProgress(bar, frac, left !== null ? t("run.left", { ...args, time: formatDuration(left) }) : t("run.progress", args));
    } else {
      bar.hidden = true;
      runPace.reset();
    }
  }

  function renderMoves() {
    const s = S();
    const list = $("movelist");
    list.replaceChildren();
    if (!s.view) return;
    const all = [...s.game.moves, ...[...s.game.redo].reverse()];
    // with the analysis on, each move coloured by the value it led to for its mover
    const a = s.settings.analysis && s.analysis && s.analysis.available ? s.analysis : null;
    const values = a && a.history ? moveValues(a.history) : [];
    // where no table exists, each move marked by what the search's estimates say it cost
    const marks = s.settings.analysis && !a ? estimateMarks() : [];
    const first = s.view.start.trim().split(/\s+/)[1];
    const offset = first && first.toUpperCase() !== s.view.players[0][0].toUpperCase() ? 1 : 0;
    /** @type {HTMLLIElement | null} */
    let li = null;
    all.forEach((m, i) => {
      const k = i + offset;
      if (k % 2 === 0 || !li) {
        li = document.createElement("li");
        li.value = Math.floor(k / 2) + 1;
        if (k % 2 === 1) {
          const gap = document.createElement("span");
          gap.className = "gap";
          gap.textContent = "…";
          li.append(gap);
        }
        list.appendChild(li);
      }
      const b = document.createElement("button");
      b.type = "button";
      b.className = "ply";
      if (i >= s.game.moves.length) b.classList.add("future");
      if (i === s.game.moves.length - 1) b.classList.add("current");
      if (values[i]) b.classList.add(`v-${values[i]}`);
      else if (marks[i]) b.classList.add(`e-${marks[i]}`);
      b.textContent = m;
      b.addEventListener("click", () => handlers.onJump(i + 1));
      li.appendChild(b);
    });
    if (s.resigned !== null) {
      const end = document.createElement("li");
      end.className = "end";
      end.textContent = t("moves.resigned", { colour: colourName(s.resigned) });
      list.appendChild(end);
    }
    const cur = /** @type {HTMLElement | null} */ (list.querySelector(".current"));
    if (cur) list.scrollTop = Math.max(0, cur.offsetTop - list.clientHeight / 2);
  }

  /** The move list's marks from the estimates seen of the game's positions. */
  function estimateMarks() {
    const s = S();
    const prefix = `${s.view.game}/${s.view.variant}/${s.view.size}|`;
    const seen = s.view.positions.map((/** @type {string} */ p) => s.seen[prefix + p] || null);
    return moveMarks(seen, s.view.result);
  }

  /** The search's estimate where no table exists: the bar, its label and the best line. */
  function renderEstimate() {
    const s = S();
    const box = $("estimate");
    const a = s.analysis;
    const e = s.estimate && s.view && s.estimate.position === s.view.position ? s.estimate : null;
    const show = s.settings.analysis && !!a && !a.available && !resultOf(s) && s.preview === null;
    box.hidden = !show;
    const mini = $("status-est");
    mini.hidden = !show || !e || !!e.failed;
    if (!show) return;
    const bar = $("est-bar");
    const [pa, pb] = e && !e.failed ? shares(e) : [0.5, 0.5];
    const [ca, cb] = s.view.players;
    /** @type {HTMLElement} */ (bar.querySelector(".est-a")).style.flexGrow = String(pa);
    /** @type {HTMLElement} */ (bar.querySelector(".est-b")).style.flexGrow = String(pb);
    bar.className = `est-bar a-${ca} b-${cb}${e && !e.failed ? "" : " waiting"}`;
    /** @type {HTMLElement} */ (mini.querySelector(".est-a")).style.flexGrow = String(pa);
    /** @type {HTMLElement} */ (mini.querySelector(".est-b")).style.flexGrow = String(pb);
    mini.className = `status-est est-bar a-${ca} b-${cb}`;
    box.dataset.state = !e ? "loading" : e.failed ? "failed" : e.proven ? "proven" : "estimate";
    if (!e || e.failed) {
      $("est-label").textContent = t(e ? "est.failed" : "est.loading");
      $("est-pct").textContent = "";
      $("est-moves").textContent = "";
      bar.removeAttribute("aria-label");
      return;
    }
    const { key, args } = estimateLabel(e);
    $("est-label").textContent = t(key, { ...args, colour: colourName(e.to_move), plies: count("ply", args.plies ?? 0) });
    const mine = percent(e);
    const pct = e.to_move === 0 ? [mine, 100 - mine] : [100 - mine, mine];
    $("est-pct").textContent = `${colourName(e.to_move)} ${mine}%`;
    const said = t("est.bar", { a: colourName(0), pa: pct[0], b: colourName(1), pb: pct[1] });
    bar.setAttribute("aria-label", said);
    mini.setAttribute("aria-label", `${said} (${$("est-label").textContent})`);
    mini.title = mini.getAttribute("aria-label") || "";
    $("est-moves").textContent = e.line.join(" ");
  }

  function renderAnalysis() {
    const s = S();
    const box = $("analysis");
    box.hidden = !s.settings.analysis;
    /** @type {HTMLInputElement} */ ($("analysis-toggle")).checked = s.settings.analysis;
    if (!s.settings.analysis) return;
    const line = $("value-line");
    const list = $("move-values");
    list.replaceChildren();
    const a = s.analysis;
    if (!a) {
      line.className = "value-line";
      line.textContent = t("analysis.loading");
      $("chart").replaceChildren();
      return;
    }
    const build = $("analysis-build");
    build.hidden = true;
    if (!a.available) {
      line.className = "value-line note";
      const tb = s.table;
      const time = tb && tb.estimate_s ? formatDuration(tb.estimate_s) : formatDuration(1);
      if (a.table === "building") line.textContent = t("analysis.building");
      else if (a.table === "missing" && tb && tb.buildable === false) line.textContent = bigTableText(tb);
      else if (a.table === "missing") {
        line.textContent = t("analysis.missing", { time });
        build.textContent = t("level4.offer", { time });
        build.hidden = false;
      } else if (a.table === "unsolvable") {
        // no table can exist here: the search's estimate stands in below
        line.textContent = t("est.note");
      }
      else line.textContent = t("analysis.unavailable", { reason: a.reason || "" });
      $("chart").replaceChildren();
      return;
    }
    const p = a.to_move;
    const r = resultOf(s);
    if (r) {
      // the end, coloured for the one human if there is one, else neutral
      const humans = [0, 1].filter((c) => !isComputer(seats(s)[c]));
      let cls = "v-over";
      if (r.winner === null) cls = "v-draw";
      else if (humans.length === 1) cls = r.winner === humans[0] ? "v-win" : "v-loss";
      line.className = `value-line ${cls}`;
      line.textContent = r.winner === null ? t("analysis.overDraw") : t("analysis.overWon", { colour: colourName(r.winner) });
    } else {
      line.className = `value-line v-${a.value}`;
      line.textContent = a.value === "draw" ? t("analysis.posDraw", { colour: colourName(p) }) : t(`analysis.pos.${a.value}`, { colour: colourName(p), plies: count("ply", a.remoteness) });
    }
    if (!r) {
      for (const m of a.moves) {
        const li = document.createElement("li");
        li.className = `v-${m.value}`;
        li.dataset.move = m.move;
        const name = document.createElement("span");
        name.className = "mv";
        name.textContent = m.move;
        const val = document.createElement("span");
        val.className = "val";
        val.textContent = m.value === "draw" ? t("value.draw") : `${t(`value.${m.value}`)} ${m.remoteness}`;
        li.append(name, val);
        li.title = t("analysis.play");
        li.tabIndex = 0;
        li.setAttribute("role", "button");
        li.addEventListener("keydown", (ev) => {
          if (ev.key === "Enter" || ev.key === " ") {
            ev.preventDefault();
            handlers.onPlayEval(m.move);
          }
        });
        li.addEventListener("click", () => handlers.onPlayEval(m.move));
        list.appendChild(li);
      }
    }
    renderChart($("chart"), a.history, s.view.players, { onPick: (ply) => handlers.onJump(ply), onPreview: (ply) => handlers.onPreview(ply) });
  }

  // -- the New game sheet ---------------------------------------------------------------------
  function fillSetup() {
    const s = S();
    const cat = s.catalogue;
    if (!cat) return;
    const settings = { ...s.settings };
    const g = cat.games.find((/** @type {any} */ x) => x.name === settings.game) || cat.games[0];
    settings.game = g.name;
    const v = g.variants.find((/** @type {any} */ x) => x.name === settings.variant) || g.variants.find((/** @type {any} */ x) => x.name === g.default_variant);
    settings.variant = v.name;
    const [lo, hi] = v.sizes;
    if (!(settings.size >= lo && settings.size <= hi)) settings.size = v.default_size;
    const levels = cat.levels;
    settings.sides = settings.sides.map((x) => (x === "human" || levels.includes(x) ? x : levels[levels.length - 1]));
    if (JSON.stringify(settings) !== JSON.stringify(s.settings)) store.set({ settings });
    /** @param {string} id @param {[string, string][]} items @param {string} value */
    const opts = (id, items, value) => {
      const sel = /** @type {HTMLSelectElement} */ ($(id));
      sel.replaceChildren(...items.map(([val, label]) => new Option(label, val)));
      sel.value = value;
    };
    opts("s-game", cat.games.map((/** @type {any} */ x) => [x.name, t(`game.${x.name}`, {}, x.title)]), g.name);
    opts("s-variant", g.variants.map((/** @type {any} */ x) => [x.name, t(`variant.${x.name}`, {}, x.name)]), v.name);
    /** @type {[string, string][]} */
    const sizes = [];
    for (let n = lo; n <= hi; n++) sizes.push([String(n), `${n} × ${n}`]);
    opts("s-size", sizes, String(settings.size));
    /** @type {[string, string][]} */
    const who = [["human", t("who.human")], ...levels.map((/** @type {string} */ l) => [l, l === "random" ? t("who.random") : t("who.level", { n: l })])];
    for (const i of [0, 1]) {
      opts(`s-side${i}`, who, (s.menuSides || settings.sides)[i]);
      $(`s-side${i}-label`).textContent = t(`colour.${v.players[i]}`);
    }
    /** @type {HTMLInputElement} */ ($("s-alternate")).checked = settings.alternate;
  }

  function renderTitle() {
    const s = S();
    if (!s.view) return;
    const title = t(`game.${s.view.game}`);
    $("game-title").textContent = title;
    document.body.dataset.game = s.view.game;
    document.title = `BoardLab — ${title}`;
  }

  /** @type {any[] | null} */
  let lastPanelKey = null;

  function renderAll(force = false) {
    const s = S();
    renderTitle();
    renderBoard(force);
    renderStatus();
    renderNotice();
    renderLevelNote();
    renderControls();
    renderRecord();
    renderEndCard();
    // the move list and the chart are rebuilt only when they change (a rebuild under the
    // pointer would swallow clicks on the chart)
    const key = [s.view, s.game, s.analysis, s.settings.analysis, s.swapped, s.resigned, getLang(), s.estimate, s.seen];
    if (force || !lastPanelKey || key.some((k, i) => k !== lastPanelKey?.[i])) {
      lastPanelKey = key;
      renderMoves();
      renderAnalysis();
    }
    renderEstimate();
  }

  store.subscribe(() => renderAll());
  return { fillSetup, renderAll, pieText, sideLabel, colourName };
}
