/**
 * The warm-up chart of the tiers section: the optimizations V8 finished in each second of the run
 * (bars, left axis) and, under load, the requests answered in the same seconds (a line, right axis),
 * full width with both axes labelled. A long tail of optimizations is a long warm-up; req/s climbing
 * with it shows what the warm-up cost. A table of the same figures is there for screen readers.
 */
import { BarController, BarElement, CategoryScale, Chart, Legend, LineController, LineElement, LinearScale, PointElement, Tooltip, type TooltipItem } from 'chart.js';
import { el } from '../common/dom';
import { onThemeChange, readPalette, toCss, cssVar, parseColor, type Palette } from '../common/theme';

Chart.register(BarController, BarElement, CategoryScale, LineController, LineElement, PointElement, LinearScale, Tooltip, Legend);

type WarmupChart = Chart<'bar' | 'line', (number | null)[], string>;

/** The charts on the page, re-coloured when the theme changes; one observer for all of them. */
const live = new Set<WarmupChart>();
let themeHooked = false;

/**
 * `perSecond[s]`: optimizations finished in second s; `rpsTicks`: [ms on the same clock, req/s]
 * of the load generator (the last tick in a second stands for it). The seconds run to whichever
 * is longer; a second without load has no req/s (a gap in the line), never 0.
 */
export function renderWarmupChart(perSecond: readonly number[], rpsTicks: readonly [number, number][]): HTMLElement {
  const rps: (number | null)[] = [];
  for (const [at, n] of rpsTicks) if (at >= 0) rps[Math.floor(at / 1000)] = n;
  const seconds = Math.max(perSecond.length, rps.length);
  const opt = Array.from({ length: seconds }, (_, s) => perSecond[s] ?? 0);
  const load = Array.from({ length: seconds }, (_, s) => rps[s] ?? null);
  const withLoad = load.filter((n) => n !== null).length;

  const total = opt.reduce((a, b) => a + b, 0);
  let running = 0;
  const ninety = opt.findIndex((n) => (running += n) >= total * 0.9);
  const title = `Warm-up: ${total.toLocaleString('en-US')} optimizations${total > 0 ? `, 90% of them by ${ninety + 1} s` : ''}${withLoad > 0 ? '; req/s under load in the same seconds' : ''}`;

  const canvas = el('canvas', { attrs: { role: 'img', 'aria-label': `${title}. The table after the chart has every second's figures.` } });
  const box = el('div', { className: 'warmup-chart' }, canvas);
  const root = el(
    'div',
    { id: 'warmup', className: 'warmup', attrs: { 'data-seconds': seconds, 'data-optimizations': total, 'data-rps-seconds': withLoad } },
    el('span', { className: 'warmup-label', text: title }),
    box,
    figuresTable(opt, load),
  );

  const p = readPalette();
  const chart: WarmupChart = new Chart<'bar' | 'line', (number | null)[], string>(canvas, {
    data: {
      labels: opt.map((_, s) => String(s)),
      datasets: [
        { type: 'bar', label: 'optimizations finished', data: opt, yAxisID: 'y', order: 2, categoryPercentage: 0.9, barPercentage: 0.9 },
        ...(withLoad > 0 ? [{ type: 'line' as const, label: 'req/s under load', data: load, yAxisID: 'y2', order: 1, spanGaps: false, pointRadius: 2, borderWidth: 2, tension: 0 }] : []),
      ],
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      interaction: { mode: 'index', intersect: false },
      scales: {
        x: { title: { display: true, text: 'second of the run (the GC trace’s clock)' }, ticks: { autoSkip: true, maxRotation: 0 } },
        y: { position: 'left', beginAtZero: true, title: { display: true, text: 'optimizations / s' }, ticks: { precision: 0 } },
        ...(withLoad > 0 ? { y2: { position: 'right' as const, beginAtZero: true, title: { display: true, text: 'req/s' }, grid: { drawOnChartArea: false }, ticks: { precision: 0 } } } : {}),
      },
      plugins: {
        legend: { position: 'top', align: 'end', labels: { boxWidth: 12 } },
        tooltip: {
          callbacks: {
            title: (items: TooltipItem<'bar' | 'line'>[]) => (items[0] ? `${items[0].label}–${Number(items[0].label) + 1} s` : ''),
            label: (item: TooltipItem<'bar' | 'line'>) => (item.raw === null ? 'no load' : `${item.dataset.label}: ${Number(item.raw).toLocaleString('en-US')}`),
          },
        },
      },
    },
  });
  applyTheme(chart, p);
  live.add(chart);
  if (!themeHooked) {
    themeHooked = true;
    onThemeChange(() => {
      const next = readPalette();
      for (const c of live) {
        // A chart of a report that was drawn again is gone from the page: let it go.
        if (!c.canvas.isConnected) {
          c.destroy();
          live.delete(c);
        } else applyTheme(c, next);
      }
    });
  }
  return root;
}

/** Each second's figures as a table (visually hidden): what the chart shows, for screen readers and tests. */
function figuresTable(opt: readonly number[], load: readonly (number | null)[]): HTMLElement {
  const body = el('tbody');
  opt.forEach((n, s) => body.append(el('tr', {}, el('th', { attrs: { scope: 'row' }, text: `${s}–${s + 1} s` }), el('td', { text: String(n) }), el('td', { text: load[s] === null ? 'no load' : load[s]!.toLocaleString('en-US') }))));
  return el(
    'table',
    { id: 'warmup-table', className: 'visually-hidden' },
    el('caption', { text: 'Optimizations finished and req/s, per second' }),
    el('thead', {}, el('tr', {}, ...['second', 'optimizations', 'req/s'].map((h) => el('th', { attrs: { scope: 'col' }, text: h })))),
    body,
  );
}

function applyTheme(chart: WarmupChart, p: Palette): void {
  const opt = parseColor(cssVar('--vscode-charts-green', p.dark ? '#89d185' : '#388a34'));
  const rps = parseColor(cssVar('--vscode-charts-blue', p.dark ? '#3794ff' : '#1a85ff'));
  const [bars, line] = chart.data.datasets;
  if (bars) Object.assign(bars, { backgroundColor: toCss(opt, 0.75), borderColor: toCss(opt) });
  if (line) Object.assign(line, { backgroundColor: toCss(rps), borderColor: toCss(rps) });
  const text = toCss(p.muted);
  const grid = toCss(p.grid);
  for (const scale of Object.values(chart.options.scales ?? {})) {
    if (!scale) continue;
    scale.ticks = { ...scale.ticks, color: text };
    scale.grid = { ...scale.grid, color: grid };
    scale.border = { ...scale.border, color: grid };
    if ('title' in scale && scale.title) scale.title = { ...scale.title, color: toCss(p.foreground) };
  }
  if (chart.options.plugins?.legend?.labels) chart.options.plugins.legend.labels.color = toCss(p.foreground);
  chart.options.font = { family: p.fontFamily };
  chart.update('none');
}
