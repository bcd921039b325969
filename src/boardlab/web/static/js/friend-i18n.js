// @ts-check
// English and Japanese texts of the Play a friend page. `ft(key, vars)` fills {placeholders};
// elements marked data-fi18n="key" get their text from here (the language is the page's).

import { getLang } from "./i18n.js";

/** @type {Record<string, string>} */
const en = {
  "f.title": "Play a friend",
  "f.create.title": "New shared game",
  "f.create.intro": "Create a game, send the invitation link to your friend, and play from two devices. Anyone with the watch link can follow the game.",
  "f.game": "Game",
  "f.variant": "Variant",
  "f.size": "Board size",
  "f.colour": "Your colour",
  "f.colour.random": "Random",
  "f.clock": "Clock",
  "f.minutes": "Minutes each",
  "f.increment": "Seconds added per move",
  "f.start": "Create game",
  "f.resign": "Resign",
  "f.draw": "Offer a draw",
  "f.accept": "Accept the draw",
  "f.decline": "Decline",
  "f.rematch": "Rematch (colours swapped)",
  "f.export": "Export record",
  "f.close": "Close",
  "f.match": "Match",
  "f.links": "Links",
  "f.invite": "Invite your friend (this link plays the other colour: send it to one person)",
  "f.watch": "Watch link (anyone may follow, nobody can move)",
  "f.copy": "Copy",
  "f.copied": "Copied",
  "f.moves": "Moves",
  "f.you": "You",
  "f.friend": "Your friend",
  "f.creator": "Creator",
  "f.invited": "Invited",
  "f.score": "{a} {sa} – {sb} {b} after {n}",
  "f.games.one": "{n} game",
  "f.games.other": "{n} games",
  "f.seats": "You play {colour}.",
  "f.spectator": "You are watching: moves appear here as they are played.",
  "f.waiting": "Waiting for your friend to open the invitation…",
  "f.waitingWatch": "Waiting for the second player…",
  "f.yourTurn": "Your move ({colour})",
  "f.theirTurn": "{colour} to move: your friend is thinking…",
  "f.toMove": "{colour} to move",
  "f.won": "{colour} wins ({reason})",
  "f.drawn": "Draw ({reason})",
  "f.expired": "This game expired after a long pause.",
  "f.reason.cleared": "all cars off",
  "f.reason.blocked": "no move left",
  "f.reason.repetition": "repetition",
  "f.reason.resignation": "resignation",
  "f.reason.fives": "five in a row",
  "f.reason.move-limit": "move limit",
  "f.reason.time": "on time",
  "f.reason.agreement": "agreed",
  "f.reason.aborted": "cancelled",
  "f.offered": "You offered a draw.",
  "f.offeredToYou": "Your friend offers a draw.",
  "f.notYourTurn": "It is not your turn.",
  "f.watchOnly": "Spectators cannot move.",
  "f.over": "The game is over.",
  "f.conn.live": "Live",
  "f.conn.polling": "Connection lost: checking every few seconds and reconnecting…",
  "f.conn.connecting": "Connecting…",
  "f.notFound": "There is no such shared game (the link may be incomplete).",
  "f.badToken": "This link's seat token is not valid for this game.",
  "f.confirmResign": "Resign this game?",
  "f.setup": "Setup",
  "f.setup.place": "Pie rule: you place the stones",
  "f.setup.choose": "Pie rule: your friend places them",
  "f.setup.random": "Pie rule: who places is drawn",
  "f.setup.fixed": "Fixed start (no pie)",
  "f.setupFirst": "The setup comes first: three stones, then a colour.",
  "f.seats.place": "You place the stones; your friend then chooses a colour.",
  "f.seats.choose": "Your friend places the stones; you then choose a colour.",
  "f.pie.place.place": "Place three stones: one red, then two blue. Your friend then takes a colour; the single stone moves first.",
  "f.pie.wait.place": "Your friend is placing three stones…",
  "f.pie.watch.place": "Setup: three stones are being placed…",
  "f.pie.choose.choose": "Choose your colour: the player with the single stone moves first.",
  "f.pie.wait.choose": "Your friend is choosing a colour…",
  "f.pie.watch.choose": "Setup: a colour is being chosen…",
};

/** @type {Record<string, string>} */
const ja = {
  "f.title": "友だちと対局",
  "f.create.title": "新しい共有対局",
  "f.create.intro": "対局を作って招待リンクを友だちに送れば、2台の端末で対局できます。観戦リンクを持つ人は誰でも対局を見られます。",
  "f.game": "ゲーム",
  "f.variant": "ルール",
  "f.size": "盤の大きさ",
  "f.colour": "あなたの色",
  "f.colour.random": "ランダム",
  "f.clock": "持ち時間",
  "f.minutes": "各自の持ち時間（分）",
  "f.increment": "1手ごとの加算（秒）",
  "f.start": "対局を作る",
  "f.resign": "投了",
  "f.draw": "引き分けを提案",
  "f.accept": "引き分けに同意",
  "f.decline": "断る",
  "f.rematch": "再戦（色を交代）",
  "f.export": "棋譜を書き出す",
  "f.close": "閉じる",
  "f.match": "対戦成績",
  "f.links": "リンク",
  "f.invite": "友だちを招待（このリンクはもう一方の色で指せます。1人だけに送ってください）",
  "f.watch": "観戦リンク（誰でも見られますが、指せません）",
  "f.copy": "コピー",
  "f.copied": "コピーしました",
  "f.moves": "棋譜",
  "f.you": "あなた",
  "f.friend": "友だち",
  "f.creator": "作成者",
  "f.invited": "招待者",
  "f.score": "{a} {sa} – {sb} {b}（{n}）",
  "f.games.one": "{n}局",
  "f.games.other": "{n}局",
  "f.seats": "あなたは{colour}です。",
  "f.spectator": "観戦中：指し手はすぐにここに表示されます。",
  "f.waiting": "友だちが招待リンクを開くのを待っています…",
  "f.waitingWatch": "2人目の対局者を待っています…",
  "f.yourTurn": "あなたの番です（{colour}）",
  "f.theirTurn": "{colour}の番：友だちが考えています…",
  "f.toMove": "{colour}の番",
  "f.won": "{colour}の勝ち（{reason}）",
  "f.drawn": "引き分け（{reason}）",
  "f.expired": "長く動きがなかったため、この対局は終了しました。",
  "f.reason.cleared": "全車脱出",
  "f.reason.blocked": "指し手なし",
  "f.reason.repetition": "同一局面の繰り返し",
  "f.reason.resignation": "投了",
  "f.reason.fives": "五目",
  "f.reason.move-limit": "手数制限",
  "f.reason.time": "時間切れ",
  "f.reason.agreement": "合意",
  "f.reason.aborted": "中止",
  "f.offered": "引き分けを提案しました。",
  "f.offeredToYou": "友だちが引き分けを提案しています。",
  "f.notYourTurn": "あなたの番ではありません。",
  "f.watchOnly": "観戦者は指せません。",
  "f.over": "対局は終わりました。",
  "f.conn.live": "接続中",
  "f.conn.polling": "接続が切れました：数秒ごとに確認しながら再接続しています…",
  "f.conn.connecting": "接続しています…",
  "f.notFound": "その共有対局はありません（リンクが途中で切れているかもしれません）。",
  "f.badToken": "このリンクの席の鍵はこの対局には使えません。",
  "f.confirmResign": "この対局を投了しますか？",
  "f.setup": "開始の配置",
  "f.setup.place": "パイ・ルール：あなたが石を置く",
  "f.setup.choose": "パイ・ルール：友だちが石を置く",
  "f.setup.random": "パイ・ルール：置く人は抽選",
  "f.setup.fixed": "固定の初期配置（パイなし）",
  "f.setupFirst": "まず配置です：石を3個置き、次に色を選びます。",
  "f.seats.place": "あなたが石を置き、友だちが色を選びます。",
  "f.seats.choose": "友だちが石を置き、あなたが色を選びます。",
  "f.pie.place.place": "石を3個置いてください：赤を1個、続けて青を2個。そのあと友だちが色を選びます。1個だけの石の持ち主が先手です。",
  "f.pie.wait.place": "友だちが石を3個置いています…",
  "f.pie.watch.place": "配置中：石が3個置かれるところです…",
  "f.pie.choose.choose": "色を選んでください。1個だけの石の持ち主が先手です。",
  "f.pie.wait.choose": "友だちが色を選んでいます…",
  "f.pie.watch.choose": "配置中：色が選ばれるところです…",
};

/** @type {Record<string, Record<string, string>>} */
export const FRIEND_TEXTS = { en, ja };

/**
 * The text for `key` in the page's language with {placeholders} filled.
 * @param {string} key @param {Record<string, string | number>} [vars]
 */
export function ft(key, vars = {}) {
  let s = FRIEND_TEXTS[getLang()]?.[key] ?? en[key] ?? key;
  for (const [k, v] of Object.entries(vars)) s = s.split(`{${k}}`).join(String(v));
  return s;
}

/** Fill every element marked data-fi18n. @param {ParentNode} [root] */
export function applyFriendTexts(root = document) {
  for (const node of root.querySelectorAll("[data-fi18n]")) {
    node.textContent = ft(/** @type {HTMLElement} */ (node).dataset.fi18n || "");
  }
}

/**
 * Read a friend link's fragment: "#g=ID&t=TOKEN" (a seat) or "#g=ID" (watching).
 * @param {string} hash
 * @returns {{game: string, token: string | null} | null}
 */
export function parseFriendHash(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const game = params.get("g");
  if (!game || !/^[A-Za-z0-9_-]{10,32}$/.test(game)) return null;
  const token = params.get("t");
  return { game, token: token && /^[A-Za-z0-9_-]{10,200}$/.test(token) ? token : null };
}

/**
 * The fragment of a friend link. @param {string} game @param {string | null} [token]
 */
export function friendHash(game, token = null) {
  return token ? `#g=${game}&t=${token}` : `#g=${game}`;
}

/** "4:05", "0:09.3" under ten seconds. @param {number} ms */
export function clockText(ms) {
  const s = Math.max(0, ms) / 1000;
  if (s < 10) return `0:0${s.toFixed(1)}`;
  const m = Math.floor(s / 60);
  const r = Math.floor(s % 60);
  return `${m}:${String(r).padStart(2, "0")}`;
}

/**
 * Whether `state` is older than `current` (the same game at an earlier ply or change): the
 * answers of a poll and of the socket may arrive in either order.
 * @param {any} state @param {any} current
 */
export function isOlder(state, current) {
  if (!current || state.id !== current.id) return false;
  if (state.ply !== current.ply) return state.ply < current.ply;
  return (state.updated_at ?? 0) < (current.updated_at ?? 0);
}
