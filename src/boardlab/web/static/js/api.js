// @ts-check
// Thin client for the JSON API. Every call sends the whole game (rules, start, moves): the
// server keeps no game state. Calls that may take long accept an AbortSignal.

export class ApiError extends Error {
  /** @param {string} message @param {string} kind @param {number} status */
  constructor(message, kind, status) {
    super(message);
    this.kind = kind;
    this.status = status;
  }
}

/**
 * The one way the pages talk to the server: JSON in and out, an ApiError (the server's
 * one-line error, its kind and the HTTP status) for any failure.
 * @param {string} method @param {string} path @param {unknown} [body] @param {AbortSignal} [signal]
 * @param {Record<string, string>} [headers] more headers (a seat's token)
 * @returns {Promise<any>}
 */
export async function request(method, path, body, signal, headers = {}) {
  /** @type {Record<string, string>} */
  const sent = { ...headers };
  /** @type {RequestInit} */
  const init = { method, headers: sent, signal };
  if (body !== undefined) {
    sent["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (err) {
    if (signal && signal.aborted) throw err;
    throw new ApiError("the server cannot be reached", "NetworkError", 0);
  }
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) {
    const msg = (data && data.error) || `HTTP ${res.status}`;
    throw new ApiError(msg, (data && data.kind) || "HttpError", res.status);
  }
  return data;
}

/** A text answer (a record file), with the same errors as `request`. @param {string} path */
export async function requestText(path) {
  let res;
  try {
    res = await fetch(path);
  } catch {
    throw new ApiError("the server cannot be reached", "NetworkError", 0);
  }
  if (!res.ok) throw new ApiError(`HTTP ${res.status}`, "HttpError", res.status);
  return res.text();
}

/**
 * @typedef {{game: string, variant: string, size: number, start?: string | null, moves: string[]}} Game
 */

/** The game part of every request. @param {Game} game */
export function spec(game) {
  /** @type {Record<string, unknown>} */
  const out = { game: game.game, variant: game.variant, size: game.size, moves: game.moves };
  if (game.start) out.start = game.start;
  return out;
}

/** @param {{game: string, variant: string, size: number}} g */
const rulesQuery = (g) =>
  `game=${encodeURIComponent(g.game)}&variant=${encodeURIComponent(g.variant)}&size=${g.size}`;

export const api = {
  games: () => request("GET", "/api/games"),
  /** @param {Game} game @param {AbortSignal} [signal] */
  state: (game, signal) => request("POST", "/api/state", spec(game), signal),
  /** @param {Game} game @param {string} level @param {number} seed @param {boolean} forced @param {AbortSignal} [signal] */
  move: (game, level, seed, forced, signal) =>
    request("POST", "/api/move", { ...spec(game), level, seed, forced }, signal),
  /** @param {Game} game @param {string[]} players @param {number} seed @param {AbortSignal} [signal] */
  playout: (game, players, seed, signal) =>
    request("POST", "/api/playout", { ...spec(game), players, seed, max_plies: 1000 }, signal),
  /**
   * The computer's part of the pie rule: role "place", or "choose" for `setup`.
   * @param {Game} game @param {"place" | "choose"} role @param {string | null} setup @param {string} level @param {number} seed
   * @param {AbortSignal} [signal]
   */
  pie: (game, role, setup, level, seed, signal) => {
    /** @type {Record<string, unknown>} */
    const body = { game: game.game, variant: game.variant, size: game.size, role, level, seed };
    if (role === "choose") body.setup = setup;
    return request("POST", "/api/pie", body, signal);
  },
  /** @param {Game} game @param {AbortSignal} [signal] */
  analysis: (game, signal) => request("POST", "/api/analysis", spec(game), signal),
  /** The search's estimate where no table exists. @param {Game} game @param {AbortSignal} [signal] */
  estimate: (game, signal) => request("POST", "/api/estimate", spec(game), signal),
  /** A review's quick estimate (a quarter of the search's budget). @param {Game} game @param {AbortSignal} [signal] */
  quickEstimate: (game, signal) => request("POST", "/api/estimate", { ...spec(game), quick: true }, signal),
  /** @param {{game: string, variant: string, size: number}} g @param {AbortSignal} [signal] */
  tableStatus: (g, signal) => request("GET", `/api/tables?${rulesQuery(g)}`, undefined, signal),
  /** @param {{game: string, variant: string, size: number}} g */
  buildTable: (g) => request("POST", "/api/tables", { game: g.game, variant: g.variant, size: g.size }),
  /** Stop a build started from the page. @param {{game: string, variant: string, size: number}} g */
  cancelBuild: (g) => request("DELETE", `/api/tables?${rulesQuery(g)}`),
  /** @param {Game} game @param {Record<string, string>} players */
  exportRecord: (game, players) => request("POST", "/api/record/export", { ...spec(game), players }),
  /** @param {string} text */
  importRecord: (text) => request("POST", "/api/record/import", { text }),
};
