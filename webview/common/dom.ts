/**
 * The only way the webviews make DOM: elements by tag, text through `textContent`, attributes
 * through `setAttribute`. Nothing from a profile is ever parsed as HTML (function names come from
 * user code and node_modules: `<img src=x onerror=…>` must stay text).
 */

type Child = Node | string | null | undefined | false;

export interface ElOptions {
  className?: string;
  id?: string;
  text?: string;
  /** Set with setAttribute, so values are never parsed. Event handler names (on*) are refused. */
  attrs?: Record<string, string | number | boolean | undefined>;
  title?: string;
}

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, options?: ElOptions, ...children: Child[]): HTMLElementTagNameMap[K];
export function el(tag: string, options?: ElOptions, ...children: Child[]): HTMLElement;
export function el(tag: string, options: ElOptions = {}, ...children: Child[]): HTMLElement {
  const node = document.createElement(tag);
  if (options.className) node.className = options.className;
  if (options.id) node.id = options.id;
  if (options.title) node.setAttribute('title', options.title);
  if (options.attrs) {
    for (const [name, value] of Object.entries(options.attrs)) {
      if (value === undefined || value === false) continue;
      if (/^on/i.test(name)) throw new Error(`refusing to set event handler attribute ${name}`);
      node.setAttribute(name, value === true ? '' : String(value));
    }
  }
  if (options.text !== undefined) node.textContent = options.text;
  append(node, ...children);
  return node;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

export function clear(node: Node): void {
  while (node.firstChild) node.removeChild(node.firstChild);
}

/** A one-line "this part is missing, and why" message in place of an empty box. */
export function emptyNote(text: string, detail?: string): HTMLElement {
  return el('p', { className: 'empty-note' }, el('span', { className: 'empty-main', text }), detail ? el('span', { className: 'empty-detail', text: ` ${detail}` }) : null);
}

/**
 * A table row that opens something (its function's source): focusable, Enter or a click opens it,
 * except a click on an inline link inside the row, which does its own thing.
 */
export function openOnActivate(tr: HTMLElement, title: string, open: () => void): void {
  tr.classList.add('clickable');
  tr.tabIndex = 0;
  tr.setAttribute('title', title);
  tr.addEventListener('click', (event) => {
    if ((event.target as Element | null)?.closest?.('.inline-link')) return;
    open();
  });
  tr.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') open();
  });
}
