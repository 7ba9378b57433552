/**
 * The CPU flame graph: d3-flame-graph v5 (ES module build, so its CSS is a separate file and no
 * <style> is injected), drawn top-down (root at the top, like VS Code's and DevTools' flame views)
 * in a scroll box. Settings follow the measurements in shared/research/profile.md §5: only frames
 * at least 5 px wide are drawn, no transitions on big trees, substring search (never a RegExp on
 * user input), labels and tooltip as text only.
 */
import flamegraph, { type FlameGraph, type FlameHierarchyNode, type FlameTooltip } from 'd3-flame-graph';
import { select } from 'd3-selection';
import { FRAME_CATEGORIES, FRAME_CATEGORY_LABELS, type FrameCategory } from '../../src/core/report/frameCategory';
import { flameTotals } from '../../src/core/report/flameTotals';
import type { FlameNode } from '../../src/shared/reportProtocol';
import { el, emptyNote } from './dom';
import { fmtMs, fmtPct, formatLocation, plural, type LocationContext } from './format';
import { canOpen, type Host } from './host';
import { mix, toCss, type Palette } from './theme';

type HNode = FlameHierarchyNode<FlameNode>;

const MIN_FRAME_PX = 5;
const CELL_HEIGHT = 18;
/** Above this many nodes, d3 transitions cost more than they show (research §5.3). */
const TRANSITION_NODE_LIMIT = 5000;
const SEARCH_DEBOUNCE_MS = 120;

export interface FlameView {
  applyTheme(palette: Palette): void;
}

interface TreeStats {
  totals: Map<FlameNode, number>;
  nodeCount: number;
  rootTotal: number;
  byCategory: Record<FrameCategory, number>;
}

/** Inclusive totals once, independent of the zoom state. */
function treeStats(root: FlameNode): TreeStats {
  const { order, totals } = flameTotals(root);
  const byCategory = Object.fromEntries(FRAME_CATEGORIES.map((c) => [c, 0])) as Record<FrameCategory, number>;
  for (const node of order) byCategory[node.category] += node.value;
  return { totals, nodeCount: order.length, rootTotal: totals.get(root) ?? 0, byCategory };
}

export function renderFlameSection(section: HTMLElement, flame: FlameNode | null, missing: string, host: Host, loc: LocationContext, palette: Palette): FlameView | null {
  section.append(el('h2', { text: 'CPU flame graph' }));
  if (!flame) {
    section.append(el('div', { id: 'flame-graph', className: 'flame-graph is-empty', attrs: { 'data-frame-count': 0 } }, emptyNote('No flame graph:', missing)));
    return null;
  }

  const stats = treeStats(flame);
  let current = palette;

  // A server's profile is mostly (idle): the event loop waiting. Shown on demand, hidden by default
  // when it is the larger part, so the busy stacks get the width. Percentages stay of the whole profile.
  const idleNode = flame.children.find((c) => c.name === '(idle)' && c.url === '');
  const idleTotal = idleNode ? stats.totals.get(idleNode) ?? 0 : 0;
  const busyRoot: FlameNode | null = idleNode ? { ...flame, children: flame.children.filter((c) => c !== idleNode) } : null;
  if (busyRoot) stats.totals.set(busyRoot, stats.rootTotal - idleTotal);
  let showIdle = !busyRoot || idleTotal < stats.rootTotal * 0.3;

  // ---- toolbar: search, zoom state, reset, legend
  const search = el('vscode-textfield', { id: 'flame-search', attrs: { placeholder: 'Search functions or files (plain text)', 'aria-label': 'Search frames' } });
  const searchInfo = el('span', { id: 'flame-search-info', className: 'toolbar-note', attrs: { 'aria-live': 'polite' } });
  const reset = el('vscode-button', { id: 'flame-reset', attrs: { secondary: true, title: 'Show the whole profile again' }, text: 'Reset zoom' });
  const zoomName = el('span', { id: 'flame-zoomed', className: 'toolbar-note' });
  const openZoomed = el('vscode-button', { id: 'flame-open-source', attrs: { secondary: true, hidden: true, title: 'Open the zoomed frame in the editor' }, text: 'Open source' });
  const idleToggle = busyRoot
    ? el('vscode-checkbox', { id: 'flame-show-idle', attrs: { checked: showIdle, title: 'The (idle) frame is the event loop waiting for work' } }, `Show idle time (${fmtPct(idleTotal, stats.rootTotal, 0)})`)
    : null;
  const toolbar = el('div', { className: 'toolbar' }, search, searchInfo, el('span', { className: 'spacer' }), zoomName, openZoomed, idleToggle, reset);

  const legend = el('ul', { id: 'flame-legend', className: 'legend', attrs: { 'aria-label': 'Frame colours' } });
  const swatches = new Map<FrameCategory, HTMLElement>();
  for (const cat of FRAME_CATEGORIES) {
    const share = stats.byCategory[cat];
    if (share <= 0) continue;
    const swatch = el('span', { className: 'swatch' });
    swatches.set(cat, swatch);
    legend.append(el('li', { attrs: { 'data-category': cat } }, swatch, el('span', { text: FRAME_CATEGORY_LABELS[cat] }), el('span', { className: 'legend-share', text: fmtPct(share, stats.rootTotal) })));
  }
  const hint = el('p', {
    className: 'hint',
    text: host.connected
      ? 'Width = total time. Click a frame to zoom into it; Ctrl/⌘-click (or a zoomed frame’s Open source) opens its code. Hover for times.'
      : 'Width = total time. Click a frame to zoom into it; hover for times.',
  });

  const container = el('div', { id: 'flame-graph', className: 'flame-graph', attrs: { 'data-frame-count': 0, 'data-node-count': stats.nodeCount } });
  const tooltip = makeTooltip(host.connected);
  section.append(toolbar, el('div', { className: 'legend-row' }, legend, hint), container);
  document.getElementById('flame-tooltip')?.remove(); // a second model replaces the first report
  document.body.append(tooltip.root);

  // ---- the chart
  let searching = false;
  let zoomed: FlameNode | null = null;
  const chart: FlameGraph<FlameNode> = flamegraph<FlameNode>()
    .selfValue(true)
    .sort(false) // the tree comes heaviest-first already
    .inverted(true)
    .cellHeight(CELL_HEIGHT)
    .minFrameSize(MIN_FRAME_PX)
    .transitionDuration(stats.nodeCount > TRANSITION_NODE_LIMIT ? 0 : 250)
    .resetHeightOnZoom(true)
    .title('')
    .tooltip(tooltip.forChart(stats))
    .setColorMapper((d) => {
      const fill = current.frame[d.data.category] ?? current.frame.native;
      return toCss(searching && !d.highlight ? mix(fill, current.background, 0.22) : fill);
    })
    .setSearchMatch((d, term) => matches(d.data, term))
    .setSearchHandler((results, sum) => {
      container.setAttribute('data-search-matches', String(results.length));
      searchInfo.textContent = results.length === 0 ? 'no frame matches' : `${plural(results.length, 'frame')} match · ${fmtMs(sum)} = ${fmtPct(sum, stats.rootTotal)} of the profile`;
    })
    .setDetailsHandler(() => undefined)
    .onClick((d) => {
      zoomed = d.depth === 0 ? null : d.data;
      showZoom();
      countFrames();
    });

  function showZoom(): void {
    if (!zoomed) {
      zoomName.textContent = '';
      openZoomed.hidden = true;
      return;
    }
    const where = zoomed.url ? ` (${formatLocation(zoomed.url, zoomed.line, zoomed.column, loc).text})` : '';
    zoomName.textContent = `Zoomed into ${zoomed.name}${where}`;
    openZoomed.hidden = !(host.connected && canOpen(zoomed.url, zoomed.line));
  }

  function countFrames(): void {
    container.setAttribute('data-frame-count', String(container.querySelectorAll('svg g').length));
  }

  function width(): number {
    return Math.max(200, Math.floor(container.clientWidth));
  }

  const started = performance.now();
  chart.width(width());
  select(container).datum(showIdle ? flame : busyRoot!).call(chart);
  countFrames();
  container.setAttribute('data-render-ms', String(Math.round(performance.now() - started)));
  applySwatches();

  // Width follows the panel.
  let lastWidth = width();
  new ResizeObserver(() => {
    const w = width();
    if (Math.abs(w - lastWidth) < 2) return;
    lastWidth = w;
    chart.width(w).update();
    countFrames();
  }).observe(container);

  // Search: plain, case-insensitive substring; the input is never a pattern.
  let timer: number | undefined;
  search.addEventListener('input', () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(() => runSearch(String((search as unknown as { value: string }).value ?? '')), SEARCH_DEBOUNCE_MS);
  });
  function runSearch(term: string): void {
    const t = term.trim();
    searching = t.length > 0;
    if (!searching) {
      chart.clear();
      searchInfo.textContent = '';
      container.removeAttribute('data-search-matches');
    } else {
      chart.search(t);
    }
    countFrames();
  }

  idleToggle?.addEventListener('change', () => {
    showIdle = (idleToggle as unknown as { checked: boolean }).checked;
    zoomed = null;
    showZoom();
    chart.update(showIdle ? flame : busyRoot!);
    const term = String((search as unknown as { value: string }).value ?? '').trim();
    if (term) chart.search(term);
    countFrames();
  });

  reset.addEventListener('click', () => {
    chart.resetZoom();
    zoomed = null;
    showZoom();
    countFrames();
  });
  openZoomed.addEventListener('click', () => {
    if (zoomed) host.openSource(zoomed.url, zoomed.line, zoomed.column);
  });

  // Ctrl/⌘-click opens the frame's source instead of zooming (captured before d3's own handler).
  container.addEventListener(
    'click',
    (event) => {
      if (!(event.ctrlKey || event.metaKey)) return;
      const frame = (event.target as Element | null)?.closest('g');
      const d = frame ? (frame as unknown as { __data__?: HNode }).__data__ : undefined;
      event.stopPropagation();
      event.preventDefault();
      if (d) host.openSource(d.data.url, d.data.line, d.data.column);
    },
    true,
  );
  container.addEventListener('mousemove', (event) => tooltip.move(event));
  container.addEventListener('mouseleave', () => tooltip.hide());

  function applySwatches(): void {
    for (const [cat, swatch] of swatches) swatch.style.backgroundColor = toCss(current.frame[cat]);
  }

  return {
    applyTheme(next) {
      current = next;
      applySwatches();
      chart.update();
      countFrames();
    },
  };

  function tooltipLocation(node: FlameNode): string {
    if (!node.url) {
      if (node.category === 'gc' || node.category === 'idle') return 'V8 pseudo-frame (no source)';
      return node.line > 0 ? `script without a file, line ${node.line}` : 'native code (no source)';
    }
    return formatLocation(node.url, node.line, node.column, loc).text;
  }

  function makeTooltip(connected: boolean) {
    const name = el('div', { className: 'tt-name' });
    const where = el('div', { className: 'tt-loc' });
    const self = el('td');
    const total = el('td');
    const category = el('div', { className: 'tt-cat' });
    const hintLine = el('div', { className: 'tt-hint', text: connected ? 'Click to zoom · Ctrl/⌘-click to open source' : 'Click to zoom' });
    const root = el(
      'div',
      { id: 'flame-tooltip', attrs: { role: 'tooltip', hidden: true } },
      name,
      where,
      el('table', {}, el('tbody', {}, el('tr', {}, el('th', { text: 'self' }), self), el('tr', {}, el('th', { text: 'total' }), total))),
      category,
      hintLine,
    );
    const move = (event: MouseEvent) => {
      if (root.hidden) return;
      const pad = 14;
      const { innerWidth, innerHeight } = window;
      const rect = root.getBoundingClientRect();
      let x = event.clientX + pad;
      let y = event.clientY + pad;
      if (x + rect.width > innerWidth - 4) x = Math.max(4, event.clientX - rect.width - pad);
      if (y + rect.height > innerHeight - 4) y = Math.max(4, event.clientY - rect.height - pad);
      root.style.left = `${x}px`;
      root.style.top = `${y}px`;
    };
    const hide = () => {
      root.hidden = true;
    };
    return {
      root,
      move,
      hide,
      forChart(s: TreeStats) {
        const tip = (() => undefined) as unknown as FlameTooltip<FlameNode>;
        tip.show = (event, d) => {
          const node = d.data;
          const t = s.totals.get(node) ?? node.value;
          name.textContent = d.depth === 0 ? (showIdle ? 'all (the whole profile)' : 'all, without idle time') : node.name;
          where.textContent = d.depth === 0 ? `${plural(s.nodeCount, 'call-tree node')}` : tooltipLocation(node);
          self.textContent = `${fmtMs(node.value)} · ${fmtPct(node.value, s.rootTotal)} of the profile`;
          total.textContent = `${fmtMs(t)} · ${fmtPct(t, s.rootTotal)} of the profile`;
          category.textContent = FRAME_CATEGORY_LABELS[node.category] ?? '';
          root.hidden = false;
          move(event);
        };
        tip.hide = hide;
        return tip;
      },
    };
  }
}

function matches(node: FlameNode, term: string): boolean {
  const t = term.toLowerCase();
  return node.name.toLowerCase().includes(t) || (node.url !== '' && node.url.toLowerCase().includes(t));
}
