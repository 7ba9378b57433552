/**
 * The figures side by side: A, B, the change B − A and its percentage, and whether that is better or
 * worse for the figure (fewer scavenges and shorter pauses are better; settings are only shown).
 * The verdict is a word as well as a colour.
 */
import type { CompareModel, MetricRow, MetricVerdict } from '../../src/shared/compareProtocol';
import { el, emptyNote } from '../report/dom';
import { fmtMetric, fmtMetricChange, fmtPctChange } from './compareFormat';

const GROUP_LABELS: Record<MetricRow['group'], string> = {
  run: 'Run',
  gc: 'Garbage collection',
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
  section.append(
    el('p', {
      className: 'hint',
      text: 'Change is B − A. Green: better for that figure (fewer, shorter, smaller); red: worse. Settings such as the semi-space are shown without a verdict.' + (model.gcMissing ? ` No GC rows: ${model.gcMissing}` : ''),
    }),
  );
  const table = el('table', { id: 'compare-metrics', className: 'data-table metrics-table' });
  table.append(el('caption', { className: 'visually-hidden', text: 'GC and run figures of A and B' }));
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
  for (const row of model.metrics) {
    if (row.group !== group) {
      group = row.group;
      body.append(el('tr', { className: 'group-row' }, el('th', { attrs: { scope: 'rowgroup', colspan: 6 }, text: GROUP_LABELS[row.group] })));
    }
    const value = (v: number | null, text: string | undefined) => (v !== null ? fmtMetric(row.unit, v) : text ?? '–');
    const change = row.change !== null ? fmtMetricChange(row.unit, row.change) : '–';
    const pct = row.changePct !== null ? fmtPctChange(row.changePct) : row.base === 0 && row.other !== null && row.other > 0 ? 'new' : '–';
    body.append(
      el(
        'tr',
        { attrs: { 'data-key': row.key, 'data-verdict': row.verdict } },
        el('th', { attrs: { scope: 'row' }, className: 'metric-label', text: row.label, title: row.hint }),
        el('td', { className: 'num', text: value(row.base, row.baseText) }),
        el('td', { className: 'num', text: value(row.other, row.otherText) }),
        el('td', { className: `num change ${row.verdict}`, text: change }),
        el('td', { className: `num change ${row.verdict}`, text: pct }),
        el('td', { className: `verdict ${row.verdict}`, text: VERDICT_TEXT[row.verdict] }),
      ),
    );
  }
  table.append(body);
  section.append(el('div', { className: 'table-wrap' }, table));
}
