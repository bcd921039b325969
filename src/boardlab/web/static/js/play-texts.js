// @ts-check
// The main page's texts for the end-of-game card, the resign question, the status line's
// second row and the build's time left, in English and Japanese, added to i18n.js.

import { TEXTS } from "./i18n.js";

export const PLAY_EN = {
  "status.last": "Last move: {move}",
  "status.first": "{colour} moves first",
  "end.close": "Close: look at the final position",
  "end.win": "You won",
  "end.loss": "You lost",
  "end.draw": "Draw",
  "end.wins": "{colour} wins",
  "end.record": "Record: {a} – {d} – {b}",
  "end.recordLine": "{left} {a} · draws {d} · {right} {b}",
  "end.again": "Play again",
  "end.swap": "Swap colours",
  "end.review": "Review this game",
  "resign.title": "Resign this game?",
  "resign.text": "{who} gives up as {colour}; the game counts as a loss.",
  "resign.yes": "Resign",
  "resign.no": "Keep playing",
  "dd.zoomIn": "Zoom in",
  "dd.notYours": "The stone on {sq} is {colour}'s; {mover} is to move.",
  "dd.pick": "Click one of {colour}'s stones first.",
  "dd.pick.touch": "Tap one of {colour}'s stones first.",
  "illegal.pick.touch": "Tap one of {colour}'s cars first.",
  "dd.setup1.touch": "Pie setup, step 1: place one red stone, then two blue stones (tap a stone again to take it back).",
};

export const PLAY_JA = {
  "status.last": "直前の手: {move}",
  "status.first": "{colour}が先手です",
  "end.close": "閉じて最終局面を見る",
  "end.win": "あなたの勝ち",
  "end.loss": "あなたの負け",
  "end.draw": "引き分け",
  "end.wins": "{colour}の勝ち",
  "end.record": "成績: {a} – {d} – {b}",
  "end.recordLine": "{left} {a} · 引き分け {d} · {right} {b}",
  "end.again": "もう一局",
  "end.swap": "色を入れ替えて対局",
  "end.review": "この対局を振り返る",
  "resign.title": "投了しますか?",
  "resign.text": "{who}({colour})が投了します。負けとして記録されます。",
  "resign.yes": "投了する",
  "resign.no": "対局を続ける",
  "dd.zoomIn": "拡大",
  "dd.notYours": "{sq}の石は{colour}の石です。いまは{mover}の手番です。",
  "dd.pick": "まず{colour}の石をクリックしてください。",
  "dd.pick.touch": "まず{colour}の石をタップしてください。",
  "illegal.pick.touch": "まず{colour}の駒をタップしてください。",
  "dd.setup1.touch": "パイ・ルール 1: 赤を1個、続けて青を2個置いてください(もう一度押すと取り消し)。",
};

Object.assign(TEXTS.en, PLAY_EN);
Object.assign(TEXTS.ja, PLAY_JA);
