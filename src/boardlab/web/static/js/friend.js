// @ts-check
// Play a friend: create a shared game, hand out the invitation and watch links, and play it
// live. The server's state is the only truth: moves are sent over HTTP and every change comes
// back over the game's WebSocket. A game with a setup stage (Dot Dash's pie) starts with it:
// one person places three stones on the board, the other takes a colour. When the socket
// drops the page polls every few seconds and reconnects with a growing pause; both stop once
// the socket is back.

import { request, requestText } from "./api.js";
import { boardMaker, loadRenderers } from "./boards/registry.js";
import { applyFriendTexts, clockText, friendHash, ft, isOlder, parseFriendHash } from "./friend-i18n.js";
import "./theme.js";
import { applyI18n, getLang, onLangChange, setLang, t } from "./i18n.js";

const INVITES = "boardlab.friend.invites.v1";
const POLL_MS = 2500;

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** What the page holds: the game it shows, the seat token (null: watching), the last state. */
const page = {
  /** @type {string | null} */ game: null,
  /** @type {string | null} */ token: null,
  /** @type {any} */ state: null,
  /** @type {WebSocket | null} */ ws: null,
  /** @type {"live" | "polling" | "connecting"} */ conn: "connecting",
  retries: 0,
  /** @type {ReturnType<typeof setTimeout> | null} */ reconnectTimer: null,
  /** @type {ReturnType<typeof setInterval> | null} */ pollTimer: null,
  /** @type {ReturnType<typeof setInterval> | null} */ clockTimer: null,
  /** @type {{update: (v: any) => void} | null} */ board: null,
  boardGame: "",
  clockOffset: 0, // server time minus this browser's, from the last state
  generation: 0, // bumped when the page switches games, so stale sockets keep quiet
  /** @type {any} */ catalogue: null,
};

// -- HTTP ------------------------------------------------------------------------------------
/** A request of this seat (its token, where it holds one). @param {string} method @param {string} path @param {unknown} [body] */
function call(method, path, body) {
  return request(method, path, body, undefined, page.token ? { Authorization: `Bearer ${page.token}` } : {});
}

/** @param {string} text @param {"warn" | "info"} [kind] */
function say(text, kind = "warn") {
  const box = $("f-message");
  box.textContent = text;
  box.className = `message ${kind}`;
  box.hidden = !text;
}

// -- the create form -------------------------------------------------------------------------
const colourName = (/** @type {string} */ c) => t(`colour.${c}`, {}, c);

function fillForm() {
  const cat = page.catalogue;
  if (!cat) return;
  const game = /** @type {HTMLSelectElement} */ ($("f-game"));
  const variant = /** @type {HTMLSelectElement} */ ($("f-variant"));
  const size = /** @type {HTMLSelectElement} */ ($("f-size"));
  const colour = /** @type {HTMLSelectElement} */ ($("f-colour"));
  const setup = /** @type {HTMLSelectElement} */ ($("f-setup"));
  const keep = { game: game.value, variant: variant.value, size: size.value, colour: colour.value, setup: setup.value };
  // the same words for games and variants as the main page's menus
  game.replaceChildren(...cat.games.map((/** @type {any} */ g) => new Option(t(`game.${g.name}`, {}, g.title), g.name)));
  game.value = keep.game || cat.games[0].name;
  const info = cat.games.find((/** @type {any} */ g) => g.name === game.value) || cat.games[0];
  variant.replaceChildren(...info.variants.map((/** @type {any} */ v) => new Option(t(`variant.${v.name}`, {}, v.name), v.name)));
  variant.value = info.variants.some((/** @type {any} */ v) => v.name === keep.variant) ? keep.variant : info.default_variant;
  const v = info.variants.find((/** @type {any} */ x) => x.name === variant.value);
  size.replaceChildren(...v.size_list.map((/** @type {number} */ n) => new Option(`${n}×${n}`, String(n))));
  size.value = v.size_list.includes(Number(keep.size)) ? keep.size : String(v.default_size);
  colour.replaceChildren(
    new Option(colourName(v.players[0]), "first"),
    new Option(colourName(v.players[1]), "second"),
    new Option(ft("f.colour.random"), "random"),
  );
  colour.value = keep.colour || "first";
  // a game with a setup stage offers it (the rules' way to start) or the fixed start
  $("f-setup-row").hidden = !info.setup;
  setup.replaceChildren(
    ...["place", "choose", "random", "fixed"].map((k) => new Option(ft(`f.setup.${k}`), k)),
  );
  setup.value = keep.setup || "place";
  $("f-colour-row").hidden = Boolean(info.setup) && setup.value !== "fixed";
}

async function showCreate() {
  $("f-create").hidden = false;
  $("f-play").hidden = true;
  $("f-side").hidden = true;
  page.catalogue = page.catalogue || (await call("GET", "/api/games"));
  fillForm();
  for (const id of ["f-game", "f-variant", "f-setup"]) $(id).addEventListener("change", fillForm);
  $("f-clock-on").addEventListener("change", () => {
    $("f-clock-row").hidden = !(/** @type {HTMLInputElement} */ ($("f-clock-on")).checked);
  });
  $("f-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    create().catch((err) => say(err.message));
  });
}

async function create() {
  const val = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ ($(id)).value;
  /** @type {Record<string, unknown>} */
  const body = { game: val("f-game"), variant: val("f-variant"), size: Number(val("f-size")), colour: val("f-colour") };
  if (!$("f-setup-row").hidden && val("f-setup") !== "fixed") {
    body.pie = val("f-setup");
    delete body.colour; // the chooser's colour seats both players
  }
  if (/** @type {HTMLInputElement} */ ($("f-clock-on")).checked) {
    body.clock = { minutes: Number(val("f-minutes")), increment: Number(val("f-increment")) };
  }
  page.token = null;
  const created = await call("POST", "/api/friends", body);
  const invites = JSON.parse(localStorage.getItem(INVITES) || "{}");
  invites[created.id] = created.invite_token;
  const ids = Object.keys(invites);
  for (const old of ids.slice(0, Math.max(0, ids.length - 50))) delete invites[old];
  localStorage.setItem(INVITES, JSON.stringify(invites));
  history.replaceState(null, "", `/friend${friendHash(created.id, created.token)}`);
  openGame(created.id, created.token, created.state);
}

// -- a game ----------------------------------------------------------------------------------
/** @param {string} game @param {string | null} token @param {any} [state] */
function openGame(game, token, state = null) {
  page.generation += 1;
  closeSocket();
  page.game = game;
  page.token = token;
  page.state = null;
  $("f-create").hidden = true;
  $("f-play").hidden = false;
  $("f-side").hidden = false;
  if (state) render(state);
  connect();
  if (!state) poll();
}

function closeSocket() {
  if (page.ws) {
    page.ws.onclose = null;
    page.ws.close();
    page.ws = null;
  }
  if (page.reconnectTimer) clearTimeout(page.reconnectTimer);
  page.reconnectTimer = null;
}

function setConn(/** @type {"live" | "polling" | "connecting"} */ conn) {
  page.conn = conn;
  document.body.dataset.conn = conn;
  const box = $("f-conn");
  box.dataset.conn = conn;
  box.textContent = ft(`f.conn.${conn}`);
  if (conn === "live") {
    if (page.pollTimer) clearInterval(page.pollTimer);
    page.pollTimer = null;
  } else if (!page.pollTimer) {
    page.pollTimer = setInterval(poll, POLL_MS);
  }
}

function connect() {
  const gen = page.generation;
  const game = /** @type {string} */ (page.game);
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  let ws;
  try {
    ws = new WebSocket(`${scheme}://${location.host}/api/friends/${game}/ws`);
  } catch {
    scheduleReconnect();
    return;
  }
  page.ws = ws;
  if (page.conn !== "polling") setConn("connecting");
  ws.onopen = () => ws.send(JSON.stringify({ type: "hello", token: page.token }));
  ws.onmessage = (ev) => {
    if (gen !== page.generation) return;
    let msg;
    try {
      msg = JSON.parse(ev.data);
    } catch {
      return;
    }
    if (msg.type === "state") {
      page.retries = 0;
      if (page.conn !== "live") setConn("live");
      render(msg.state);
    } else if (msg.type === "error") {
      if (msg.status === 403) say(ft("f.badToken"));
      else if (msg.status === 404) say(ft("f.notFound"));
      else say(msg.error);
    }
  };
  ws.onclose = () => {
    if (gen !== page.generation) return;
    page.ws = null;
    setConn("polling");
    scheduleReconnect();
  };
}

function scheduleReconnect() {
  const delay = Math.min(8000, 500 * 2 ** page.retries);
  page.retries += 1;
  page.reconnectTimer = setTimeout(connect, delay);
}

async function poll() {
  if (!page.game) return;
  const gen = page.generation;
  try {
    const state = await call("GET", `/api/friends/${page.game}`);
    if (gen === page.generation) render(state);
  } catch (err) {
    const status = /** @type {any} */ (err).status;
    if (status === 404) say(ft("f.notFound"));
    else if (status === 403) say(ft("f.badToken"));
  }
}

/** Send an action; the answer (and the socket) bring the new state. @param {string} path @param {unknown} [body] */
async function act(path, body) {
  const gen = page.generation;
  try {
    const out = await call("POST", `/api/friends/${page.game}/${path}`, body);
    say("");
    if (gen === page.generation && out && out.ply !== undefined) render(out);
    return out;
  } catch (err) {
    say(/** @type {Error} */ (err).message);
    if (/** @type {any} */ (err).status === 409) poll();
    return null;
  }
}

/** Why the viewer may not move now, or null. */
function blocked() {
  const s = page.state;
  if (!s) return ft("f.over");
  if (s.you === null || s.you === undefined) return ft("f.watchOnly");
  if (s.status !== "playing") return ft("f.over");
  if (s.setup) return ft("f.setupFirst");
  if (s.to_move !== s.you) return ft("f.notYourTurn");
  return null;
}

const handlers = {
  /** @param {string} move */
  onMove: (move) => {
    const s = page.state;
    if (blocked() || !s) return;
    act("move", { move, ply: s.ply });
  },
  /** @param {string | null} text */
  onIllegal: (text) => say(text || ""),
  canAct: blocked,
  /** The placer's three stones (setup text); false when refused. @param {string} setup */
  onPiePlaced: async (setup) => Boolean(await act("setup", { action: "place", setup })),
  /** @param {unknown} err */
  onError: (err) => say(String(/** @type {any} */ (err)?.message || err)),
};

/** The viewer's part in the setup stage now: "place", "choose", "wait" (the friend's turn)
 * or "watch"; null when there is no setup stage under way. */
function setupRole() {
  const s = page.state;
  if (!s || !s.setup || s.status !== "playing") return null;
  if (s.you === null || s.you === undefined) return "watch";
  const placing = s.person === s.setup.placer;
  if (s.setup.stage === "place") return placing ? "place" : "wait";
  return placing ? "wait" : "choose";
}

// -- drawing -----------------------------------------------------------------------------------
const cname = (/** @type {number} */ p) => colourName(page.state.players[p]);
const cword = (/** @type {number} */ p) => (getLang() === "en" ? cname(p).toLowerCase() : cname(p));

/** @param {any} state */
function render(state) {
  if (isOlder(state, page.state)) return; // a slower answer (a poll) after a newer push
  page.state = state;
  if (state.next_game && state.status !== "playing") {
    // the rematch: the same token plays the next game (colours swapped)
    history.replaceState(null, "", `/friend${friendHash(state.next_game, page.token)}`);
    openGame(state.next_game, page.token);
    return;
  }
  if (state.clock) page.clockOffset = state.clock.now * 1000 - Date.now();
  document.body.dataset.status = state.status;
  document.body.dataset.ply = String(state.ply);
  document.body.dataset.seat = state.you === null || state.you === undefined ? "watch" : String(state.you);
  drawBoard();
  drawStatus();
  drawControls();
  drawSide();
  drawClocks();
  document.body.dataset.ready = "1";
}

function drawBoard() {
  const s = page.state;
  if (!page.board || page.boardGame !== s.game) {
    const make = boardMaker(s.game);
    page.board = /** @type {{update: (v: any) => void}} */ (make($("board"), handlers));
    page.boardGame = s.game;
  }
  const ply = s.moves.length;
  page.board.update({
    state: s,
    preview: false,
    lastMove: ply ? s.moves[ply - 1] : null,
    lastMover: (s.to_move + 1) % 2,
    evals: null,
    interactive: blocked() === null,
    // while the stones are placed: the placer places them here, everyone else sees an empty board
    pie: setupRole() && s.setup.stage === "place" ? (setupRole() === "place" ? "place" : "wait") : null,
  });
}

function drawStatus() {
  const s = page.state;
  const dot = $("f-dot");
  const text = $("f-status");
  const seat = s.you !== null && s.you !== undefined;
  dot.className = `turn-dot p${s.to_move}`;
  dot.style.background = `var(--${s.players[s.to_move]}, var(--accent))`;
  const role = setupRole();
  if (role) dot.style.background = "var(--muted, var(--accent))";
  if (s.status === "waiting") text.textContent = seat ? ft("f.waiting") : ft("f.waitingWatch");
  else if (role) text.textContent = ft(`f.pie.${role}.${s.setup.stage}`);
  else if (s.status === "expired") text.textContent = ft("f.expired");
  else if (s.result) {
    const reason = ft(`f.reason.${s.result.reason}`);
    text.textContent = s.result.winner === null ? ft("f.drawn", { reason }) : ft("f.won", { colour: cname(s.result.winner), reason });
    dot.style.background = s.result.winner === null ? "var(--draw)" : `var(--${s.players[s.result.winner]})`;
  } else if (!seat) text.textContent = ft("f.toMove", { colour: cname(s.to_move) });
  else if (s.to_move === s.you) text.textContent = ft("f.yourTurn", { colour: cword(s.you) });
  else text.textContent = ft("f.theirTurn", { colour: cname(s.to_move) });
}

function drawControls() {
  const s = page.state;
  const seat = s.you !== null && s.you !== undefined;
  const playing = s.status === "playing";
  $("f-controls").hidden = false;
  $("f-resign").hidden = !seat || !(playing || s.status === "waiting");
  const offerToMe = playing && seat && s.draw_offer !== null && s.draw_offer !== s.you;
  const choosing = setupRole() === "choose";
  for (const p of [0, 1]) {
    const b = $(`f-take-${p}`);
    b.hidden = !choosing;
    b.className = `primary take c-${s.players[p]}`;
    b.textContent = t("dd.choose", { colour: cname(p) });
  }
  $("f-draw").hidden = !seat || !playing || offerToMe || Boolean(s.setup);
  /** @type {HTMLButtonElement} */ ($("f-draw")).disabled = s.draw_offer === s.you;
  $("f-accept").hidden = !offerToMe;
  $("f-decline").hidden = !offerToMe;
  $("f-rematch").hidden = !seat || playing || s.status === "waiting" || Boolean(s.next_game);
  if (offerToMe) say(ft("f.offeredToYou"), "info");
  else if (seat && playing && s.draw_offer === s.you) say(ft("f.offered"), "info");
}

function drawSide() {
  const s = page.state;
  const seat = s.you !== null && s.you !== undefined;
  const me = seat ? s.person : 0;
  const names = seat ? [ft("f.you"), ft("f.friend")] : [ft("f.creator"), ft("f.invited")];
  const sc = s.match.score;
  const games = ft(`f.games.${s.match.games === 1 ? "one" : "other"}`, { n: s.match.games });
  const fmt = (/** @type {number} */ x) => (Number.isInteger(x) ? String(x) : `${Math.floor(x) || ""}½`);
  $("f-score").textContent = ft("f.score", { a: names[0], sa: fmt(sc[me]), sb: fmt(sc[1 - me]), b: names[1], n: games });
  const role = setupRole();
  if (role && seat) $("f-seats").textContent = ft(s.person === s.setup.placer ? "f.seats.place" : "f.seats.choose");
  else $("f-seats").textContent = seat ? ft("f.seats", { colour: cword(s.you) }) : ft("f.spectator");
  const list = $("f-movelist");
  list.replaceChildren();
  for (let i = 0; i < s.moves.length; i += 2) {
    const li = document.createElement("li");
    li.textContent = s.moves.slice(i, i + 2).join("  ");
    list.appendChild(li);
  }
  const invites = JSON.parse(localStorage.getItem(INVITES) || "{}");
  const invite = seat ? invites[s.id] : null;
  $("f-links").hidden = !seat;
  if (seat) {
    const base = `${location.origin}/friend`;
    /** @type {HTMLInputElement} */ ($("f-watch")).value = base + friendHash(s.id);
    /** @type {HTMLInputElement} */ ($("f-invite")).value = invite ? base + friendHash(s.id, invite) : "";
    $("f-invite").closest("label")?.toggleAttribute("hidden", !invite || s.status !== "waiting" && s.match.games > 1);
  }
}

function drawClocks() {
  const s = page.state;
  const box = $("f-clocks");
  box.hidden = !s.clock;
  if (page.clockTimer) clearInterval(page.clockTimer);
  page.clockTimer = null;
  if (!s.clock) return;
  const tick = () => {
    const c = page.state.clock;
    if (!c) return;
    const elapsed = Date.now() + page.clockOffset - c.now * 1000;
    for (const p of [0, 1]) {
      const left = c.remaining_ms[p] - (c.running === p ? elapsed : 0);
      const el = $(`f-clock-${p}`);
      el.textContent = `${cname(p)} ${clockText(left)}`;
      el.classList.toggle("running", c.running === p);
      el.classList.toggle("low", left < 10_000);
    }
  };
  tick();
  if (s.clock.running !== null) page.clockTimer = setInterval(tick, 200);
}

// -- start -----------------------------------------------------------------------------------
function wire() {
  for (const b of document.querySelectorAll("[data-lang]")) {
    b.addEventListener("click", () => setLang(/** @type {HTMLElement} */ (b).dataset.lang || "en"));
  }
  onLangChange(() => {
    applyFriendTexts();
    fillForm();
    if (page.state) render(page.state);
    if (page.conn) setConn(page.conn);
  });
  $("f-resign").addEventListener("click", () => {
    if (confirm(ft("f.confirmResign"))) act("resign");
  });
  $("f-draw").addEventListener("click", () => act("draw", { action: "offer" }));
  for (const p of [0, 1]) $(`f-take-${p}`).addEventListener("click", () => act("setup", { action: "choose", colour: p }));
  $("f-accept").addEventListener("click", () => act("draw", { action: "accept" }));
  $("f-decline").addEventListener("click", () => act("draw", { action: "decline" }));
  $("f-rematch").addEventListener("click", async () => {
    const out = await act("rematch");
    if (out && out.id) {
      history.replaceState(null, "", `/friend${friendHash(out.id, page.token)}`);
      openGame(out.id, page.token);
    }
  });
  $("f-export").addEventListener("click", async () => {
    try {
      /** @type {HTMLTextAreaElement} */ ($("f-record-text")).value = await requestText(`/api/friends/${page.game}/record`);
      /** @type {HTMLDialogElement} */ ($("f-record-dialog")).showModal();
    } catch (err) {
      say(/** @type {Error} */ (err).message);
    }
  });
  for (const [button, input] of [["f-copy-invite", "f-invite"], ["f-copy-watch", "f-watch"]]) {
    $(button).addEventListener("click", async () => {
      const field = /** @type {HTMLInputElement} */ ($(input));
      field.select();
      try {
        await navigator.clipboard.writeText(field.value);
        say(ft("f.copied"), "info");
      } catch {
        /* the text is selected for copying by hand */
      }
    });
  }
  window.addEventListener("hashchange", () => {
    const link = parseFriendHash(location.hash);
    if (link && link.game !== page.game) openGame(link.game, link.token);
  });
}

async function main() {
  applyI18n();
  applyFriendTexts();
  wire();
  try {
    page.catalogue = await call("GET", "/api/games");
    await loadRenderers(page.catalogue); // each game's board, by the renderer it declares
  } catch (err) {
    say(/** @type {Error} */ (err).message);
  }
  const link = parseFriendHash(location.hash);
  if (link) {
    openGame(link.game, link.token);
  } else {
    showCreate()
      .then(() => (document.body.dataset.ready = "1"))
      .catch((err) => say(err.message));
  }
}

main();
