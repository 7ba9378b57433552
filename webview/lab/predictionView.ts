/**
 * A sweep that confirms a prediction (the report's "Confirm in the Semi-space Lab", `sweep
 * --from-run`): per swept size what the run predicted beside what the lab measured, with the error,
 * and whether the young-GC pause lies in the predicted range.
 */
import type { SweepResult } from '../../src/shared/labProtocol';
import { PREDICTION_CHECK_HEADERS, predictionCheckCells, predictionCheckSummary } from '../../src/shared/predictionText';
import { el } from '../common/dom';

/** The section, or null when the sweep confirms no prediction. */
export function predictionView(result: SweepResult): HTMLElement | null {
  const prediction = result.config.prediction;
  const checks = result.predictionChecks;
  if (!prediction || !checks) return null;
  const body = el('tbody');
  for (const c of checks) {
    const row = el('tr', { attrs: { 'data-size': c.semiSpaceMB } }, ...predictionCheckCells(c).map((text) => el('td', { text })));
    if (c.youngMsInRange === false) row.classList.add('out-of-range');
    body.append(row);
  }
  return el(
    'div',
    { id: 'lab-prediction' },
    el('h3', { text: 'Predicted beside measured' }),
    el('p', { className: 'hint', attrs: { title: prediction.fromRun }, text: `From the run ${runName(prediction.fromRun)}; measured: medians of the valid rounds; error = (measured − predicted) / measured. The young-GC pause is the scavenges' own.` }),
    el('div', { className: 'table-wrap' }, el('table', { id: 'lab-prediction-table' }, el('thead', {}, el('tr', {}, ...PREDICTION_CHECK_HEADERS.map((h) => el('th', { text: h })))), body)),
    el('p', { id: 'lab-prediction-summary', text: predictionCheckSummary(checks) }),
    ...checks.filter((c) => c.regimeDiffers).map((c) => el('p', { className: 'warning', text: `${c.semiSpaceMB} MB: ${c.regimeDiffers}` })),
  );
}

/** The run folder's own name (the whole path is the hint's tooltip). */
function runName(path: string): string {
  const parts = path.split(/[\\/]+/).filter((p) => p !== '');
  return parts[parts.length - 1] ?? path;
}
