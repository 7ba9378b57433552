/**
 * The V8 Lens compare webview (bundled to dist/webview/compare.js + compare.css). It posts `ready`,
 * receives `{ type: 'model' }` (src/shared/compareProtocol.ts) and renders two runs side by side:
 * both headers, the per-request figures of runs under load, the GC and run figures with their
 * change, a differential flame graph, and the functions whose self time changed most. Everything from the model reaches the page as text
 * (textContent / setAttribute, see ../common/dom.ts).
 */
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import { parseToCompareWebview, type CompareModel, type CompareNormalization, type FromCompareWebview, type ToCompareWebview } from '../../src/shared/compareProtocol';
import { clear, el } from '../common/dom';
import { connectHost } from '../common/host';
import { onThemeChange } from '../common/theme';
import { describeNormalization } from './compareFormat';
import { renderDiffFlame, type DiffFlameView } from './diffFlame';
import { renderHeader } from './header';
import { renderMetrics } from './metrics';
import { renderPerRequest } from './perRequest';
import { renderTopChanges } from './topChanges';
import { renderAllocChanges } from './allocChanges';
// The report's stylesheet (same look), then ours; both after d3-flame-graph's (imported by diffFlame.ts).
import '../common/report.css';
import './compare.css';

const app = document.getElementById('app') ?? document.body.appendChild(el('div', { id: 'app' }));
const status = el('p', { id: 'report-status', attrs: { 'aria-live': 'polite' }, text: 'Loading comparison…' });
app.append(status);

let flameView: DiffFlameView | null = null;
let themeHooked = false;

const host = connectHost<ToCompareWebview, FromCompareWebview>(parseToCompareWebview, (message) => {
  if (message.type === 'status') {
    status.textContent = message.text;
    return;
  }
  try {
    render(message.model);
  } catch (err) {
    showError(err);
  }
});
document.documentElement.toggleAttribute('data-connected', host.connected);
host.post({ type: 'ready' });

function render(model: CompareModel): void {
  clear(app);
  document.documentElement.removeAttribute('data-report-ready');
  document.title = `V8 Lens · ${model.title}`;
  let normalization: CompareNormalization = model.normalization;
  // Without the share: per request when both runs compare per request, else milliseconds.
  const unshared: CompareNormalization = model.requests ? 'request' : 'ms';

  const header = el('header', { id: 'compare-header' });
  app.append(header);
  renderHeader(header, model, host);

  // What is compared, and the switch between ms and shares (for the flame graph and the top lists).
  const basisText = el('span', { id: 'compare-basis-text' });
  const shareToggle = el(
    'vscode-checkbox',
    { id: 'compare-share', attrs: { checked: normalization === 'share', title: `Compare each function’s share of its own profile instead of ${unshared === 'request' ? 'its time per request' : 'milliseconds'}` } },
    'Compare as share of each profile',
  );
  const lengthNote = el('span', { id: 'compare-length-note', className: 'length-note' });
  const basis = el('div', { id: 'compare-basis', className: 'basis' }, el('span', { className: 'basis-label', text: 'Compared:' }), basisText, lengthNote, el('span', { className: 'spacer' }), shareToggle);
  app.append(basis, status);
  // Every verdict below is one run against one: said once, above them, as the gate says it.
  if (model.noiseNote) app.append(el('p', { id: 'compare-noise', className: 'hint noise-note', attrs: { role: 'note' }, text: model.noiseNote }));
  status.textContent = '';

  const metricsSection = el('section', { id: 'metrics-section', className: 'panel', attrs: { 'aria-label': 'GC and run figures' } });
  const flameSection = el('section', { id: 'flame-section', className: 'panel', attrs: { 'aria-label': 'Differential flame graph' } });
  const changesSection = el('section', { id: 'changes-section', className: 'panel', attrs: { 'aria-label': 'Biggest changes in self time' } });
  const allocSection = el('section', { id: 'alloc-section', className: 'panel', attrs: { 'aria-label': 'Biggest changes in allocation' } });
  const main = el('main');
  app.append(main);
  renderPerRequest(main, model);
  main.append(metricsSection, flameSection, changesSection, allocSection);

  renderMetrics(metricsSection, model);
  flameView = renderDiffFlame(flameSection, model, host, normalization);
  renderTopChanges(changesSection, model, normalization, host);
  renderAllocChanges(allocSection, model, host);

  const describeBasis = () => {
    basisText.textContent = describeNormalization(normalization, model.profileMs, model.requests ?? null);
    lengthNote.textContent =
      model.lengthsDiffer && normalization === 'ms' ? 'The profiles differ in length by more than 20%: shares may compare better.' : '';
    document.documentElement.setAttribute('data-normalization', normalization);
  };
  describeBasis();
  shareToggle.addEventListener('change', () => {
    normalization = (shareToggle as unknown as { checked: boolean }).checked ? 'share' : unshared;
    describeBasis();
    flameView?.setNormalization(normalization);
    renderTopChanges(changesSection, model, normalization, host);
  });

  document.documentElement.setAttribute('data-report-ready', 'true');
  if (!themeHooked) {
    themeHooked = true;
    onThemeChange(() => flameView?.applyTheme());
  }
}

function showError(err: unknown): void {
  const text = err instanceof Error ? err.message : String(err);
  status.textContent = `The comparison could not be drawn: ${text}`;
  status.classList.add('error');
  console.error(err);
}
