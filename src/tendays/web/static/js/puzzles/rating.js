// A player's puzzle rating, kept on this device (local storage): an Elo rating that moves with each first
// answer, up for a solved puzzle and down for a failed one, by more when the puzzle's rating was far away.

const KEY = "tendays.puzzle_rating";
export const START = 1200;
const K = 32;

/** The rating after one answer: `won` true for solved; `puzzle` the puzzle's rating. */
export function rate(rating, puzzle, won) {
  const expected = 1 / (1 + 10 ** ((puzzle - rating) / 400));
  return Math.round(rating + K * ((won ? 1 : 0) - expected));
}

/** {rating, solved, failed} as remembered on this device. */
export function remembered(storage = globalThis.localStorage) {
  try {
    const data = JSON.parse(storage.getItem(KEY) || "null");
    if (data && Number.isFinite(data.rating)) return { solved: 0, failed: 0, ...data };
  } catch {
    // no storage, or not ours: start afresh
  }
  return { rating: START, solved: 0, failed: 0 };
}

/** Record one answer and return the new record. */
export function record(puzzleRating, won, storage = globalThis.localStorage) {
  const before = remembered(storage);
  const after = { rating: rate(before.rating, puzzleRating, won), solved: before.solved + (won ? 1 : 0),
    failed: before.failed + (won ? 0 : 1) };
  try {
    storage.setItem(KEY, JSON.stringify(after));
  } catch {
    // private browsing without storage: the rating lasts for this page only
  }
  return after;
}
