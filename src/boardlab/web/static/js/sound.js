// @ts-check
// Optional sounds (off unless switched on; remembered): a soft tick for a move, a rising
// pair for a win, a falling pair for a loss, and a neutral pair for any other end.

const STORE = "boardlab.sound";
/** @type {AudioContext | null} */
let ctx = null;

/** @typedef {"move" | "win" | "loss" | "end"} SoundKind */

/** The notes (Hz) of each sound, played 0.12 s apart. @type {Record<SoundKind, number[]>} */
export const NOTES = { move: [520], win: [660, 880], loss: [440, 330], end: [587, 587] };

export function soundOn() {
  return typeof localStorage !== "undefined" && localStorage.getItem(STORE) === "1";
}

/** @param {boolean} on */
export function setSound(on) {
  localStorage.setItem(STORE, on ? "1" : "0");
}

/**
 * The sound for a move that just happened: the end's for the one human at the board when the
 * game is over (`winner` null: a draw), else a move's.
 * @param {boolean} over @param {number | null} winner @param {number | null} human the human's colour, if exactly one
 * @returns {SoundKind}
 */
export function soundFor(over, winner, human) {
  if (!over) return "move";
  if (winner === null || human === null) return "end";
  return winner === human ? "win" : "loss";
}

/** Play a sound (nothing when sounds are off). @param {SoundKind} [kind] */
export function playSound(kind = "move") {
  if (!soundOn() || typeof AudioContext === "undefined") return;
  ctx = ctx || new AudioContext();
  const now = ctx.currentTime;
  NOTES[kind].forEach((f, i) => {
    const c = /** @type {AudioContext} */ (ctx);
    const osc = c.createOscillator();
    const gain = c.createGain();
    osc.frequency.value = f;
    gain.gain.setValueAtTime(0.0001, now + i * 0.12);
    gain.gain.exponentialRampToValueAtTime(0.12, now + i * 0.12 + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.12 + 0.1);
    osc.connect(gain).connect(c.destination);
    osc.start(now + i * 0.12);
    osc.stop(now + i * 0.12 + 0.12);
  });
}
