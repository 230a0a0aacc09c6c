// The legal moves as the server lists them ({kind, day, pile, day2, text}), indexed for the panels.
// The rules live in the engine: the page never works out a move for itself, it only looks up the
// server's list, and sends a move's own text.

const indexed = new WeakMap();

/** The keys of discard piles 1, 2 and 3 (pages/table.js). */
export const PILE_KEYS = ["q", "w", "e"];

function pair(a, b) {
  return `${Math.min(a, b)} ${Math.max(a, b)}`;
}

function index(moves) {
  const legal = {
    any: moves.length > 0,
    draw: null, // the draw move's text
    draft: new Map(), // day -> text
    take: new Map(), // pile -> text
    discard: new Map(), // pile -> text
    replace: new Map(), // day -> Map(pile -> text)
    swap: new Map(), // "a b" (a < b) -> text
    swapDays: new Set(), // days that some swap moves
  };
  for (const move of moves) {
    if (move.kind === "draw") legal.draw = move.text;
    else if (move.kind === "draft") legal.draft.set(move.day, move.text);
    else if (move.kind === "take") legal.take.set(move.pile, move.text);
    else if (move.kind === "discard") legal.discard.set(move.pile, move.text);
    else if (move.kind === "replace") {
      if (!legal.replace.has(move.day)) legal.replace.set(move.day, new Map());
      legal.replace.get(move.day).set(move.pile, move.text);
    } else if (move.kind === "swap") {
      legal.swap.set(pair(move.day, move.day2), move.text);
      legal.swapDays.add(move.day).add(move.day2);
    }
  }
  return legal;
}

/** The index of a list of legal moves (built once per list). */
export function legalOf(moves) {
  if (!indexed.has(moves)) indexed.set(moves, index(moves));
  return indexed.get(moves);
}

/** The text of the move that swaps days `a` and `b`, or null. */
export function swapMove(legal, a, b) {
  return legal.swap.get(pair(a, b)) ?? null;
}

/** The text of the move that puts the tile in hand on `day` and discards the old one onto `pile`, or null. */
export function replaceMove(legal, day, pile) {
  const piles = legal.replace.get(day);
  return (piles && piles.get(pile)) ?? null;
}

/** The keys of the piles a discard may go onto, as the prompt names them ("Q, W, E"): the tile in
 *  hand's, or with a `day` chosen its old tile's; only the forced pile's key when the last tile of a
 *  pile was taken. */
export function discardKeys(legal, day = null) {
  const piles = day === null ? legal.discard : legal.replace.get(day) ?? new Map();
  const numbers = piles.size ? [...piles.keys()].sort((a, b) => a - b) : [1, 2, 3];
  return numbers.map((pile) => PILE_KEYS[pile - 1].toUpperCase()).join(", ");
}
