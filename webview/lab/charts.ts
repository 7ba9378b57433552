/**
 * The lab's bar charts (chart.js, drawn on canvas in the theme's colours): req/s, the GC cost the
 * recommendation compares, and peak RSS, one bar per value of the flag.
 */
import { BarController, BarElement, CategoryScale, Chart, LinearScale, Tooltip } from 'chart.js';
import { formatValueWithUnit, metricLabel, primaryMetricOf } from '../../src/shared/sweepFlags';
import { settingValue, sweepFlag } from '../../src/shared/model/sweep';
import type { SweepResult } from '../../src/shared/labProtocol';
import { el } from '../common/dom';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip);

export interface LabCharts {
  /** Destroys the charts drawn so far (before their canvases leave the page). */
  clear(): void;
  /** Draws a result's charts into `box`. */
  draw(box: HTMLElement, result: SweepResult): void;
}

export function labCharts(): LabCharts {
  const charts: Chart[] = [];

  function chart(title: string, labels: string[], values: Array<number | null>, colorVar: string): HTMLElement {
    const canvas = el('canvas', { attrs: { 'aria-label': title, role: 'img' } });
    const box = el('figure', { className: 'chart' }, el('figcaption', { text: title }), canvas);
    const color = getComputedStyle(document.body).getPropertyValue(colorVar).trim() || '#4e8cff';
    const fg = getComputedStyle(document.body).getPropertyValue('--vscode-foreground').trim() || '#ccc';
    charts.push(new Chart(canvas, {
      type: 'bar',
      data: { labels, datasets: [{ label: title, data: values, backgroundColor: color }] },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        scales: { x: { ticks: { color: fg } }, y: { beginAtZero: true, ticks: { color: fg } } },
        plugins: { tooltip: { enabled: true } },
      },
    }));
    return box;
  }

  return {
    clear() {
      for (const c of charts.splice(0)) c.destroy();
    },
    draw(box, result) {
      const flag = sweepFlag(result.config);
      const labels = result.results.map((s) => formatValueWithUnit(flag, settingValue(s)));
      // The GC-cost chart shows what the recommendation compares: GC ms or Mark-Compact ms per 1k requests.
      const primary = result.recommendation.metric ?? primaryMetricOf(flag);
      box.append(
        chart('req/s (median)', labels, result.results.map((s) => s.median.rps), '--vscode-charts-blue'),
        chart(metricLabel(primary), labels, result.results.map((s) => s.median[primary] ?? null), '--vscode-charts-orange'),
        chart('peak RSS (MB)', labels, result.results.map((s) => s.median.peakRssMB), '--vscode-charts-purple'),
      );
    },
  };
}
