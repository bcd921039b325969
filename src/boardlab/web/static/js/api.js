// Thin client for the JSON API. Every call sends the whole game (rules, start, moves):
// the server keeps no game state.

export class ApiError extends Error {
  constructor(message, kind, status) {
    super(message);
    this.kind = kind;
    this.status = status;
  }
}

async function request(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (err) {
    throw new ApiError("the server cannot be reached", "NetworkError", 0);
  }
  let data = null;
  try {
    data = await res.json();
  } catch (err) {
    data = null;
  }
  if (!res.ok) {
    const msg = (data && data.error) || `HTTP ${res.status}`;
    throw new ApiError(msg, (data && data.kind) || "HttpError", res.status);
  }
  return data;
}

/** The game part of every request. */
export function spec(game) {
  const out = { game: game.game, variant: game.variant, size: game.size, moves: game.moves };
  if (game.start) out.start = game.start;
  return out;
}

export const api = {
  games: () => request("GET", "/api/games"),
  state: (game) => request("POST", "/api/state", spec(game)),
  move: (game, level, seed) => request("POST", "/api/move", { ...spec(game), level, seed }),
  playout: (game, players, seed) =>
    request("POST", "/api/playout", { ...spec(game), players, seed, max_plies: 1000 }),
  /** The computer's part of the Dot Dash pie: role "place", or "choose" for `setup`. */
  pie: (game, role, setup, level, seed) => {
    const body = { game: game.game, variant: game.variant, size: game.size, role, level, seed };
    if (role === "choose") body.setup = setup;
    return request("POST", "/api/pie", body);
  },
  analysis: (game) => request("POST", "/api/analysis", spec(game)),
  tableStatus: (g) =>
    request("GET", `/api/tables?game=${encodeURIComponent(g.game)}&variant=${encodeURIComponent(g.variant)}&size=${g.size}`),
  buildTable: (g) => request("POST", "/api/tables", { game: g.game, variant: g.variant, size: g.size }),
  exportRecord: (game, players) => request("POST", "/api/record/export", { ...spec(game), players }),
  importRecord: (text) => request("POST", "/api/record/import", { text }),
};
