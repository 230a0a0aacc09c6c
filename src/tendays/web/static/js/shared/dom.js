// Building the page: HTML and SVG elements from a tag, attributes and children, an input filled unless
// typed in, and the mark that a page's controls are wired.

/** Build an element: el("button", {class: "x", onclick: f, "aria-label": "..."}, "text", child, ...). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    // through the CSSOM: the pages' Content-Security-Policy refuses style attributes
    else if (key === "style") node.style.cssText = String(value);
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const SVG_NS = "http://www.w3.org/2000/svg";

/** Build an SVG element with attributes. */
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "style") node.style.cssText = String(value);  // as in el()
    else node.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Put `value` into an input unless the person has already typed there (a page may still be loading). */
export function fillIfEmpty(input, value) {
  if (!input.value) input.value = value;
}

/** Mark the page as wired: its controls work from now on (tests and tools wait for `body[data-ready]`). */
export function markReady() {
  document.body.dataset.ready = "true";
}
