/**
 * The figures side by side: A, B, the change B − A and its percentage, and whether that is better or
 * worse for the figure (fewer scavenges and shorter pauses are better; settings are only shown, and
 * totals of runs that did different work say so instead of a verdict). The verdict is a word as
 * well as a colour.
 */
import type { CompareModel, MetricRow, MetricVerdict } from '../../src/shared/compareProtocol';
import { el, emptyNote } from '../common/dom';
import { fmtMetric, fmtMetricChange, fmtPctChange } from './compareFormat';

const GROUP_LABELS: Record<MetricRow['group'], string> = {
  load: 'Per request, in the measured window',
  run: 'Run',
  gc: 'Garbage collection',
  alloc: 'Allocations (sampled, garbage included)',
  cpu: 'CPU profile',
  memory: 'Memory and process',
};

const VERDICT_TEXT: Record<MetricVerdict, string> = {
  better: 'better',
  worse: 'worse',
  same: 'no change',
  info: '',
  'n/a': '',
};

export function renderMetrics(section: HTMLElement, model: CompareModel): void {
  section.append(el('h2', { text: 'GC and run figures' }));
  if (model.metrics.length === 0) {
    section.append(el('div', { id: 'compare-metrics', className: 'is-empty' }, emptyNote('No figures to compare:', model.gcMissing ?? 'neither run has a summary.')));
    return;
  }
  const underLoad = model.load && (model.load.underLoad.base || model.load.underLoad.other);
  section.append(
    el('p', {
      className: 'hint',
      text:
        'Change is B − A. Green: better for that figure (fewer, shorter, smaller); red: worse. Settings such as the semi-space are shown without a verdict.' +
        (underLoad ? ' Totals of the whole run grow with the work done: under load they are shown without a verdict, which the per-request figures give.' : '') +
        (model.gcMissing ? ` No GC rows: ${model.gcMissing}` : ''),
    }),
  );
  section.append(metricsTable(model.metrics, 'compare-metrics', 'GC and run figures of A and B'));
}

/** A table of figures, a header row per group. */
export function metricsTable(rows: readonly MetricRow[], id: string, caption: string): HTMLElement {
  const table = el('table', { id, className: 'data-table metrics-table' });
  table.append(el('caption', { className: 'visually-hidden', text: caption }));
  table.append(
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        el('th', { attrs: { scope: 'col' }, text: 'Figure' }),
        el('th', { className: 'num', attrs: { scope: 'col' }, text: 'A' }),
        el('th', { className: 'num', attrs: { scope: 'col' }, text: 'B' }),
        el('th', { className: 'num', attrs: { scope: 'col' }, text: 'Change' }),
        el('th', { className: 'num', attrs: { scope: 'col' }, text: 'Change %' }),
        el('th', { attrs: { scope: 'col' }, text: 'Verdict' }),
      ),
    ),
  );
  const body = el('tbody');
  let group: MetricRow['group'] | null = null;
  for (const row of rows) {
    if (row.group !== group) {
      group = row.group;
      body.append(el('tr', { className: 'group-row' }, el('th', { attrs: { scope: 'rowgroup', colspan: 6 }, text: GROUP_LABELS[row.group] })));
    }
    const value = (v: number | null, text: string | undefined) => (v !== null ? fmtMetric(row.unit, v) : text ?? '–');
    const change = row.change !== null ? fmtMetricChange(row.unit, row.change) : '–';
    const pct = row.changePct !== null ? fmtPctChange(row.changePct) : row.base === 0 && row.other !== null && row.other > 0 ? 'new' : '–';
    const verdict = row.verdictNote
      ? el('td', { className: 'verdict info verdict-note', text: row.verdictNote })
      : el('td', { className: `verdict ${row.verdict}`, text: VERDICT_TEXT[row.verdict] });
    body.append(
      el(
        'tr',
        { attrs: { 'data-key': row.key, 'data-verdict': row.verdict } },
        el('th', { attrs: { scope: 'row' }, className: 'metric-label', text: row.label, title: row.hint }),
        el('td', { className: 'num', text: value(row.base, row.baseText) }),
        el('td', { className: 'num', text: value(row.other, row.otherText) }),
        el('td', { className: `num change ${row.verdict}`, text: change }),
        el('td', { className: `num change ${row.verdict}`, text: pct }),
        verdict,
      ),
    );
  }
  table.append(body);
  return el('div', { className: 'table-wrap' }, table);
}
