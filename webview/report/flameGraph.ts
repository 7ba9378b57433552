/**
 * The CPU flame graph, drawn on a canvas with d3-flame-graph's look and interactions
 * (../common/flameCanvas.ts), top-down (root at the top, like VS Code's and DevTools' flame views)
 * in a scroll box. The settings, search, zoom and hover box shared with the compare page are in
 * flameChrome.ts; this file adds the unit (ms or bytes), the idle toggle, the category colours and legend, and self/total.
 */
import { FRAME_CATEGORIES, FRAME_CATEGORY_LABELS, type FrameCategory } from '../../src/shared/frameCategory';
import { flameTotals } from '../../src/shared/flameTotals';
import { preOrder } from '../../src/shared/treeTotals';
import { fmtBytes } from '../../src/shared/formatBytes';
import type { FlameNode, FromReportWebview } from '../../src/shared/reportProtocol';
import { el } from '../common/dom';
import { emptyFlameGraph, flameChrome, isIdleFrame, tooltipLocation } from '../common/flameChrome';
import { canvasFlameRenderer } from '../common/flameCanvas';
import type { FlameFrame } from '../common/flameRenderer';
import { fmtMs, fmtPct, plural, type LocationContext } from '../common/format';
import type { Host } from '../common/host';
import { toCss, type Palette } from '../common/theme';

/** What a flame graph's weights are: CPU time in ms, or allocated bytes. */
export interface FlameUnit {
  title: string;
  /** What the widths measure: "total time". */
  width: string;
  /** The whole tree, as the tooltip and the search say it: "the profile". */
  whole: string;
  /** The root frame's name in the tooltip. */
  rootName: string;
  format(value: number): string;
}

export const CPU_TIME: FlameUnit = { title: 'CPU flame graph', width: 'total time', whole: 'the profile', rootName: 'all (the whole profile)', format: fmtMs };
export const CPU_TIME_IN_RANGE: FlameUnit = { ...CPU_TIME, whole: 'the selected range', rootName: 'all (the selected range)' };
export const LIVE_BYTES: FlameUnit = { title: 'Heap flame graph (live objects)', width: 'bytes still in use when the profile was taken', whole: 'the live heap sampled', rootName: 'all (in use)', format: fmtBytes };
export const ALLOCATED_BYTES: FlameUnit = { title: 'Allocation flame graph', width: 'bytes allocated (garbage included)', whole: 'the allocations', rootName: 'all (everything allocated)', format: fmtBytes };
export const SURVIVOR_BYTES: FlameUnit = { title: 'Survivors flame graph (what no young GC freed)', width: 'bytes that no young GC freed', whole: 'the survivors', rootName: 'all (what no young GC freed)', format: fmtBytes };

export interface FlameView {
  applyTheme(palette: Palette): void;
}

interface TreeStats {
  totals: Map<FlameNode, number>;
  nodeCount: number;
  rootTotal: number;
  byCategory: Record<FrameCategory, number>;
}

/** Inclusive totals once, independent of the zoom state (`known` when the tree's builder has them). */
function treeStats(root: FlameNode, known?: Map<FlameNode, number>): TreeStats {
  const { order, totals } = known?.has(root) ? { order: preOrder(root), totals: known } : flameTotals(root);
  // A Map, not an object keyed by the category: that keyed store went through V8's generic path for
  // every frame (6 ms of a first paint's 17,000 frames).
  const sums = new Map<FrameCategory, number>(FRAME_CATEGORIES.map((c) => [c, 0]));
  for (const node of order) sums.set(node.category, (sums.get(node.category) ?? 0) + node.value);
  const byCategory = Object.fromEntries(sums) as Record<FrameCategory, number>;
  return { totals, nodeCount: order.length, rootTotal: totals.get(root) ?? 0, byCategory };
}

/** The tree without its (idle) frames, at the top or under process roots; null when it has none. */
function withoutIdle(flame: FlameNode, totals: Map<FlameNode, number>): { busyRoot: FlameNode | null; idleTotal: number } {
  let idleTotal = 0;
  const strip = (node: FlameNode): FlameNode => {
    const idle = node.children.filter(isIdleFrame);
    if (idle.length === 0) return node;
    const removed = idle.reduce((sum, c) => sum + (totals.get(c) ?? 0), 0);
    idleTotal += removed;
    const copy = { ...node, children: node.children.filter((c) => !isIdleFrame(c)) };
    totals.set(copy, (totals.get(node) ?? 0) - removed);
    return copy;
  };
  const processes = flame.children.length > 0 && flame.children.every((c) => c.category === 'process');
  if (!processes) {
    const busy = strip(flame);
    return { busyRoot: busy === flame ? null : busy, idleTotal };
  }
  const children = flame.children.map(strip);
  if (idleTotal === 0) return { busyRoot: null, idleTotal };
  const busyRoot = { ...flame, children };
  totals.set(busyRoot, (totals.get(flame) ?? 0) - idleTotal);
  return { busyRoot, idleTotal };
}

export function renderFlameSection(
  section: HTMLElement,
  flame: FlameNode | null,
  missing: string,
  host: Host<FromReportWebview>,
  loc: LocationContext,
  palette: Palette,
  unit: FlameUnit = CPU_TIME,
  totals?: Map<FlameNode, number>,
): FlameView | null {
  section.append(el('h2', { text: unit.title }));
  if (!flame) {
    section.append(emptyFlameGraph('No flame graph:', missing));
    return null;
  }

  const stats = treeStats(flame, totals);
  let current = palette;

  // A server's profile is mostly (idle): the event loop waiting. Shown on demand, hidden by default
  // when it is the larger part, so the busy stacks get the width. Percentages stay of the whole profile.
  // With several processes the (idle) frames sit under each process's root frame.
  const { busyRoot, idleTotal } = withoutIdle(flame, stats.totals);
  let showIdle = !busyRoot || idleTotal < stats.rootTotal * 0.3;

  const idleToggle = busyRoot
    ? el('vscode-checkbox', { id: 'flame-show-idle', attrs: { checked: showIdle, title: 'The (idle) frame is the event loop waiting for work' } }, `Show idle time (${fmtPct(idleTotal, stats.rootTotal, 0)})`)
    : null;

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
      ? `Width = ${unit.width}. Click a frame to zoom into it; Ctrl/⌘-click (or a zoomed frame’s Open source) opens its code. Hover for figures.`
      : `Width = ${unit.width}. Click a frame to zoom into it; hover for figures.`,
  });

  const tooltip = tooltipRows();
  const chrome = flameChrome<FlameNode>({
    // The totals of both trees (with and without idle) are known already.
    renderer: canvasFlameRenderer<FlameNode>({ total: (node) => stats.totals.get(node) ?? node.value }),
    nodeCount: stats.nodeCount,
    resetTitle: `Show all of ${unit.whole} again`,
    toggles: [idleToggle],
    tooltipRows: tooltip.rows,
    fillTooltip: tooltip.fill,
    connected: host.connected,
    locOf: () => loc,
    openSource: (node) => host.openSource({ type: 'openSource', url: node.url, line: node.line, column: node.column }),
    fill: (d) => current.frame[d.data.category] ?? current.frame.native,
    background: () => current.background,
    describeMatches: (results, sum) => `${plural(results.length, 'frame')} match · ${unit.format(sum)} = ${fmtPct(sum, stats.rootTotal)} of ${unit.whole}`,
  });
  section.append(chrome.toolbar, el('div', { className: 'legend-row' }, legend, hint), chrome.container);
  chrome.container.setAttribute('data-render-ms', String(Math.round(chrome.mount(showIdle ? flame : busyRoot!))));
  applySwatches();

  idleToggle?.addEventListener('change', () => {
    showIdle = (idleToggle as unknown as { checked: boolean }).checked;
    chrome.replace(showIdle ? flame : busyRoot!);
  });

  function applySwatches(): void {
    for (const [cat, swatch] of swatches) swatch.style.backgroundColor = toCss(current.frame[cat]);
  }

  return {
    applyTheme(next) {
      current = next;
      applySwatches();
      chrome.refresh();
    },
  };

  /** Self and total, as ms and share of the whole profile. */
  function tooltipRows() {
    const name = el('div', { className: 'tt-name' });
    const where = el('div', { className: 'tt-loc' });
    const self = el('td');
    const total = el('td');
    const category = el('div', { className: 'tt-cat' });
    const table = el('table', {}, el('tbody', {}, el('tr', {}, el('th', { text: 'self' }), self), el('tr', {}, el('th', { text: 'total' }), total)));
    const fill = (d: FlameFrame<FlameNode>) => {
      const node = d.data;
      const t = stats.totals.get(node) ?? node.value;
      name.textContent = d.depth === 0 ? (showIdle ? unit.rootName : 'all, without idle time') : node.name;
      where.textContent = d.depth === 0 ? `${plural(stats.nodeCount, 'call-tree node')}` : tooltipLocation(node, loc);
      self.textContent = `${unit.format(node.value)} · ${fmtPct(node.value, stats.rootTotal)} of ${unit.whole}`;
      total.textContent = `${unit.format(t)} · ${fmtPct(t, stats.rootTotal)} of ${unit.whole}`;
      category.textContent = FRAME_CATEGORY_LABELS[node.category] ?? '';
    };
    return { rows: [name, where, table, category], fill };
  }
}
