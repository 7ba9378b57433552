/**
 * The time-ordered flame chart under the GC timeline: one box per stretch of time a frame stayed on
 * the stack, drawn on a canvas (a long run has hundreds of thousands of boxes), on the GC chart's
 * time axis and at its plot's left edge and width, so a box sits under the GC pause it overlaps.
 * Drag to select a range (the flame graph, the tables and the GC figures narrow to it); click a
 * box to pick its function for the callers & callees view; Ctrl/⌘-click opens its source.
 */
import { firstEndingAfter, flameChartRects, type ChartLevel, type ChartRects } from '../../src/shared/profile/flameChartRects';
import { keyInfo, type CollapseOptions } from '../../src/shared/profile/collapse';
import type { ProfileIndex } from '../../src/shared/profile/profileIndex';
import type { FromReportWebview } from '../../src/shared/reportProtocol';
import { el } from '../common/dom';
import { fmtMs, fmtNum, formatLocation, type LocationContext } from '../common/format';
import { canOpen, type Host } from '../common/host';
import { toCss, type Palette } from '../common/theme';

const ROW_PX = 16;
const DRAG_PX = 4;
/** The strip above the boxes for the load's windows and the tier markers. */
const MARK_PX = 14;
/** The flame chart's height on screen; deeper stacks scroll. */
const VISIBLE_PX = 260;

/** A stretch of the axis to shade and name: the load's warm-up and measured window. */
export interface TimeBand {
  label: string;
  fromMs: number;
  toMs: number;
}

/** A moment on the axis: V8 made optimized code for a function, or threw it away. */
export interface TimeMark {
  atMs: number;
  kind: 'optimized' | 'deopt';
  text: string;
}

/** A range on the report's time axis, ms. */
export interface TimeRange {
  fromMs: number;
  toMs: number;
}

export interface FlameChartOptions {
  index: ProfileIndex;
  collapse: CollapseOptions;
  /** Where the profile's first sample is on the axis, ms. */
  offsetMs: number;
  palette: Palette;
  range: TimeRange | null;
  onSelect(range: TimeRange | null): void;
  onPick(fn: number): void;
  bands: TimeBand[];
  marks: TimeMark[];
  /** A click on a mark (its index in `marks`). */
  onMark(index: number): void;
  host: Host<FromReportWebview>;
  loc: LocationContext;
}

export interface FlameChartView {
  root: HTMLElement;
  /** Shows [fromMs, toMs] of the axis over `width` px starting `left` px into the box. */
  setView(fromMs: number, toMs: number, left: number, width: number): void;
  applyTheme(palette: Palette): void;
  /** The whole profile on the axis, ms. */
  extent: TimeRange;
  boxCount: number;
}

export function renderFlameChart(opts: FlameChartOptions): FlameChartView {
  let rects = flameChartRects(opts.index, opts.collapse);
  // Room for the deepest stack, which a sampled first picture may not show yet (folding only makes stacks shallower).
  let deepest = 0;
  for (const d of opts.index.depth) if (d > deepest) deepest = d;
  const rows = Math.max(1, deepest);
  const canvas = el('canvas', { attrs: { role: 'img', 'aria-label': `CPU over time: ${rects.count} boxes, ${rows} frames deep` } });
  const tooltip = el('div', { id: 'timeline-tooltip', className: 'timeline-tooltip', attrs: { role: 'tooltip', hidden: true } });
  // The canvas is the visible window only (sticky in the scroll box); the spacer gives the box its full height.
  const fullHeight = MARK_PX + Math.max(ROW_PX, rows * ROW_PX);
  const spacer = el('div', { className: 'flame-chart-spacer' });
  const scroller = el('div', { className: 'flame-chart-scroll' }, canvas, spacer);
  const root = el('div', { id: 'flame-chart', className: 'flame-chart', attrs: { 'data-slice-us': Math.round(rects.sliceUs), 'data-box-count': rects.count, 'data-depth': rows, 'data-mark-count': opts.marks.length, 'data-bands': opts.bands.map((b) => b.label).join('|') } }, scroller, tooltip);
  const extent = { fromMs: opts.offsetMs, toMs: opts.offsetMs + opts.index.profile.durationUs / 1000 };
  let view = { ...extent, left: 0, width: 600 };
  let palette = opts.palette;
  let drag: { x0: number; x1: number } | null = null;

  const axisOf = (us: number) => opts.offsetMs + us / 1000;
  const xOf = (ms: number) => view.left + ((ms - view.fromMs) / (view.toMs - view.fromMs || 1)) * view.width;
  const msAt = (x: number) => view.fromMs + ((x - view.left) / (view.width || 1)) * (view.toMs - view.fromMs);

  function draw(): void {
    const ratio = window.devicePixelRatio || 1;
    const cssWidth = Math.max(200, scroller.clientWidth);
    const cssHeight = Math.min(fullHeight, VISIBLE_PX);
    spacer.style.height = `${fullHeight - cssHeight}px`;
    const top = scroller.scrollTop;
    canvas.style.width = `${cssWidth}px`;
    canvas.style.height = `${cssHeight}px`;
    canvas.width = Math.round(cssWidth * ratio);
    canvas.height = Math.round(cssHeight * ratio);
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, cssWidth, cssHeight);
    ctx.font = `11px ${palette.fontFamily}`;
    ctx.textBaseline = 'middle';
    drawBands(ctx, cssHeight);
    let drawn = 0;
    const usAt = (x: number) => (msAt(x) - opts.offsetMs) * 1000;
    const right = view.left + view.width;
    // Only the rows the scroll box shows: a 400-deep profile has 25 times more below the fold.
    const firstRow = Math.max(0, Math.floor(top / ROW_PX));
    const lastRow = Math.min(rects.levels.length - 1, Math.ceil((top + cssHeight) / ROW_PX));
    ctx.save();
    ctx.beginPath();
    ctx.rect(0, MARK_PX, cssWidth, cssHeight - MARK_PX);
    ctx.clip();
    const colours = new Map<number, string>();
    const colourOf = (key: number) => {
      let c = colours.get(key);
      if (c === undefined) colours.set(key, (c = toCss(palette.frame[keyInfo(opts.index, rects.map, key).category] ?? palette.frame.native)));
      return c;
    };
    for (let depth = firstRow; depth <= lastRow; depth++) {
      const level = rects.levels[depth]!;
      const y = MARK_PX + depth * ROW_PX - top;
      let i = firstEndingAfter(level, usAt(view.left));
      while (i < level.startUs.length) {
        const x0 = Math.max(view.left, xOf(axisOf(level.startUs[i]!)));
        if (x0 >= right) break;
        const x1 = Math.min(right, xOf(axisOf(level.endUs[i]!)));
        const key = rects.map.key[level.node[i]!]!;
        ctx.fillStyle = colourOf(key);
        drawn++;
        if (x1 - x0 < 1) {
          // Narrower than a pixel: one pixel for it, and the boxes that share that pixel are skipped.
          const px = Math.floor(x0);
          ctx.fillRect(px, y, 1, ROW_PX - 1);
          i = Math.max(i + 1, firstEndingAfter(level, usAt(px + 1)));
          continue;
        }
        ctx.fillRect(x0, y, Math.max(1, x1 - x0 - 0.5), ROW_PX - 1);
        if (x1 - x0 > 36) {
          ctx.fillStyle = toCss(palette.foreground);
          ctx.save();
          ctx.beginPath();
          ctx.rect(x0 + 2, y, x1 - x0 - 4, ROW_PX);
          ctx.clip();
          ctx.fillText(keyInfo(opts.index, rects.map, key).name, x0 + 3, y + ROW_PX / 2);
          ctx.restore();
        }
        i++;
      }
    }
    ctx.restore();
    drawMarks(ctx);
    drawBandLabels(ctx);
    shade(ctx, cssHeight);
    root.setAttribute('data-drawn-boxes', String(drawn));
  }

  /** The load's windows: a tint over the boxes. */
  function drawBands(ctx: CanvasRenderingContext2D, height: number): void {
    opts.bands.forEach((band, i) => {
      const a = Math.max(view.left, xOf(band.fromMs));
      const b = Math.min(view.left + view.width, xOf(band.toMs));
      if (b - a < 1) return;
      ctx.fillStyle = toCss(i === 0 ? palette.muted : palette.heap, 0.1);
      ctx.fillRect(a, 0, b - a, height);
    });
  }

  /** The windows' names in the strip, over the tier marks with a halo of the background, so both read. */
  function drawBandLabels(ctx: CanvasRenderingContext2D): void {
    opts.bands.forEach((band) => {
      const a = Math.max(view.left, xOf(band.fromMs));
      const b = Math.min(view.left + view.width, xOf(band.toMs));
      if (b - a < 1) return;
      ctx.save();
      ctx.beginPath();
      ctx.rect(a, 0, b - a, MARK_PX);
      ctx.clip();
      ctx.lineJoin = 'round';
      ctx.lineWidth = 3;
      ctx.strokeStyle = toCss(palette.background);
      ctx.strokeText(band.label, a + 3, MARK_PX / 2);
      ctx.fillStyle = toCss(palette.foreground);
      ctx.fillText(band.label, a + 3, MARK_PX / 2);
      ctx.restore();
    });
  }

  /** ▼ at each tier change: green for optimized code made, the warning colour for a deopt. */
  function drawMarks(ctx: CanvasRenderingContext2D): void {
    for (const m of opts.marks) {
      const x = xOf(m.atMs);
      if (x < view.left - 4 || x > view.left + view.width + 4) continue;
      ctx.fillStyle = toCss(m.kind === 'deopt' ? palette.category.gc : palette.heap);
      ctx.beginPath();
      ctx.moveTo(x - 4, 2);
      ctx.lineTo(x + 4, 2);
      ctx.lineTo(x, MARK_PX - 3);
      ctx.closePath();
      ctx.fill();
    }
  }

  /** The mark under a point of the strip, or -1. */
  function markAt(x: number, y: number): number {
    if (y > MARK_PX) return -1;
    let best = -1;
    let bestDx = 6;
    opts.marks.forEach((m, i) => {
      const dx = Math.abs(xOf(m.atMs) - x);
      if (dx < bestDx) {
        bestDx = dx;
        best = i;
      }
    });
    return best;
  }

  /**
   * A sampled picture (more spans than columns) is rebuilt for the view once it is zoomed in far
   * enough or moved outside what was built: finer slices, or every span when few are left.
   */
  function refine(): void {
    if (rects.sliceUs === 0 && rects.fromUs === 0 && rects.toUs === opts.index.profile.durationUs) return;
    const from = (view.fromMs - opts.offsetMs) * 1000;
    const to = (view.toMs - opts.offsetMs) * 1000;
    const span = to - from;
    const outside = from < rects.fromUs || to > rects.toUs;
    const tooCoarse = rects.sliceUs > 0 && rects.sliceUs > span / 2048;
    if (!outside && !tooCoarse) return;
    rects = flameChartRects(opts.index, opts.collapse, { fromUs: from - span / 2, toUs: to + span / 2 });
    root.setAttribute('data-slice-us', String(Math.round(rects.sliceUs)));
  }

  /** Dims what lies outside the selected range (or the range being dragged). */
  function shade(ctx: CanvasRenderingContext2D, height: number): void {
    const sel = drag ? { fromMs: msAt(Math.min(drag.x0, drag.x1)), toMs: msAt(Math.max(drag.x0, drag.x1)) } : opts.range;
    if (!sel) return;
    const a = Math.max(view.left, xOf(sel.fromMs));
    const b = Math.min(view.left + view.width, xOf(sel.toMs));
    ctx.fillStyle = toCss(palette.background, 0.6);
    ctx.fillRect(view.left, 0, Math.max(0, a - view.left), height);
    ctx.fillRect(b, 0, Math.max(0, view.left + view.width - b), height);
    ctx.strokeStyle = toCss(palette.foreground, 0.7);
    ctx.strokeRect(a + 0.5, 0.5, Math.max(1, b - a - 1), height - 1);
  }

  /** The box under a point: its row and index, or null. */
  function hit(x: number, y: number): { level: ChartLevel; i: number } | null {
    const level = rects.levels[Math.floor((y - MARK_PX + scroller.scrollTop) / ROW_PX)];
    if (!level) return null;
    const us = (msAt(x) - opts.offsetMs) * 1000;
    const i = firstEndingAfter(level, us);
    return i < level.startUs.length && level.startUs[i]! <= us ? { level, i } : null;
  }

  let scrollFrame = 0;
  scroller.addEventListener('scroll', () => {
    cancelAnimationFrame(scrollFrame);
    scrollFrame = requestAnimationFrame(() => draw());
  });

  const local = (event: MouseEvent) => {
    const r = canvas.getBoundingClientRect();
    return { x: event.clientX - r.left, y: event.clientY - r.top };
  };
  canvas.addEventListener('mousedown', (event) => {
    if (event.button !== 0) return;
    const { x } = local(event);
    drag = { x0: x, x1: x };
  });
  window.addEventListener('mousemove', (event) => {
    if (!drag) return;
    drag.x1 = local(event).x;
    draw();
  });
  window.addEventListener('mouseup', (event) => {
    if (!drag) return;
    const { x0, x1 } = drag;
    drag = null;
    if (Math.abs(x1 - x0) >= DRAG_PX) {
      const from = Math.max(extent.fromMs, msAt(Math.min(x0, x1)));
      const to = Math.min(extent.toMs, msAt(Math.max(x0, x1)));
      opts.onSelect(to > from ? { fromMs: from, toMs: to } : null);
      return;
    }
    draw();
    const p = local(event);
    const mark = markAt(p.x, p.y);
    if (mark >= 0) return opts.onMark(mark);
    const box = hit(p.x, p.y);
    if (!box) return;
    const key = rects.map.key[box.level.node[box.i]!]!;
    const info = keyInfo(opts.index, rects.map, key);
    if ((event.ctrlKey || event.metaKey) && opts.host.connected && canOpen(info.url, info.line)) {
      opts.host.openSource({ type: 'openSource', url: info.url, line: info.line, column: info.column });
    } else if (key >= 0) opts.onPick(key);
  });
  canvas.addEventListener('mousemove', (event) => {
    if (drag) return;
    const p = local(event);
    const mark = markAt(p.x, p.y);
    if (mark >= 0) {
      const m = opts.marks[mark]!;
      tooltip.replaceChildren(el('div', { className: 'tt-name', text: m.text }), el('div', { text: `at ${fmtNum(m.atMs / 1000, 3)} s · click for its row${m.kind === 'deopt' ? ' in Deopts' : ' in Tiers'}` }));
      tooltip.hidden = false;
      placeTooltip(event);
      return;
    }
    const box = hit(p.x, p.y);
    if (!box) {
      tooltip.hidden = true;
      return;
    }
    const info = keyInfo(opts.index, rects.map, rects.map.key[box.level.node[box.i]!]!);
    const from = axisOf(box.level.startUs[box.i]!);
    const to = axisOf(box.level.endUs[box.i]!);
    const where = info.url ? formatLocation(info.url, info.line, info.column, opts.loc).text : 'no source';
    // A sampled picture's boxes are as wide as their slices: their times are approximate.
    const about = rects.sliceUs > 0 ? `≈ ${fmtMs(to - from)} (zoom in for exact times)` : fmtMs(to - from);
    tooltip.replaceChildren(el('div', { className: 'tt-name', text: info.name }), el('div', { className: 'tt-loc', text: where }), el('div', { text: `${about} on the stack, ${fmtNum(from / 1000, 3)}–${fmtNum(to / 1000, 3)} s` }));
    tooltip.hidden = false;
    placeTooltip(event);
  });
  function placeTooltip(event: MouseEvent): void {
    const box = root.getBoundingClientRect();
    tooltip.style.left = `${Math.max(0, Math.min(event.clientX - box.left + 12, box.width - 260))}px`;
    tooltip.style.top = `${event.clientY - box.top + 14}px`;
  }
  canvas.addEventListener('mouseleave', () => (tooltip.hidden = true));

  return {
    root,
    extent,
    boxCount: rects.count,
    setView(fromMs, toMs, left, width) {
      view = { fromMs, toMs, left, width };
      refine();
      draw();
    },
    applyTheme(next) {
      palette = next;
      draw();
    },
  };
}

export type { ChartRects };
