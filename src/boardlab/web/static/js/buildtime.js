// @ts-check
// Honest times for long work on the page: a duration in words ("about 2 min"), and the time
// left of a build or a run of games from its own pace so far (no guess that a slower
// machine would miss).

import { t } from "./i18n.js";
import "./play-texts.js";

/**
 * "about 8 s", "about 2 min", "about 2 h 40 min" (Japanese: 約8秒, 約2分, 約2時間40分).
 * @param {number} seconds
 */
export function formatDuration(seconds) {
  const s = Math.max(1, seconds);
  if (s < 10) return t("time.s", { n: Math.round(s) });
  if (s < 90) return t("time.s", { n: Math.round(s / 5) * 5 });
  const min = Math.round(s / 60);
  if (min < 90) return t("time.min", { n: min });
  return t("time.h", { h: Math.floor(min / 60), m: min % 60 });
}

/**
 * The time left of work that reports how far it is (0 to 1), from its pace since the first
 * progress reported in its current stage; null until the pace is known (a second in, some
 * progress).
 */
export class Pace {
  constructor() {
    /** @type {{stage: string, t0: number, f0: number} | null} */
    this.start = null;
    this.last = 0;
  }

  /**
   * @param {string} stage a name for the stage (a new stage starts the clock again)
   * @param {number} frac how far, 0 to 1
   * @param {number} now milliseconds
   * @returns {number | null} seconds left
   */
  left(stage, frac, now) {
    // nothing done yet (a build's process starting): the clock starts with the first progress
    if (frac <= 0) return null;
    // a new stage, or less done than before (a new piece of work), starts the clock again
    if (!this.start || this.start.stage !== stage || frac < this.last) this.start = { stage, t0: now, f0: frac };
    this.last = frac;
    const { t0, f0 } = this.start;
    const dt = (now - t0) / 1000;
    const df = frac - f0;
    if (dt < 1 || df <= 0.005) return null;
    return Math.max(0, ((1 - frac) * dt) / df);
  }

  reset() {
    this.start = null;
    this.last = 0;
  }
}
