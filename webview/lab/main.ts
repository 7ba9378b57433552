/**
 * The Semi-space Lab webview: in the sidebar, the sweep's form, live progress and the results; in
 * an editor panel (<html data-mode="results">), the results alone, wider. Everything from the
 * host reaches the page as text (src/shared/labProtocol.ts).
 */
import { BarController, BarElement, CategoryScale, Chart, LinearScale, Tooltip } from 'chart.js';
import type { FromLab, LabForm, LabTarget, SweepProgress, SweepResult, SweepSettingResult, ToLab } from '../../src/shared/labProtocol';
import { el } from '../report/dom';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip);

interface VsCodeApi {
  postMessage(message: FromLab): void;
}
declare function acquireVsCodeApi(): VsCodeApi;
const api = acquireVsCodeApi();
const post = (m: FromLab) => api.postMessage(m);
const resultsOnly = document.documentElement.dataset.mode === 'results';

const app = document.getElementById('app')!;
const formSection = el('section', { id: 'lab-form', className: 'lab-section' });
const progressSection = el('section', { id: 'lab-progress', className: 'lab-section', attrs: { 'aria-live': 'polite' } });
const resultsSection = el('section', { id: 'lab-results', className: 'lab-section' });
app.append(...(resultsOnly ? [resultsSection] : [formSection, progressSection, resultsSection]));

let form: LabForm | null = null;
let running = false;
let runCount = 0;
let lastResult: SweepResult | null = null;
const charts: Chart[] = [];
const applyBox = el('div', { id: 'lab-apply-box', attrs: { 'aria-live': 'polite' } });

window.addEventListener('message', (event: MessageEvent<ToLab>) => {
  const m = event.data;
  switch (m.type) {
    case 'init':
      form = m.form;
      running = m.running;
      if (!resultsOnly) renderForm(m.targets, m.trusted);
      if (m.result) renderResults(m.result, true);
      syncButtons();
      break;
    case 'targets':
      if (!resultsOnly) renderForm(m.targets, true);
      break;
    case 'started':
      running = true;
      runCount = m.runs;
      setProgress(`Starting ${m.runs} runs (about ${formatDuration(m.estimateSeconds)}).`);
      syncButtons();
      break;
    case 'progress':
      onProgress(m.progress);
      break;
    case 'result':
      renderResults(m.result, m.final);
      if (m.final) {
        const valid = m.result.results.reduce((n, r) => n + r.validRuns, 0);
        const all = m.result.results.reduce((n, r) => n + r.runs.length, 0);
        setProgress(`Sweep ${m.result.status}: ${valid} of ${all} runs valid.`, valid < all);
      }
      break;
    case 'error':
      setProgress(m.message, true);
      break;
    case 'stopped':
      running = false;
      syncButtons();
      break;
    case 'applyProposed': {
      const write = el('button', { id: 'lab-apply-write', className: 'primary', text: 'Write it' });
      const discard = el('button', { id: 'lab-apply-discard', text: 'Discard' });
      write.onclick = () => post({ type: 'applyConfirm', write: true });
      discard.onclick = () => post({ type: 'applyConfirm', write: false });
      applyBox.replaceChildren(
        el('p', { text: `The editor shows the change: --max-semi-space-size=${m.semiSpaceMB} in the ${m.where}. Write it? (Undo in the editor takes it back.)` }),
        el('div', { className: 'buttons' }, write, discard),
      );
      break;
    }
    case 'applied':
      applyBox.replaceChildren(el('p', { className: 'status', id: 'lab-applied', text: m.message }));
      break;
  }
});

// ------------------------------------------------------------------------------------------ form

function field(label: string, input: HTMLElement, hint?: string): HTMLElement {
  return el('label', { className: 'field' }, el('span', { className: 'field-label', text: label }), input, hint ? el('span', { className: 'hint', text: hint }) : null);
}

function input(key: keyof LabForm, type: 'text' | 'number' | 'textarea' = 'text', attrs: Record<string, string | number> = {}): HTMLInputElement | HTMLTextAreaElement {
  const node = type === 'textarea' ? el('textarea', { attrs: { id: `lab-${key}`, rows: 2, ...attrs } }) : el('input', { attrs: { type, id: `lab-${key}`, ...attrs } });
  node.value = String(form![key]);
  node.addEventListener('change', () => {
    (form as unknown as Record<string, unknown>)[key] = type === 'number' ? Number(node.value) : node.value;
    post({ type: 'formChanged', form: form! });
    updateEstimate();
  });
  return node;
}

function select<K extends keyof LabForm>(key: K, options: Array<[string, string]>): HTMLSelectElement {
  const node = el('select', { attrs: { id: `lab-${String(key)}` } });
  for (const [value, label] of options) node.append(el('option', { text: label, attrs: { value } }));
  node.value = String(form![key]);
  node.addEventListener('change', () => {
    (form as unknown as Record<string, unknown>)[key] = key === 'pinMin' ? node.value === 'true' : node.value;
    post({ type: 'formChanged', form: form! });
    renderModeFields();
  });
  return node;
}

const estimate = el('p', { className: 'hint', id: 'lab-estimate' });
const runButton = el('button', { id: 'lab-run', className: 'primary', text: 'Run sweep' });
const cancelButton = el('button', { id: 'lab-cancel', text: 'Cancel' });
const rateField = el('div');

function renderForm(targets: LabTarget[], trusted: boolean): void {
  formSection.replaceChildren();
  const target = el('select', { attrs: { id: 'lab-target' } });
  for (const t of targets) target.append(el('option', { text: t.label, title: t.detail, attrs: { value: t.id } }));
  if (targets.length === 0) target.append(el('option', { text: 'No node launch configuration, node npm script or open .js file', attrs: { value: '' } }));
  target.value = form!.targetId;
  target.addEventListener('change', () => {
    form!.targetId = target.value;
    post({ type: 'formChanged', form: form! });
  });
  runButton.onclick = () => {
    if (!form) return;
    setProgress('Checking the settings…');
    post({ type: 'run', form });
  };
  cancelButton.onclick = () => post({ type: 'cancel' });
  formSection.append(
    el('h2', { text: 'Semi-space Lab' }),
    el('p', { className: 'hint', text: 'Runs your service under the same load at each --max-semi-space-size, a fresh process per run, and compares throughput, latency, GC and memory.' }),
    field('Target', target),
    field('Ready when', select('readyKind', [['url', 'a URL answers'], ['line', 'it prints a line']])),
    field('URL or line', input('readyValue', 'text', { placeholder: 'the request URL' })),
    el('h3', { text: 'Load' }),
    field('Request URL (loopback only)', input('url')),
    field('Method', input('method')),
    field('Headers (Name: value per line)', input('headers', 'textarea')),
    field('Body', input('body', 'textarea')),
    field('Connections', input('connections', 'number', { min: 1 })),
    field('Warm-up s (discarded)', input('warmupSeconds', 'number', { min: 0 })),
    field('Measured s', input('durationSeconds', 'number', { min: 1 })),
    field('Mode', select('mode', [['closed', 'closed loop (as fast as it answers)'], ['rate', 'fixed rate']])),
    rateField,
    el('h3', { text: 'Sizes' }),
    field('--max-semi-space-size (MB)', input('sizes')),
    field('Rounds', input('rounds', 'number', { min: 1 }), '3 rounds show big differences; 4+ are needed to call one significant, 6 for a confidence interval.'),
    field('New space', select('pinMin', [['false', 'starts small and grows (V8 default)'], ['true', 'pinned: --min-semi-space-size = max']])),
    field('If a run fails', select('onFailure', [['continue', 'go on with the next run'], ['stop', 'stop the sweep']])),
    el('div', { className: 'buttons' }, runButton, cancelButton),
    estimate,
  );
  if (!trusted) formSection.append(el('p', { className: 'warning', text: 'This workspace is not trusted: the lab runs your code, so it is off here.' }));
  renderModeFields();
  updateEstimate();
  runButton.disabled = !trusted;
}

function renderModeFields(): void {
  rateField.replaceChildren();
  if (form?.mode === 'rate') rateField.append(field('Rate (req/s, all connections)', input('rate', 'number', { min: 1 }), 'A fixed rate at 50–70% of the maximum gives the fairest latency and GC comparison.'));
}

function updateEstimate(): void {
  if (!form) return;
  const sizes = form.sizes.split(/[\s,;]+/).filter(Boolean).length;
  const seconds = sizes * form.rounds * (form.warmupSeconds + form.durationSeconds + 3);
  estimate.textContent = `${sizes * form.rounds} runs, about ${formatDuration(seconds)}.`;
}

function syncButtons(): void {
  runButton.disabled = running;
  cancelButton.disabled = !running;
  document.documentElement.toggleAttribute('data-running', running);
}

// -------------------------------------------------------------------------------------- progress

let current = { run: 0, size: 0, round: 0, phase: '' };

function onProgress(p: SweepProgress): void {
  switch (p.type) {
    case 'run-start':
      current = { run: p.run, size: p.semiSpaceMB, round: p.round, phase: 'starting' };
      setProgress(progressLine());
      break;
    case 'phase':
      current.phase = p.phase;
      setProgress(progressLine());
      break;
    case 'tick':
      setProgress(`${progressLine()} · ${Math.round(p.rps).toLocaleString('en-US')} req/s · ${p.scavenges} scavenges`);
      break;
    case 'run-end':
      if (p.run.status !== 'ok') setProgress(`Run ${p.run.index + 1} (${p.run.semiSpaceMB} MB): ${p.run.reason ?? p.run.status}`, true);
      break;
    case 'output':
      break;
  }
}

function progressLine(): string {
  return `Run ${current.run + 1}/${runCount} · ${current.size} MB · round ${current.round + 1} · ${current.phase}`;
}

function setProgress(text: string, problem = false): void {
  progressSection.replaceChildren(el('p', { className: problem ? 'warning' : 'status', text }));
}

// --------------------------------------------------------------------------------------- results

const fmt = (v: number | null, digits = 1) => (v === null ? '–' : v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }));
const pct = (v: number | null) => (v === null ? '–' : `${(v * 100).toFixed(1)}%`);

function change(s: SweepSettingResult, key: 'rps' | 'gcMsPer1k'): string {
  const c = s.vsBaseline[key];
  if (!c || c.ratio === null) return '';
  const delta = `${c.ratio >= 1 ? '+' : '−'}${Math.abs((c.ratio - 1) * 100).toFixed(0)}%`;
  return c.significant ? `${delta} (p ${c.p === null ? '' : `= ${c.p.toFixed(2)}`})` : `${delta} ~`;
}

function renderResults(result: SweepResult, final: boolean): void {
  lastResult = result;
  for (const c of charts.splice(0)) c.destroy();
  const baseline = result.config.sizesMB[0];
  const table = el('table', { id: 'lab-table' });
  const head = ['MB (effective)', 'valid runs', 'req/s', 'p50 / p99 ms', 'scavenges / 1k req', 'GC ms / 1k req', 'mean / p95 scavenge ms', 'GC % of wall time', 'GC % of process CPU', 'peak RSS MB'];
  table.append(el('thead', {}, el('tr', {}, ...head.map((h) => el('th', { text: h })))));
  const body = el('tbody');
  for (const s of result.results) {
    const m = s.median;
    const eff = s.effectiveSemiSpaceMB === null ? '' : ` (${fmt(s.effectiveSemiSpaceMB, 0)})`;
    const row = el('tr', { attrs: { 'data-size': s.semiSpaceMB } },
      el('td', { text: `${s.semiSpaceMB}${eff}` }),
      el('td', { text: `${s.validRuns}/${s.runs.length}` }),
      el('td', { text: `${fmt(m.rps, 0)} ${s.semiSpaceMB === baseline ? '' : change(s, 'rps')}`.trim() }),
      el('td', { text: `${fmt(m.p50Ms, 0)} / ${fmt(m.p99Ms, 0)}` }),
      el('td', { text: fmt(m.scavengesPer1k, 2) }),
      el('td', { text: `${fmt(m.gcMsPer1k, 1)} ${s.semiSpaceMB === baseline ? '' : change(s, 'gcMsPer1k')}`.trim() }),
      el('td', { text: `${fmt(m.meanScavengeMs, 2)} / ${fmt(m.p95ScavengeMs, 2)}` }),
      el('td', { text: pct(m.gcWallShare) }),
      el('td', { text: pct(m.gcCpuShare) }),
      el('td', { text: fmt(m.peakRssMB, 0) }),
    );
    if (result.recommendation.semiSpaceMB === s.semiSpaceMB) row.classList.add('recommended');
    body.append(row);
  }
  table.append(body);

  const rec = result.recommendation;
  const recBox = el('div', { id: 'lab-recommendation', className: final ? 'recommendation' : 'recommendation partial' },
    el('strong', { text: !final ? 'So far: ' : rec.semiSpaceMB === null ? 'Keep the default. ' : `Recommended: ${rec.semiSpaceMB} MB. ` }),
    // The reason may open with the verdict itself; the heading already says it.
    el('span', { text: final ? rec.reason.replace(/^Keep the default[:.]\s*/, '') : rec.reason }),
  );
  const actions = el('div', { className: 'buttons' });
  if (final && rec.semiSpaceMB !== null && !resultsOnly) {
    const apply = el('button', { id: 'lab-apply', className: 'primary', text: `Apply ${rec.semiSpaceMB} MB…` });
    apply.onclick = () => post({ type: 'apply', semiSpaceMB: rec.semiSpaceMB! });
    actions.append(apply);
  }
  if (!resultsOnly) {
    const open = el('button', { text: 'Open results' });
    open.onclick = () => post({ type: 'openResults' });
    actions.append(open);
  }
  const folder = el('button', { text: 'Reveal sweep.json' });
  folder.onclick = () => post({ type: 'revealFolder' });
  actions.append(folder);

  // Every run that did not count, with its one-line reason (never ready, crashed, lost requests).
  const invalid = result.results.flatMap((r) => r.runs).filter((r) => r.status !== 'ok').sort((a, b) => a.index - b.index);
  const invalidList = invalid.length === 0 ? null : el('div', { id: 'lab-invalid' },
    el('h3', { text: `Runs that did not count (${invalid.length})` }),
    el('ul', {}, ...invalid.map((r) => el('li', { text: `Run ${r.index + 1} · ${r.semiSpaceMB} MB · round ${r.round + 1}: ${r.status === 'cancelled' ? 'cancelled' : r.reason ?? 'invalid'}` }))),
  );
  const chartsBox = el('div', { className: 'charts' });
  resultsSection.replaceChildren(
    el('h2', { text: final ? `Results · ${result.status}` : 'Results so far' }),
    el('p', { className: 'hint', text: `${result.environment.nodeVersion} · ${result.environment.cpus} cores · ${result.config.rounds} rounds · ${result.config.load.rate === null ? 'closed loop' : `${result.config.load.rate} req/s`} · medians; "~" = no detectable difference from ${baseline} MB` }),
    recBox,
    actions,
    applyBox,
    el('div', { className: 'table-wrap' }, table),
    ...(invalidList ? [invalidList] : []),
    chartsBox,
    ...result.warnings.map((w) => el('p', { className: 'warning', text: w })),
  );
  const labels = result.results.map((s) => `${s.semiSpaceMB} MB`);
  chartsBox.append(
    chart('req/s (median)', labels, result.results.map((s) => s.median.rps), '--vscode-charts-blue'),
    chart('GC ms per 1k requests', labels, result.results.map((s) => s.median.gcMsPer1k), '--vscode-charts-orange'),
    chart('peak RSS (MB)', labels, result.results.map((s) => s.median.peakRssMB), '--vscode-charts-purple'),
  );
}

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

function formatDuration(seconds: number): string {
  return seconds < 90 ? `${Math.round(seconds)} s` : `${Math.round(seconds / 60)} min`;
}

post({ type: 'ready' });
