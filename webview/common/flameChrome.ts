/**
 * What the report's flame graph and the compare page's differential one share around their
 * renderer (the report's canvas, flameCanvas.ts; d3-flame-graph's SVG on the compare page,
 * svgFlameRenderer.ts): the settings from shared/research/profile.md §5 (frames of more than 5 px),
 * the search / zoom / reset / Open source controls, the hover box and the wiring between them.
 * Each view keeps its data, colours, legend and tooltip rows. Search is a plain substring (never a
 * RegExp on user input); everything is text, never HTML.
 */
import type { FlameNode } from '../../src/shared/reportProtocol';
import { el, emptyNote } from './dom';
import { formatLocation, type LocationContext } from './format';
import { canOpen } from './host';
import { mix, toCss, type Rgb } from './theme';
import type { FlameFrame, FlameRenderer, FlameRendererFactory } from './flameRenderer';

const MIN_FRAME_PX = 5;
const CELL_HEIGHT = 18;
const SEARCH_DEBOUNCE_MS = 120;

/** What the chrome reads of a frame; the compare page's CompareNode has it too. */
export type ChromeNode = Pick<FlameNode, 'name' | 'url' | 'line' | 'column' | 'category'>;

export interface FlameChromeOptions<T> {
  /** What draws the frames. */
  renderer: FlameRendererFactory<T>;
  nodeCount: number;
  resetTitle: string;
  /** The view's own toolbar checkboxes, between Open source and Reset zoom. */
  toggles: (HTMLElement | null)[];
  /** The view's rows of the hover box, above the click hint. */
  tooltipRows: HTMLElement[];
  /** Fills the rows for the hovered frame. */
  fillTooltip(d: FlameFrame<T>): void;
  connected: boolean;
  /** The run a frame's path is shortened against. */
  locOf(node: T): LocationContext;
  openSource(node: T): void;
  fill(d: FlameFrame<T>): Rgb;
  background(): Rgb;
  /** The search info for at least one match; `sum` is the matches' total (a match inside another counted once). */
  describeMatches(results: FlameFrame<T>[], sum: number): string;
}

export interface FlameChrome<T> {
  chart: FlameRenderer<T>;
  /** For the view to place: the toolbar and #flame-graph. */
  toolbar: HTMLElement;
  container: HTMLElement;
  /** First draw, then the width follows the panel; returns the draw time, ms. */
  mount(data: T): number;
  /** New data: the zoom starts over, the search is kept. */
  replace(data: T): void;
  /** Same data, new colours. */
  refresh(): void;
}

/** The placeholder when there is nothing to draw. */
export function emptyFlameGraph(text: string, detail: string): HTMLElement {
  return el('div', { id: 'flame-graph', className: 'flame-graph is-empty', attrs: { 'data-frame-count': 0 } }, emptyNote(text, detail));
}

/** V8's (idle) pseudo-frame: the event loop waiting for work. */
export function isIdleFrame(node: ChromeNode): boolean {
  return node.name === '(idle)' && node.url === '';
}

function flameToolbar(resetTitle: string, toggles: (HTMLElement | null)[]) {
  const search = el('vscode-textfield', { id: 'flame-search', attrs: { placeholder: 'Search functions or files (plain text)', 'aria-label': 'Search frames' } });
  const searchInfo = el('span', { id: 'flame-search-info', className: 'toolbar-note', attrs: { 'aria-live': 'polite' } });
  const previous = el('vscode-button', { id: 'flame-search-prev', attrs: { secondary: true, hidden: true, title: 'Zoom to the previous match (Shift+Enter)' }, text: '‹' });
  const next = el('vscode-button', { id: 'flame-search-next', attrs: { secondary: true, hidden: true, title: 'Zoom to the next match (Enter)' }, text: '›' });
  const list = el('select', { id: 'flame-search-list', className: 'search-list', attrs: { hidden: true, 'aria-label': 'Matching functions' } });
  const reset = el('vscode-button', { id: 'flame-reset', attrs: { secondary: true, title: resetTitle }, text: 'Reset zoom' });
  const zoomName = el('span', { id: 'flame-zoomed', className: 'toolbar-note' });
  const openZoomed = el('vscode-button', { id: 'flame-open-source', attrs: { secondary: true, hidden: true, title: 'Open the zoomed frame in the editor' }, text: 'Open source' });
  const root = el('div', { className: 'toolbar' }, search, previous, next, list, searchInfo, el('span', { className: 'spacer' }), zoomName, openZoomed, ...toggles, reset);
  return { root, search, searchInfo, reset, zoomName, openZoomed, previous, next, list };
}

/**
 * The hover box (#flame-tooltip), in <body> so the scroll box does not clip it; a second model
 * replaces the first one's. Placed below-right of the pointer, flipped where that leaves the window.
 */
function mountTooltip<T>(connected: boolean, rows: HTMLElement[], fill: (d: FlameFrame<T>) => void) {
  const hint = el('div', { className: 'tt-hint', text: connected ? 'Click to zoom · Ctrl/⌘-click to open source' : 'Click to zoom' });
  const root = el('div', { id: 'flame-tooltip', attrs: { role: 'tooltip', hidden: true } }, ...rows, hint);
  const move = (event: MouseEvent) => {
    if (root.hidden) return;
    const pad = 14;
    const rect = root.getBoundingClientRect();
    let x = event.clientX + pad;
    let y = event.clientY + pad;
    if (x + rect.width > window.innerWidth - 4) x = Math.max(4, event.clientX - rect.width - pad);
    if (y + rect.height > window.innerHeight - 4) y = Math.max(4, event.clientY - rect.height - pad);
    root.style.left = `${x}px`;
    root.style.top = `${y}px`;
  };
  const hide = () => {
    root.hidden = true;
  };
  const tip = {
    show(event: MouseEvent, d: FlameFrame<T>) {
      fill(d);
      root.hidden = false;
      move(event);
    },
    hide,
  };
  document.getElementById('flame-tooltip')?.remove();
  document.body.append(root);
  return { tip, move, hide };
}

/** The tooltip's location line, also for frames that have no file. */
export function tooltipLocation(node: ChromeNode, loc: LocationContext): string {
  if (!node.url) {
    if (node.category === 'gc' || node.category === 'idle') return 'V8 pseudo-frame (no source)';
    return node.line > 0 ? `script without a file, line ${node.line}` : 'native code (no source)';
  }
  return formatLocation(node.url, node.line, node.column, loc).text;
}

/**
 * Whether each distinct name or file holds the current term, worked out once per search: a profile
 * repeats the same few thousand names and files over hundreds of thousands of nodes (the packed
 * model shares one string per name), so a search lowers each of them once, not each node's.
 */
let memoTerm: string | null = null;
let memoLower = '';
let memo = new Map<string, boolean>();
function holds(text: string, term: string): boolean {
  if (term !== memoTerm) {
    memoTerm = term;
    memoLower = term.toLowerCase();
    memo = new Map();
  }
  let hit = memo.get(text);
  if (hit === undefined) memo.set(text, (hit = text.toLowerCase().includes(memoLower)));
  return hit;
}

/** Case-insensitive substring of the name or of the file (never across the two). */
export function matchesSearch(node: ChromeNode, term: string): boolean {
  return holds(node.name, term) || (node.url !== '' && holds(node.url, term));
}

/**
 * The chart with the shared settings, its container, and the toolbar and tooltip wired to it. The
 * view adds what is its own (e.g. computeDelta) through `chart` before `mount`.
 */
export function flameChrome<T extends ChromeNode>(opts: FlameChromeOptions<T>): FlameChrome<T> {
  const toolbar = flameToolbar(opts.resetTitle, opts.toggles);
  const container = el('div', { id: 'flame-graph', className: 'flame-graph', attrs: { 'data-frame-count': 0, 'data-node-count': opts.nodeCount } });
  const tooltip = mountTooltip(opts.connected, opts.tooltipRows, opts.fillTooltip);
  let searching = false;
  let zoomed: T | null = null;

  const chart: FlameRenderer<T> = opts.renderer({
    nodeCount: opts.nodeCount,
    cellHeight: CELL_HEIGHT,
    minFrameSize: MIN_FRAME_PX,
    tooltip: tooltip.tip,
    color: (d) => {
      const fill = opts.fill(d);
      return toCss(searching && !d.highlight ? mix(fill, opts.background(), 0.22) : fill);
    },
    match: (d, term) => matchesSearch(d.data, term),
    onSearch: (results, sum) => {
      container.setAttribute('data-search-matches', String(results.length));
      toolbar.searchInfo.textContent = results.length === 0 ? 'no frame matches' : opts.describeMatches(results, sum);
      matches = [...results].sort((a, b) => a.x0 - b.x0 || a.depth - b.depth);
      current = -1;
      showMatches();
    },
    onZoom: (d) => zoomTo(d.depth === 0 ? null : d.data),
    openSource: opts.openSource,
  });

  function zoomTo(node: T | null): void {
    zoomed = node;
    showZoom();
    countFrames();
    // After the renderer has laid the zoom out: the marks follow the frames.
    requestAnimationFrame(drawMarks);
  }

  /** The matches in order across the graph, the one zoomed to, and the list of matching functions. */
  let matches: FlameFrame<T>[] = [];
  let current = -1;
  const marks = el('div', { id: 'flame-search-marks', className: 'search-marks', attrs: { 'aria-hidden': 'true' } });

  function showMatches(): void {
    const any = matches.length > 0;
    toolbar.previous.hidden = !any;
    toolbar.next.hidden = !any;
    toolbar.list.hidden = !any;
    // One entry per function, heaviest first: its frames' width added up.
    const byFunction = new Map<string, { node: FlameFrame<T>; value: number; places: number }>();
    for (const m of matches) {
      const key = `${m.data.name}\u0000${m.data.url}\u0000${m.data.line}`;
      const entry = byFunction.get(key);
      if (!entry) byFunction.set(key, { node: m, value: m.value, places: 1 });
      else {
        entry.places++;
        entry.value += m.value;
        if (m.value > entry.node.value) entry.node = m;
      }
    }
    const entries = [...byFunction.values()].sort((a, b) => b.value - a.value).slice(0, 200);
    toolbar.list.replaceChildren(
      el('option', { text: `${entries.length} matching function${entries.length === 1 ? '' : 's'}…`, attrs: { value: '' } }),
      ...entries.map((e, i) => el('option', { text: `${e.node.data.name}${e.places > 1 ? ` (${e.places} places)` : ''}`, title: e.node.data.url, attrs: { value: String(i) } })),
    );
    toolbar.list.onchange = () => {
      const picked = entries[Number((toolbar.list as HTMLSelectElement).value)];
      if (picked) goTo(matches.indexOf(picked.node));
    };
    drawMarks();
  }

  function goTo(index: number): void {
    if (matches.length === 0 || index < 0) return;
    current = ((index % matches.length) + matches.length) % matches.length;
    chart.zoomTo(matches[current]!);
    toolbar.searchInfo.textContent = `match ${current + 1} of ${matches.length}: ${matches[current]!.data.name}`;
  }

  /**
   * A tick above the graph at every match, however narrow its frame (no frame under 5 px is drawn):
   * where the matches are, at a glance. A tick zooms to its match.
   */
  function drawMarks(): void {
    const width = graphWidth;
    marks.hidden = matches.length === 0;
    // One tick per pixel column at most (thousands of matches would be thousands of elements): the first match there.
    const ticks = document.createDocumentFragment();
    let lastLeft = -1;
    let lastRight = -1;
    matches.forEach((m, i) => {
      if (!(m.x1 > m.x0)) return;
      const left = Math.floor(m.x0 * width);
      const w = Math.max(2, Math.round((m.x1 - m.x0) * width));
      if (left === lastLeft || left + w <= lastRight) return;
      lastLeft = left;
      lastRight = Math.max(lastRight, left + w);
      const tick = el('span', { className: 'search-mark', title: m.data.name });
      tick.style.left = `${left}px`;
      tick.style.width = `${w}px`;
      tick.addEventListener('click', () => goTo(i));
      ticks.append(tick);
    });
    marks.replaceChildren(ticks);
  }

  function showZoom(): void {
    if (!zoomed) {
      toolbar.zoomName.textContent = '';
      toolbar.openZoomed.hidden = true;
      return;
    }
    const where = zoomed.url ? ` (${formatLocation(zoomed.url, zoomed.line, zoomed.column, opts.locOf(zoomed)).text})` : '';
    toolbar.zoomName.textContent = `Zoomed into ${zoomed.name}${where}`;
    toolbar.openZoomed.hidden = !(opts.connected && canOpen(zoomed.url, zoomed.line));
  }

  function countFrames(): void {
    container.setAttribute('data-frame-count', String(chart.frameCount()));
  }

  /** The graph's width as last laid out: reading the container's would force a layout after each DOM change. */
  let graphWidth = 0;
  function width(): number {
    graphWidth = Math.max(200, Math.floor(container.clientWidth));
    return graphWidth;
  }

  function searchTerm(): string {
    return String((toolbar.search as unknown as { value: string }).value ?? '').trim();
  }

  function runSearch(term: string): void {
    const started = performance.now();
    searching = term.length > 0;
    if (!searching) {
      chart.clear();
      toolbar.searchInfo.textContent = '';
      container.removeAttribute('data-search-matches');
      matches = [];
      showMatches();
    } else {
      chart.search(term);
    }
    countFrames();
    performance.measure('v8-lens:search', { start: started, end: performance.now() });
  }

  let timer: number | undefined;
  toolbar.search.addEventListener('input', () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(() => runSearch(searchTerm()), SEARCH_DEBOUNCE_MS);
  });
  toolbar.next.addEventListener('click', () => goTo(current + 1));
  toolbar.previous.addEventListener('click', () => goTo(current - 1));
  toolbar.search.addEventListener('keydown', (event) => {
    if ((event as KeyboardEvent).key !== 'Enter' || matches.length === 0) return;
    goTo((event as KeyboardEvent).shiftKey ? current - 1 : current + 1);
  });
  toolbar.reset.addEventListener('click', () => {
    chart.resetZoom();
    zoomTo(null);
  });
  toolbar.openZoomed.addEventListener('click', () => {
    if (zoomed) opts.openSource(zoomed);
  });
  container.addEventListener('mousemove', (event) => tooltip.move(event));
  container.addEventListener('mouseleave', () => tooltip.hide());

  return {
    chart,
    toolbar: el('div', {}, toolbar.root, marks),
    container,
    mount(data) {
      const started = performance.now();
      chart.mount(container, data, width());
      countFrames();
      const ms = performance.now() - started;
      followPanelWidth(container, width, (w) => {
        chart.setWidth(w);
        countFrames();
        drawMarks();
      });
      return ms;
    },
    replace(data) {
      zoomed = null;
      showZoom();
      chart.update(data);
      const term = searchTerm();
      if (term) chart.search(term);
      countFrames();
    },
    refresh() {
      chart.update();
      countFrames();
    },
  };
}

/** Calls `resize` when the container's width changes by 2 px or more. */
function followPanelWidth(container: HTMLElement, width: () => number, resize: (w: number) => void): void {
  let lastWidth = width();
  new ResizeObserver(() => {
    const w = width();
    if (Math.abs(w - lastWidth) < 2) return;
    lastWidth = w;
    resize(w);
  }).observe(container);
}
