// @ts-check
// An optional short click for each move (off unless switched on; remembered).

const STORE = "boardlab.sound";
/** @type {AudioContext | null} */
let ctx = null;

export function soundOn() {
  return typeof localStorage !== "undefined" && localStorage.getItem(STORE) === "1";
}

/** @param {boolean} on */
export function setSound(on) {
  localStorage.setItem(STORE, on ? "1" : "0");
}

/** A soft tick; `end` plays a short rising pair instead (the game is over). */
export function playTick(end = false) {
  if (!soundOn() || typeof AudioContext === "undefined") return;
  ctx = ctx || new AudioContext();
  const now = ctx.currentTime;
  const notes = end ? [660, 880] : [520];
  notes.forEach((f, i) => {
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
