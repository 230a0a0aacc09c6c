// A panel draws one part of the table from the store's state, and only when what it shows has changed:
// `select` picks its inputs from the state, `draw` builds the DOM from those inputs alone.

function isPlain(value) {
  if (value === null || typeof value !== "object") return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === Array.prototype;
}

/** Equal as JSON data: plain objects and arrays by their contents, anything else (an EditionInfo) by identity. */
export function sameData(a, b) {
  if (Object.is(a, b)) return true;
  if (!isPlain(a) || !isPlain(b) || Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && sameData(a[key], b[key]));
}

/** A function of the state that calls `draw(inputs)` when `select(state)` differs from the last drawing. */
export function panel(select, draw) {
  let shown;
  let drawn = false;
  return (state) => {
    const inputs = select(state);
    if (drawn && sameData(shown, inputs)) return;
    shown = inputs;
    drawn = true;
    draw(inputs);
  };
}
