/**
 * "A bigger young generation", under the GC section: what the run's own GC trace predicts at the
 * current semi-space and 2×, 4×, 8× of it (scavenges, the young-GC pause as a range, promotions,
 * Mark-Compacts, the memory it costs), the recommendation, the model's notes, and "Confirm in the
 * Semi-space Lab", which asks the editor to sweep those sizes (never in an exported page).
 */
import type { YoungGenPrediction } from '../../src/shared/model/prediction';
import { PREDICTION_HEADERS, perText, predictionCells, predictionInputsText } from '../../src/shared/predictionText';
import type { FromReportWebview } from '../../src/shared/reportProtocol';
import { el, emptyNote } from '../common/dom';
import type { Host } from '../common/host';

export function renderPredictionPanel(section: HTMLElement, prediction: YoungGenPrediction | null | undefined, missing: string | null | undefined, host: Host<FromReportWebview>): void {
  section.append(el('h2', { id: 'prediction-heading', text: 'A bigger young generation' }));
  if (!prediction) {
    section.append(el('div', { id: 'prediction-panel', className: 'is-empty' }, emptyNote('Prediction:', missing ? `not made (${missing})` : 'not made (summary.json was written before V8 Lens predicted; v8-lens predict <run> makes it)')));
    return;
  }
  const panel = el('div', { id: 'prediction-panel', attrs: { 'data-per': prediction.per } });
  section.append(panel);
  const rec = prediction.recommendation;
  panel.append(
    el('p', { className: rec.gainSmall || rec.semiSpaceMB === null ? 'prediction-verdict' : 'prediction-verdict recommended', attrs: { 'data-note': 'recommendation' }, text: rec.text }),
    el('p', { className: 'section-note', attrs: { 'data-note': 'inputs' }, text: `${predictionInputsText(prediction)}. Predicted ${perText(prediction.per)}; the young-GC pause as low–high (≈ expected).` }),
  );
  const body = el('tbody');
  prediction.rows.forEach((row, i) => {
    const cells = predictionCells(prediction)[i]!;
    const tr = el('tr', { attrs: { 'data-size': row.semiSpaceMB } }, ...cells.map((text, c) => el('td', { className: c === 0 ? '' : 'num', text })));
    if (row.current) tr.classList.add('current');
    if (rec.semiSpaceMB === row.semiSpaceMB) tr.classList.add('recommended');
    body.append(tr);
  });
  panel.append(el('div', { className: 'table-wrap' }, el('table', { id: 'prediction-table' }, el('thead', {}, el('tr', {}, ...PREDICTION_HEADERS.map((h) => el('th', { text: h })))), body)));
  for (const note of prediction.notes) panel.append(el('p', { className: 'section-note', attrs: { 'data-note': 'model' }, text: note }));
  // The lab runs the service under the run's load: only from the editor, and only per request.
  if (host.connected && prediction.per === 'requests') {
    const confirm = el('button', { id: 'prediction-confirm', text: 'Confirm in the Semi-space Lab', attrs: { title: 'Sweep the current, the recommended and a size between under this run\'s load, and show the prediction beside the measurement' } });
    confirm.onclick = () => host.post({ type: 'confirmPrediction' });
    panel.append(el('div', { className: 'buttons' }, confirm));
  }
}
