// What this browser remembers of the guided first game (/learn): the edition on screen, the step reached in
// each edition, and whether it was finished or skipped. The lobby offers the guided game until either.

const KEY = "tendays.learn";

export const learnMemory = {
  /** {edition, steps: {edition: n}, finished, skipped} */
  read() {
    try {
      const value = JSON.parse(localStorage.getItem(KEY) || "null");
      return value && typeof value === "object" ? { steps: {}, ...value } : { steps: {} };
    } catch {
      return { steps: {} };
    }
  },
  write(patch) {
    try {
      localStorage.setItem(KEY, JSON.stringify({ ...this.read(), ...patch }));
    } catch {
      // no storage (private browsing): the lesson starts again next time
    }
  },
  /** Whether to offer the guided game: never finished nor skipped on this browser. */
  firstTime() {
    const memory = this.read();
    return !memory.finished && !memory.skipped;
  },
};
