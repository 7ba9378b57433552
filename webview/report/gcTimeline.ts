/**
 * The GC section: cards with the summary's figures, and a timeline (chart.js v4 +
 * chartjs-plugin-zoom) with every GC event as a point (x: seconds since the process started,
 * y: pause ms, colour: type) and the heap before/after each event as a sawtooth on a second axis.
 */
import {
  Chart,
  Legend,
  LineController,
  LineElement,
  LinearScale,
  PointElement,
  ScatterController,
  Tooltip,
  type ChartDataset,
  type TooltipItem,
} from 'chart.js';
import zoomPlugin from 'chartjs-plugin-zoom';
import type { GcPoint } from '../../src/shared/reportProtocol';
import type { GcSummary } from '../../src/shared/model/summary';
import { requestedSemiSpaceText, youngGenerationParts } from '../../src/shared/youngGenerationText';
import { pretenuringText, siteCostText, siteOwnerNames, siteOwnerText } from '../../src/shared/pretenuringText';
import { HELPER_GC_HOW, gcCpuText, helperPhasesText } from '../../src/shared/gcCpuText';
import { fmtBytes } from '../../src/shared/formatBytes';
import { el, emptyNote } from '../common/dom';
import { fmtDuration, fmtMB, fmtMs, fmtNum, fmtPct, plural } from '../common/format';
import { toCss, type Palette } from '../common/theme';
import type { TimeRange } from './flameChart';

Chart.register(ScatterController, LineController, PointElement, LineElement, LinearScale, Tooltip, Legend, zoomPlugin);

interface GcXY {
  x: number;
  y: number;
  /** Index into the events. */
  i: number;
  /** Heap line only: the point before or after the collection. */
  phase?: 'before' | 'after';
}

type GcChart = Chart<'scatter' | 'line', GcXY[]>;

export interface GcView {
  applyTheme(palette: Palette): void;
  /** Shows this x window (ms), as when the user zoomed there. */
  zoomTo?(fromMs: number, toMs: number): void;
  /** Releases the chart (the live view redraws the section every second). */
  destroy?(): void;
}

/**
 * `clock`: 'isolate' when the events are one isolate's (its own clock, and its heap as a sawtooth);
 * 'run' when they are several processes' on the run's clock (heaps of different processes do not
 * make one line, so none is drawn).
 */
/** How the timeline works with the CPU timeline under it; absent in the live view. */
export interface GcTimeOptions {
  /** The selected range: the cards count its events only, the chart marks it. */
  range: TimeRange | null;
  /** Clicking a GC event (or "Longest pause") selects the time it paused. */
  onSelect(range: TimeRange | null): void;
  /** After each draw: the x window (ms) and the plot area's left edge and width (px). */
  onView(fromMs: number, toMs: number, left: number, width: number): void;
  /** What the x axis shows at first, ms, so the CPU profile fits too. */
  extent: TimeRange | null;
}

export function renderGcSection(section: HTMLElement, fullGc: GcSummary | null, events: GcPoint[], missing: string, palette: Palette, clock: 'isolate' | 'run' = 'isolate', time: GcTimeOptions | null = null): GcView | null {
  section.append(el('h2', { text: 'Garbage collection' }));
  const range = time?.range ?? null;
  const gc = fullGc && range ? gcInRange(fullGc, events, range) : fullGc;
  if (!gc && events.length === 0) {
    section.append(el('div', { id: 'gc-timeline', className: 'gc-timeline is-empty', attrs: { 'data-event-count': 0 } }, emptyNote('No GC events:', missing)));
    return null;
  }

  const types = typesByCount(fullGc, events);
  const cards = gc ? renderCards(gc, range ? events.filter((e) => inRange(e, range)) : events, types, palette, range !== null) : null;
  if (cards) section.append(cards.root);

  if (events.length === 0) {
    section.append(el('div', { id: 'gc-timeline', className: 'gc-timeline is-empty', attrs: { 'data-event-count': 0 } }, emptyNote('No timeline:', 'the GC trace has no events with times for this isolate.')));
    return cards ? { applyTheme: (p) => cards.applyTheme(p) } : null;
  }

  const reset = el('vscode-button', { id: 'gc-reset', attrs: { secondary: true, title: 'Show the whole run again' }, text: 'Reset zoom' });
  const longest = time ? el('vscode-button', { id: 'gc-select-longest', attrs: { secondary: true, title: 'Select the time of the longest GC pause: the CPU views below narrow to it' }, text: 'Select longest pause' }) : null;
  const hint = el('span', {
    className: 'toolbar-note',
    text: time ? 'Click a GC event to select its pause · drag to zoom · Ctrl+wheel zooms · Shift+drag pans' : 'Drag across the chart to zoom into a time range · Ctrl+wheel zooms · Shift+drag pans',
  });
  const canvas = el('canvas', { attrs: { role: 'img', 'aria-label': `GC timeline: ${plural(events.length, 'event')}` } });
  const box = el('div', { id: 'gc-timeline', className: 'gc-timeline', attrs: { 'data-event-count': 0 } }, canvas);
  section.append(el('div', { className: 'toolbar' }, hint, el('span', { className: 'spacer' }), longest, reset), box);

  // One scatter dataset per type, most frequent first; the heap sawtooth underneath.
  const byType = new Map<string, GcXY[]>(types.map((t) => [t, []]));
  const heap: GcXY[] = [];
  events.forEach((e, i) => {
    const x = e.timeMs / 1000;
    let list = byType.get(e.type);
    if (!list) byType.set(e.type, (list = []));
    list.push({ x, y: e.pauseMs, i });
    if (clock === 'isolate') heap.push({ x, y: e.heapBeforeMB, i, phase: 'before' }, { x, y: e.heapAfterMB, i, phase: 'after' });
  });
  const typeNames = [...byType.keys()].filter((t) => byType.get(t)!.length > 0);
  const datasets: ChartDataset<'scatter' | 'line', GcXY[]>[] = typeNames.map((type) => ({
    type: 'scatter' as const,
    label: `${type} pause`,
    data: byType.get(type)!,
    yAxisID: 'y',
    pointRadius: events.length > 2000 ? 2 : 3.5,
    pointHoverRadius: 6,
    pointHitRadius: 6,
    order: 1,
  }));
  if (heap.length > 0) datasets.push({
    type: 'line' as const,
    label: 'heap used before → after each GC (MB)',
    data: heap,
    yAxisID: 'y2',
    borderWidth: 1,
    pointRadius: 0,
    pointHitRadius: 0,
    pointHoverRadius: 0,
    tension: 0,
    order: 2,
  });

  let current = palette;
  const pauseOf = (e: GcPoint): TimeRange => ({ fromMs: e.timeMs - e.pauseMs - TRACE_SLACK_MS, toMs: e.timeMs + TRACE_SLACK_MS });
  const report = (c: GcChart) => {
    const x = c.scales.x;
    if (time && x) time.onView(x.min * 1000, x.max * 1000, c.chartArea.left, c.chartArea.right - c.chartArea.left);
  };
  const chart: GcChart = new Chart<'scatter' | 'line', GcXY[]>(canvas, {
    type: 'scatter',
    data: { datasets },
    plugins: [
      {
        id: 'v8-lens-range',
        // The selected range as a band behind the points; then the CPU timeline follows the axis.
        beforeDatasetsDraw(c) {
          if (!range) return;
          const x = c.scales.x!;
          const area = c.chartArea;
          const a = Math.max(area.left, x.getPixelForValue(range.fromMs / 1000));
          const b = Math.min(area.right, x.getPixelForValue(range.toMs / 1000));
          if (b <= area.left || a >= area.right) return;
          c.ctx.save();
          c.ctx.fillStyle = toCss(current.foreground, 0.14);
          c.ctx.fillRect(a, area.top, Math.max(2, b - a), area.bottom - area.top);
          c.ctx.restore();
        },
        afterLayout: (c) => {
          // The time axis's ticks as drawn, for tests and tools: round values only (see the x scale).
          box.setAttribute('data-x-ticks', (c.scales.x?.ticks ?? []).map((t) => String(t.value)).join('|'));
          queueMicrotask(() => report(c as GcChart));
        },
      },
    ],
    options: {
      onClick: (_event, elements) => {
        const hitPoint = elements.map((e) => (chart.data.datasets[e.datasetIndex]?.data[e.index] as GcXY | undefined)).find((p) => p && !p.phase);
        const e = hitPoint ? events[hitPoint.i] : undefined;
        if (time && e) time.onSelect(pauseOf(e));
      },
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      parsing: false,
      normalized: true,
      interaction: { mode: 'nearest', intersect: true },
      scales: {
        x: {
          type: 'linear',
          ...(time?.extent ? { min: Math.min(time.extent.fromMs, events[0]!.timeMs - events[0]!.pauseMs) / 1000, max: Math.max(time.extent.toMs, events[events.length - 1]!.timeMs) / 1000 } : {}),
          title: { display: true, text: clock === 'run' ? 'time since the run started (s)' : 'time since the process started (s)' },
          // The axis starts where the CPU profile does (0.1 s, say): a tick there read "0.1, 4, 6…".
          // Only chart.js's round steps get a tick; the axis still starts and ends where it did.
          ticks: { includeBounds: false },
        },
        y: { type: 'linear', position: 'left', beginAtZero: true, title: { display: true, text: 'GC pause (ms)' } },
        y2: { type: 'linear', position: 'right', display: heap.length > 0, beginAtZero: true, title: { display: true, text: 'heap used (MB)' }, grid: { drawOnChartArea: false } },
      },
      plugins: {
        legend: { position: 'top', align: 'start', labels: { usePointStyle: true, boxWidth: 8, boxHeight: 8 } },
        tooltip: {
          callbacks: {
            title: (items) => tooltipTitle(items, events),
            label: (item) => tooltipLines(item, events),
          },
        },
        zoom: {
          zoom: { mode: 'x', wheel: { enabled: true, modifierKey: 'ctrl' }, drag: { enabled: true, threshold: 4 }, onZoomComplete: ({ chart: c }) => report(c as GcChart) },
          pan: { enabled: true, mode: 'x', modifierKey: 'shift', onPanComplete: ({ chart: c }) => report(c as GcChart) },
          limits: { x: { min: 'original', max: 'original' } },
        },
      },
    },
  });
  box.setAttribute('data-event-count', String(typeNames.reduce((n, t) => n + byType.get(t)!.length, 0)));
  reset.addEventListener('click', () => chart.resetZoom());
  longest?.addEventListener('click', () => {
    let max: GcPoint | undefined;
    for (const e of events) if (!max || e.pauseMs > max.pauseMs) max = e;
    if (max && time) time.onSelect(pauseOf(max));
  });

  const applyTheme = (p: Palette) => {
    current = p;
    Chart.defaults.font.family = p.fontFamily;
    const text = toCss(p.muted);
    const grid = toCss(p.grid);
    chart.data.datasets.forEach((ds, i) => {
      if (ds.type === 'line') {
        ds.borderColor = toCss(p.heap, 0.6);
        ds.backgroundColor = toCss(p.heap, 0.6);
      } else {
        const c = p.gcType(typeNames[i]!, i);
        ds.backgroundColor = toCss(c, 0.85);
        ds.borderColor = toCss(c);
      }
    });
    const opts = chart.options;
    for (const id of ['x', 'y', 'y2'] as const) {
      const scale = opts.scales?.[id];
      if (!scale) continue;
      scale.ticks = { ...scale.ticks, color: text };
      scale.grid = { ...scale.grid, color: grid };
      scale.border = { ...scale.border, color: grid };
      if ('title' in scale && scale.title) scale.title = { ...scale.title, color: toCss(p.foreground) };
    }
    if (opts.plugins?.legend?.labels) opts.plugins.legend.labels.color = toCss(p.foreground);
    const zoomDrag = opts.plugins?.zoom?.zoom?.drag;
    if (zoomDrag) {
      zoomDrag.backgroundColor = toCss(p.foreground, 0.12);
      zoomDrag.borderColor = toCss(p.foreground, 0.5);
      zoomDrag.borderWidth = 1;
    }
    chart.update('none');
    cards?.applyTheme(p);
  };
  applyTheme(palette);
  return {
    applyTheme,
    destroy: () => chart.destroy(),
    zoomTo: (fromMs, toMs) => {
      chart.zoomScale('x', { min: fromMs / 1000, max: toMs / 1000 }, 'none');
      report(chart);
    },
  };
}

/** The trace prints whole ms: a pause is selected with this much to spare on each side. */
const TRACE_SLACK_MS = 1;

function inRange(e: GcPoint, range: TimeRange): boolean {
  return e.timeMs >= range.fromMs && e.timeMs - e.pauseMs <= range.toMs;
}

/** The summary's figures for the events of a range: counts and pauses of those events, the share of the range's length. */
function gcInRange(gc: GcSummary, events: GcPoint[], range: TimeRange): GcSummary {
  const inside = events.filter((e) => inRange(e, range));
  const pausesByType = new Map<string, number[]>();
  for (const e of inside) {
    let list = pausesByType.get(e.type);
    if (!list) pausesByType.set(e.type, (list = []));
    list.push(e.pauseMs);
  }
  const byType: GcSummary['byType'] = {};
  for (const [type, pauses] of pausesByType) {
    pauses.sort((a, b) => a - b);
    const total = pauses.reduce((a, b) => a + b, 0);
    byType[type] = { count: pauses.length, totalMs: total, meanMs: total / pauses.length, p95Ms: percentile(pauses, 95), maxMs: pauses[pauses.length - 1]! };
  }
  const totalPauseMs = inside.reduce((a, e) => a + e.pauseMs, 0);
  const wallMs = Math.max(0, range.toMs - range.fromMs);
  // The helpers' time of the range's own events (their phases are not kept per event).
  const traced = inside.filter((e) => e.helperMs !== undefined);
  const helperThreads = traced.length > 0 ? { ms: traced.reduce((a, e) => a + e.helperMs!, 0), byPhase: {}, events: traced.length } : null;
  return { ...gc, byType, eventCount: inside.length, totalPauseMs, wallMs, wallShare: wallMs > 0 ? Math.min(1, totalPauseMs / wallMs) : 0, incrementalMarkingMs: 0, otherIsolates: [], helperThreads };
}

function typesByCount(gc: GcSummary | null, events: GcPoint[]): string[] {
  const counts = new Map<string, number>();
  if (gc) for (const [t, s] of Object.entries(gc.byType)) counts.set(t, s.count);
  else for (const e of events) counts.set(e.type, (counts.get(e.type) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([t]) => t);
}

function tooltipTitle(items: TooltipItem<'scatter' | 'line'>[], events: GcPoint[]): string {
  const raw = items[0]?.raw as GcXY | undefined;
  const e = raw ? events[raw.i] : undefined;
  return e ? `${e.type} at ${fmtNum(e.timeMs / 1000, 3)} s` : '';
}

function tooltipLines(item: TooltipItem<'scatter' | 'line'>, events: GcPoint[]): string[] {
  const raw = item.raw as GcXY;
  const e = events[raw.i];
  if (!e) return [];
  const lines = [`pause ${fmtMs(e.pauseMs)}`];
  // With V8's phases (--trace-gc-nvp): the helpers' time beside the pause, and what a young GC copied.
  if (e.helperMs !== undefined) lines.push(`helper threads ${fmtMs(e.helperMs)}`);
  if (e.survivedBytes !== undefined || e.promotedBytes !== undefined) lines.push(`copied ${fmtBytes(e.survivedBytes ?? 0)} · promoted ${fmtBytes(e.promotedBytes ?? 0)}`);
  lines.push(`heap ${fmtMB(e.heapBeforeMB)} → ${fmtMB(e.heapAfterMB)}`, `reason: ${e.reason || 'not given'}`);
  return lines;
}

/** The file name of a script URL, for a short place. */
function fileOf(url: string): string {
  return url.slice(url.lastIndexOf('/') + 1) || url;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx]!;
}

/** "Semi-space · 16 MB reached · Scavenger, two semi-spaces · asked: V8 default". */
function youngCard(gc: GcSummary, card: (label: string, value: string, detail: string, extra?: Record<string, string>) => HTMLElement): HTMLElement {
  const { what, size, detail } = youngGenerationParts(gc.youngGeneration, gc.semiSpaceMB);
  const asked = `asked: ${requestedSemiSpaceText(gc.semiSpaceRequestedMB)}`;
  const label = what === 'semi-space' ? 'Semi-space (young generation)' : 'Young generation';
  return card(label, size === null ? (gc.youngGeneration?.collector === null ? 'no young GC ran' : 'not measured') : `${size} reached`, `${gc.youngGeneration?.collector === null ? '' : `${detail} · `}${asked}`, { 'data-card': 'semi-space' });
}

/** The GC's time on V8's helper threads beside the main thread's pause; "not collected" without V8's phases. */
function helperCard(gc: GcSummary, card: (label: string, value: string, detail: string, extra?: Record<string, string>) => HTMLElement): HTMLElement {
  const helper = gc.helperThreads;
  if (!helper) return card('GC on helper threads', 'not collected', `needs ${HELPER_GC_HOW}`, { 'data-card': 'helpers' });
  const phases = helperPhasesText(helper);
  return card('GC on helper threads', fmtMs(helper.ms), `${gcCpuText(gc.totalPauseMs, helper.ms)}${phases ? ` · ${phases}` : ''} · V8's count: wall time of its helper scopes`, { 'data-card': 'helpers' });
}

function renderCards(gc: GcSummary, events: GcPoint[], types: string[], palette: Palette, ranged = false) {
  const pauses = events.map((e) => e.pauseMs).sort((a, b) => a - b);
  const all = Object.values(gc.byType);
  const count = gc.eventCount || all.reduce((n, s) => n + s.count, 0);
  const mean = count > 0 ? gc.totalPauseMs / count : NaN;
  const p95 = pauses.length > 0 ? percentile(pauses, 95) : NaN;
  const max = pauses.length > 0 ? pauses[pauses.length - 1]! : Math.max(...all.map((s) => s.maxMs), NaN);

  const card = (label: string, value: string, detail: string, extra?: Record<string, string>) =>
    el('div', { className: 'card', attrs: extra }, el('div', { className: 'card-label', text: label }), el('div', { className: 'card-value', text: value }), el('div', { className: 'card-detail', text: detail }));

  const root = el('div', { id: 'gc-cards', className: 'cards' });
  root.append(
    card(ranged ? 'GC share of the range' : 'GC share of wall time', fmtPct(gc.totalPauseMs, gc.wallMs), `${fmtMs(gc.totalPauseMs)} paused in ${ranged ? fmtMs(gc.wallMs) : fmtDuration(gc.wallMs)}`, { 'data-card': 'share' }),
    card('Total pause', fmtMs(gc.totalPauseMs), `${plural(count, 'event')}${gc.incrementalMarkingMs > 0 ? ` · +${fmtMs(gc.incrementalMarkingMs)} incremental marking` : ''}`, { 'data-card': 'total' }),
    card('Pause mean / p95 / max', `${fmtMs(mean)}`, `p95 ${fmtMs(p95)} · max ${fmtMs(max)}`, { 'data-card': 'pauses' }),
    youngCard(gc, card),
    helperCard(gc, card),
  );
  // Only when V8 tenured something: then the run is in another GC regime than one where it did not.
  if (gc.pretenuring && gc.pretenuring.sitesTenured > 0) {
    const p = gc.pretenuring;
    root.append(card('Pretenuring', `${plural(p.sitesTenured, 'site')} tenured`, pretenuringText(p), { 'data-card': 'pretenuring' }));
    // Each tenured site: the function it likely belongs to (an estimate: V8 names sites by address) and what it cost.
    // Sites of one process tenured by the same GC with the same likely function say the same: one line.
    const groups = new Map<string, typeof p.tenured>();
    for (const site of p.tenured.slice(0, 10)) {
      const key = `${site.pid}|${site.cost?.atMs ?? site.site}|${site.owner ? `${site.owner.url}:${site.owner.line}` : site.site}`;
      groups.set(key, [...(groups.get(key) ?? []), site]);
    }
    const sites = [...groups.values()].slice(0, 5).map((group) => {
      const site = group[0]!;
      const which = group.length === 1 ? `site ${site.site}` : `${group.length} sites (${group.map((g) => g.site).join(', ')})`;
      return el(
        'p',
        { className: 'card-note', attrs: { 'data-site': site.site, 'data-owner': site.owner?.name ?? '' } },
        el('strong', { text: siteOwnerNames(site) }),
        el('span', { text: ` · ${which}, pid ${site.pid}: ${siteOwnerText(site, (url, line) => `${fileOf(url)}:${line}`)}${siteCostText(site) ? `. ${siteCostText(site)}` : ''}` }),
      );
    });
    if (sites.length > 0) root.append(el('div', { id: 'pretenured-sites', className: 'card-note' }, ...sites));
  }
  const swatches: [HTMLElement, string, number][] = [];
  types.forEach((type, i) => {
    const s = gc.byType[type];
    if (!s) return;
    const swatch = el('span', { className: 'swatch' });
    swatches.push([swatch, type, i]);
    root.append(
      el(
        'div',
        { className: 'card card-type', attrs: { 'data-card': 'type', 'data-gc-type': type } },
        el('div', { className: 'card-label' }, swatch, el('span', { text: type })),
        el('div', { className: 'card-value', text: `${s.count.toLocaleString('en-US')} ×` }),
        el('div', { className: 'card-detail', text: `${fmtMs(s.totalMs)} total · mean ${fmtMs(s.meanMs)} · p95 ${fmtMs(s.p95Ms)} · max ${fmtMs(s.maxMs)}` }),
      ),
    );
  });
  if (gc.otherIsolates.length > 0) {
    root.append(el('p', { className: 'card-note', text: `Figures cover all ${1 + gc.otherIsolates.length} processes and threads: counts and pauses added up, the share over their own wall times added up; the young generation is the largest any of them reached. Pick one above to see it alone.` }));
  }
  const applyTheme = (p: Palette) => {
    for (const [swatch, type, i] of swatches) swatch.style.backgroundColor = toCss(p.gcType(type, i));
  };
  applyTheme(palette);
  return { root, applyTheme };
}
