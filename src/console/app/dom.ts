/** A few lines of DOM building instead of a framework: the console's pages are small and few. */

type Child = Node | string | number | false | null | undefined;
type Attrs = Record<string, string | number | boolean | EventListener | undefined>;

function fill(el: Element, attrs: Attrs, children: Child[]): void {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') el.addEventListener(name.slice(2).toLowerCase(), value);
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) {
    if (child === false || child === null || child === undefined) continue;
    el.append(typeof child === 'object' ? child : String(child));
  }
}

/** An HTML element: `h('button', { type: 'button', onClick: f }, 'Hang up')`. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  fill(el, attrs, children);
  return el;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** An SVG element. */
export function s<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG_NS, tag) as SVGElementTagNameMap[K];
  fill(el, attrs, children);
  return el;
}

/** Replaces an element's children. */
export function replace(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  fill(el, {}, children);
}

/** Seconds between two clock times, as `+12.5 s`. */
export function offset(ms: number, from: number): string {
  return `+${((ms - from) / 1000).toFixed(1)} s`;
}

/** A clock time as `HH:MM:SS` (UTC, as the engine's records). */
export function clockTime(ms: number | undefined): string {
  return ms === undefined ? '' : new Date(ms).toISOString().slice(11, 19);
}
