/**
 * The Semi-space Lab webview: in the sidebar, the sweep's form, live progress and the results; in
 * an editor panel (<html data-mode="results">), the results alone, wider. Everything from the
 * host reaches the page as text (src/shared/labProtocol.ts). The lab sweeps any numeric V8 or
 * Node flag (the semi-space by default): the columns and the GC-cost chart follow the flag
 * (Mark-Compact figures and peak RSS for the old space; failed requests whenever there are any).
 *
 * This file wires the parts to the host: form.ts, progress.ts, results.ts (with columns.ts and
 * charts.ts); what they share is the one LabPage object (page.ts).
 */
import { parseToLab, type FromLab, type ToLab } from '../../src/shared/labProtocol';
import { el } from '../common/dom';
import { connectHost } from '../common/host';
import { formView } from './form';
import { formatDuration } from './labFormat';
import type { LabPage } from './page';
import { progressView } from './progress';
import { resultsView } from './results';

const resultsOnly = document.documentElement.dataset.mode === 'results';

const app = document.getElementById('app')!;
const formSection = el('section', { id: 'lab-form', className: 'lab-section' });
const progressSection = el('section', { id: 'lab-progress', className: 'lab-section', attrs: { 'aria-live': 'polite' } });
const resultsSection = el('section', { id: 'lab-results', className: 'lab-section' });
app.append(...(resultsOnly ? [resultsSection] : [formSection, progressSection, resultsSection]));

const host = connectHost<ToLab, FromLab>(parseToLab, (m) => onMessage(m));
const page: LabPage = { resultsOnly, post: (m) => host.post(m), form: null, running: false, runCount: 0 };
const progress = progressView(progressSection, page);
const form = formView(formSection, page, progress);
const results = resultsView(resultsSection, page);

function onMessage(m: ToLab): void {
  switch (m.type) {
    case 'init':
      page.form = m.form;
      page.running = m.running;
      if (!resultsOnly) form.render(m.targets, m.trusted);
      if (m.result) results.render(m.result, true);
      form.syncButtons();
      break;
    case 'targets':
      if (!resultsOnly) form.render(m.targets, true);
      break;
    case 'started':
      page.running = true;
      page.runCount = m.runs;
      progress.set(`Starting ${m.runs} runs (about ${formatDuration(m.estimateSeconds)}).`);
      form.syncButtons();
      // Below a long form in a narrow sidebar: bring the progress into view, or Run seems to do nothing.
      progressSection.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
      break;
    case 'progress':
      progress.update(m.progress);
      break;
    case 'result':
      results.render(m.result, m.final);
      if (m.final) {
        const valid = m.result.results.reduce((n, r) => n + r.validRuns, 0);
        const all = m.result.results.reduce((n, r) => n + r.runs.length, 0);
        progress.set(`Sweep ${m.result.status}: ${valid} of ${all} runs valid.`, valid < all);
      }
      break;
    case 'error':
      progress.set(m.message, true);
      break;
    case 'stopped':
      page.running = false;
      form.syncButtons();
      break;
    case 'applyProposed':
      results.proposeApply(m.flag, m.value, m.where);
      break;
    case 'applied':
      results.applied(m.message);
      break;
  }
}

page.post({ type: 'ready' });
