/**
 * The differential flame graph: d3-flame-graph v5 (ES build, its CSS goes to compare.css) over the
 * merged call tree of A and B, drawn top-down like the report's. d3-flame-graph's differential
 * convention: each frame carries `delta` (B − A), `computeDelta(true)` sums it over the subtree,
 * and the colour follows its sign — red: more time in B, blue: less — with the strength of the
 * relative change of the frame's total (as the library's differentialColorMapper does, but in the
 * theme's colours so labels stay readable). Width is B's time; "size by A" draws A's instead, so
 * frames that are gone in B can be seen. Search, zoom and the hover box are ../common/flameChrome.ts.
 */
import type { FlameHierarchyNode } from 'd3-flame-graph';
import { FRAME_CATEGORY_LABELS } from '../../src/shared/frameCategory';
import { compareTotals, normalizationScale, normalizeCompareTree } from '../../src/shared/model/compareModel';
import type { CompareModel, CompareNode, CompareNormalization, CompareSide, FromCompareWebview } from '../../src/shared/compareProtocol';
import { el } from '../common/dom';
import { emptyFlameGraph, flameChrome, isIdleFrame, tooltipLocation } from '../common/flameChrome';
import type { FlameFrame } from '../common/flameRenderer';
import { svgFlameRenderer } from '../common/svgFlameRenderer';
import { fmtDuration, fmtMs, plural } from '../common/format';
import type { Host } from '../common/host';
import { cssVar, mix, parseColor, readPalette, toCss, type Rgb } from '../common/theme';
import { describeMove, fmtPctChange, fmtTime, fmtTimeChange } from './compareFormat';

// The part of d3-flame-graph's differential API used here (webview/types declares the rest).
declare module 'd3-flame-graph' {
  interface FlameGraph<T> {
    /** Sums each node's `delta` (getDelta, by default `data.delta`) over its subtree into `node.delta`. */
    computeDelta(on: boolean): FlameGraph<T>;
  }
  interface FlameHierarchyNode<T> {
    /** With computeDelta(true): the frame's delta plus its descendants'. */
    delta?: number;
  }
}

/** Relative changes below this are drawn neutral (sampling noise). */
const NEUTRAL_BELOW = 0.02;

export interface DiffFlameView {
  setNormalization(normalization: CompareNormalization): void;
  applyTheme(): void;
}

interface DiffPalette {
  background: Rgb;
  /** More time in B. */
  red: Rgb;
  /** Less time in B. */
  blue: Rgb;
  neutral: Rgb;
}

function readDiffPalette(): DiffPalette {
  const p = readPalette();
  const red = parseColor(cssVar('--vscode-charts-red', '#f14c4c'));
  const blue = parseColor(cssVar('--vscode-charts-blue', '#3794ff'));
  return {
    background: p.background,
    // Enough colour to read the change, enough background for the label text.
    red: mix(red, p.background, p.dark ? 0.72 : 0.62),
    blue: mix(blue, p.background, p.dark ? 0.72 : 0.55),
    neutral: mix(p.muted, p.background, p.dark ? 0.32 : 0.24),
  };
}

/** The frame colour for a change `delta` of a frame whose totals are `a` (A) and `b` (B). */
export function diffColor(delta: number, a: number, b: number, pal: DiffPalette): Rgb {
  const scale = Math.max(a, b);
  const t = scale > 0 ? Math.min(1, Math.abs(delta) / scale) : 0;
  if (t < NEUTRAL_BELOW) return pal.neutral;
  return mix(delta > 0 ? pal.red : pal.blue, pal.neutral, Math.sqrt(t));
}

interface Stats {
  /** Inclusive A and B per node, in the comparison's unit. */
  unit: ReturnType<typeof compareTotals>;
  /** Inclusive A and B per node, ms. */
  ms: ReturnType<typeof compareTotals>;
}

export function renderDiffFlame(section: HTMLElement, model: CompareModel, host: Host<FromCompareWebview>, initial: CompareNormalization): DiffFlameView | null {
  section.append(el('h2', { text: 'Differential flame graph' }));
  const flame = model.flame;
  if (!flame) {
    section.append(emptyFlameGraph('No differential flame graph:', model.flameMissing ?? 'a run has no CPU profile.'));
    return null;
  }

  let normalization = initial;
  let sizeBy: CompareSide = 'other';
  let pal = readDiffPalette();
  const { profileMs } = model;

  // A server's profile is mostly (idle): hidden by default when it is the larger part of either run.
  const idleNode = flame.children.find(isIdleFrame);
  const idleTotals = idleNode ? compareTotals(idleNode) : null;
  const idleShare = idleNode && idleTotals
    ? Math.max(profileMs.base > 0 ? idleTotals.base.get(idleNode)! / profileMs.base : 0, profileMs.other > 0 ? idleTotals.other.get(idleNode)! / profileMs.other : 0)
    : 0;
  let showIdle = !idleNode || idleShare < 0.3;

  const requests = model.requests ?? null;
  const scale = () => normalizationScale(normalization, profileMs, requests);

  function build(): { data: CompareNode; stats: Stats } {
    const data = normalizeCompareTree(flame!, normalization, profileMs, sizeBy, requests);
    if (!showIdle) data.children = data.children.filter((c) => !isIdleFrame(c));
    const s = scale();
    return { data, stats: { unit: compareTotals(data, (n) => n.baseMs * s.base, (n) => n.otherMs * s.other), ms: compareTotals(data) } };
  }
  let current = build();

  const sizeToggle = el('vscode-checkbox', { id: 'flame-size-by-base', attrs: { title: 'Frames only in A have no width in B: size frames by A to see them' } }, 'Size frames by A');
  const idleToggle = idleNode
    ? el('vscode-checkbox', { id: 'flame-show-idle', attrs: { checked: showIdle, title: 'The (idle) frame is the event loop waiting for work' } }, 'Show idle time')
    : null;

  const swatches = { red: el('span', { className: 'swatch' }), blue: el('span', { className: 'swatch' }), neutral: el('span', { className: 'swatch' }) };
  const legend = el(
    'ul',
    { id: 'flame-legend', className: 'legend', attrs: { 'aria-label': 'Frame colours' } },
    el('li', { attrs: { 'data-change': 'more' } }, swatches.red, el('span', { text: 'more time in B' })),
    el('li', { attrs: { 'data-change': 'less' } }, swatches.blue, el('span', { text: 'less time in B' })),
    el('li', { attrs: { 'data-change': 'same' } }, swatches.neutral, el('span', { text: 'about the same' })),
  );
  const hint = el('p', { id: 'flame-hint', className: 'hint' });
  const tooltip = tooltipRows();
  const chrome = flameChrome<CompareNode>({
    renderer: svgFlameRenderer<CompareNode>((chart) => chart.computeDelta(true)),
    nodeCount: current.stats.ms.order.length,
    resetTitle: 'Show the whole tree again',
    toggles: [sizeToggle, idleToggle],
    tooltipRows: tooltip.rows,
    fillTooltip: tooltip.fill,
    connected: host.connected,
    locOf,
    openSource: (node) => host.openSource({ type: 'openSource', side: sideOf(node), url: node.url, line: node.line, column: node.column }),
    fill: (d) => {
      const a = current.stats.unit.base.get(d.data) ?? 0;
      const b = current.stats.unit.other.get(d.data) ?? 0;
      return diffColor((d as FlameHierarchyNode<CompareNode>).delta ?? b - a, a, b, pal);
    },
    background: () => pal.background,
    describeMatches: (results) => {
      // Count a match inside another match once.
      const hit = new Set(results);
      let a = 0;
      let b = 0;
      for (const r of results) {
        let p = r.parent;
        while (p && !hit.has(p)) p = p.parent;
        if (p) continue;
        a += current.stats.unit.base.get(r.data) ?? 0;
        b += current.stats.unit.other.get(r.data) ?? 0;
      }
      return `${plural(results.length, 'frame')} match · A ${fmtTime(a, normalization)} → B ${fmtTime(b, normalization)} (${fmtTimeChange(b - a, normalization)})`;
    },
  });
  const container = chrome.container;
  section.append(chrome.toolbar, el('div', { className: 'legend-row' }, legend, hint), container);

  function describe(): void {
    const width = sizeBy === 'other' ? 'Width = B’s time' : 'Width = A’s time (frames gone in B show blue)';
    const unit = normalization === 'ms' ? 'in ms' : normalization === 'request' ? 'in µs per request' : 'as % of each profile';
    hint.textContent = `${width}, ${unit}. Colour = change of the frame’s total from A to B; the stronger, the larger the relative change. Click to zoom${host.connected ? '; Ctrl/⌘-click opens the code' : ''}.`;
    container.setAttribute('data-size-by', sizeBy);
    container.setAttribute('data-normalization', normalization);
  }

  describe();
  chrome.mount(current.data);
  applySwatches();

  /** New data (unit, width side or idle changed): the zoom starts over, the search is kept. */
  function redraw(): void {
    current = build();
    describe();
    chrome.replace(current.data);
  }

  sizeToggle.addEventListener('change', () => {
    sizeBy = (sizeToggle as unknown as { checked: boolean }).checked ? 'base' : 'other';
    redraw();
  });
  idleToggle?.addEventListener('change', () => {
    showIdle = (idleToggle as unknown as { checked: boolean }).checked;
    redraw();
  });

  function applySwatches(): void {
    swatches.red.style.backgroundColor = toCss(pal.red);
    swatches.blue.style.backgroundColor = toCss(pal.blue);
    swatches.neutral.style.backgroundColor = toCss(pal.neutral);
  }

  return {
    setNormalization(next) {
      if (next === normalization) return;
      normalization = next;
      redraw();
    },
    applyTheme() {
      pal = readDiffPalette();
      applySwatches();
      chrome.refresh();
    },
  };

  /** A frame only in A is opened as A has it; everything else as B has it. */
  function sideOf(node: CompareNode): CompareSide {
    return node.presence === 'base' ? 'base' : 'other';
  }

  function locOf(node: CompareNode): { cwd: string | null } {
    return { cwd: (sideOf(node) === 'base' ? model.base.cwd : model.other.cwd) ?? null };
  }

  /** Self and total in A and B, and the change. */
  function tooltipRows() {
    const name = el('div', { className: 'tt-name' });
    const where = el('div', { className: 'tt-loc' });
    const presence = el('div', { className: 'tt-presence' });
    const cells = {
      selfA: el('td', { className: 'tt-a' }),
      selfB: el('td', { className: 'tt-b' }),
      selfD: el('td', { className: 'tt-delta' }),
      totalA: el('td', { className: 'tt-a' }),
      totalB: el('td', { className: 'tt-b' }),
      totalD: el('td', { className: 'tt-delta' }),
    };
    const category = el('div', { className: 'tt-cat' });
    const table = el(
      'table',
      {},
      el('thead', {}, el('tr', {}, el('th'), el('th', { text: 'A' }), el('th', { text: 'B' }), el('th', { text: 'change' }))),
      el(
        'tbody',
        {},
        el('tr', {}, el('th', { text: 'self' }), cells.selfA, cells.selfB, cells.selfD),
        el('tr', {}, el('th', { text: 'total' }), cells.totalA, cells.totalB, cells.totalD),
      ),
    );
    /** "1.20 ms" or "0.41% (1.20 ms)". */
    const both = (unitValue: number, ms: number) => (normalization === 'ms' ? fmtMs(ms) : `${fmtTime(unitValue, normalization)} (${fmtMs(ms)})`);
    const change = (a: number, b: number) => `${fmtTimeChange(b - a, normalization)}${a > 0 ? ` (${fmtPctChange(((b - a) / a) * 100)})` : b > 0 ? ' (new)' : ''}`;
    const fill = (d: FlameFrame<CompareNode>) => {
      const node = d.data;
      const s = scale();
      const { unit, ms } = current.stats;
      const selfA = node.baseMs * s.base;
      const selfB = node.otherMs * s.other;
      const totalA = unit.base.get(node) ?? selfA;
      const totalB = unit.other.get(node) ?? selfB;
      name.textContent = d.depth === 0 ? (showIdle || !idleNode ? 'all (the whole profiles)' : 'all, without idle time') : node.name;
      where.textContent = d.depth === 0 ? `sampled: A ${fmtDuration(profileMs.base)}, B ${fmtDuration(profileMs.other)}` : tooltipLocation(node, locOf(node));
      presence.textContent = node.presence === 'other' ? 'only in B (new)' : node.presence === 'base' ? 'only in A (gone in B)' : node.movedFrom ? describeMove(node.movedFrom, node) : '';
      presence.hidden = presence.textContent === '';
      cells.selfA.textContent = both(selfA, node.baseMs);
      cells.selfB.textContent = both(selfB, node.otherMs);
      cells.selfD.textContent = change(selfA, selfB);
      cells.totalA.textContent = both(totalA, ms.base.get(node) ?? node.baseMs);
      cells.totalB.textContent = both(totalB, ms.other.get(node) ?? node.otherMs);
      cells.totalD.textContent = change(totalA, totalB);
      for (const [cell, delta] of [[cells.selfD, selfB - selfA], [cells.totalD, totalB - totalA]] as const) {
        cell.className = `tt-delta ${delta > 0 ? 'worse' : delta < 0 ? 'better' : 'same'}`;
      }
      category.textContent = FRAME_CATEGORY_LABELS[node.category] ?? '';
    };
    return { rows: [name, where, presence, table, category], fill };
  }
}
