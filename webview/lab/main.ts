/**
 * The Semi-space Lab webview: in the sidebar, the sweep's form, live progress and the results; in
 * an editor panel (<html data-mode="results">), the results alone, wider. Everything from the
 * host reaches the page as text (src/shared/labProtocol.ts). The lab sweeps any numeric V8 or
 * Node flag (the semi-space by default): the columns and the GC-cost chart follow the flag
 * (Mark-Compact figures and peak RSS for the old space; failed requests whenever there are any).
 */
import { BarController, BarElement, CategoryScale, Chart, LinearScale, Tooltip } from 'chart.js';
import { SWEEP_FLAGS, formatSetting, formatValueWithUnit, isOldSpaceFlag, metricLabel, primaryMetricOf, sweepFlagInfo } from '../../src/shared/sweepFlags';
import { SEMI_SPACE_FLAG, recommendedValue, settingValue, sweepFlag, sweepValues } from '../../src/shared/model/sweep';
import { parseToLab, type FromLab, type LabForm, type LabTarget, type SweepProgress, type SweepResult, type SweepSettingResult, type ToLab } from '../../src/shared/labProtocol';
import { el } from '../common/dom';
import { connectHost } from '../common/host';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip);

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

const host = connectHost<ToLab, FromLab>(parseToLab, (m) => {
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
        el('p', { text: `The editor shows the change: --${m.flag}=${m.value} in the ${m.where}. Write it? (Undo in the editor takes it back.)` }),
        el('div', { className: 'buttons' }, write, discard),
      );
      break;
    }
    case 'applied':
      applyBox.replaceChildren(el('p', { className: 'status', id: 'lab-applied', text: m.message }));
      break;
  }
});
const post = (m: FromLab) => host.post(m);

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

const OTHER_FLAG = '__other__';
const flagField = el('div', { id: 'lab-flag-fields' });

/**
 * The flag: a select of the common ones and "other…" with a text box (checked against the
 * target's Node when the sweep starts), then its values with the flag's unit, and the pin of the
 * minimum semi-space for the semi-space alone. Picking another flag swaps in its suggested values
 * unless the user had typed their own.
 */
function renderFlagFields(): void {
  if (!form) return;
  const current = form.flag;
  const known = SWEEP_FLAGS.some((f) => f.name === current);
  const pick = el('select', { attrs: { id: 'lab-flag' } });
  for (const f of SWEEP_FLAGS) pick.append(el('option', { text: `--${f.name}`, attrs: { value: f.name } }));
  pick.append(el('option', { text: 'other…', attrs: { value: OTHER_FLAG } }));
  pick.value = known ? current : OTHER_FLAG;
  pick.addEventListener('change', () => {
    const before = form!.flag;
    const next = pick.value === OTHER_FLAG ? '' : pick.value;
    const suggestedBefore = sweepFlagInfo(before).suggested;
    if (form!.values.trim() === '' || form!.values === suggestedBefore) form!.values = sweepFlagInfo(next).suggested;
    form!.flag = next;
    post({ type: 'formChanged', form: form! });
    renderFlagFields();
    updateEstimate();
    if (next === '') document.getElementById('lab-flag-other')?.focus();
  });
  const info = sweepFlagInfo(current || 'x');
  const parts: HTMLElement[] = [field('Flag', pick, known ? info.hint : 'Any V8 or Node flag that takes a number; checked against the target’s Node before the sweep starts.')];
  if (!known) {
    const other = el('input', { attrs: { type: 'text', id: 'lab-flag-other', placeholder: 'e.g. max-heap-size', spellcheck: 'false' } });
    other.value = current;
    other.addEventListener('change', () => {
      form!.flag = other.value.trim().replace(/^-+/, '');
      post({ type: 'formChanged', form: form! });
      renderFlagFields();
    });
    parts.push(field('Other flag (without --)', other));
  }
  const unit = current ? sweepFlagInfo(current).unit : '';
  parts.push(field(`Values${unit ? ` (${unit})` : ''}`, input('values', 'text', { placeholder: info.suggested || 'e.g. 1, 2, 4' }), 'The first value is the baseline the others are compared with.'));
  if (current === SEMI_SPACE_FLAG) {
    parts.push(field('New space', select('pinMin', [['false', 'starts small and grows (V8 default)'], ['true', 'pinned: --min-semi-space-size = max']])));
  }
  flagField.replaceChildren(...parts);
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
    el('p', { className: 'hint', text: 'Runs your service under the same load at each value of a V8 flag (--max-semi-space-size unless you pick another), a fresh process per run, and compares throughput, latency, failed requests, GC and memory.' }),
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
    el('h3', { text: 'Flag and values' }),
    flagField,
    field('Rounds', input('rounds', 'number', { min: 1 }), '3 rounds show big differences; 4+ are needed to call one significant, 6 for a confidence interval.'),
    field('If a run fails', select('onFailure', [['continue', 'go on with the next run'], ['stop', 'stop the sweep']])),
    el('div', { className: 'buttons' }, runButton, cancelButton),
    estimate,
  );
  if (!trusted) formSection.append(el('p', { className: 'warning', text: 'This workspace is not trusted: the lab runs your code, so it is off here.' }));
  renderModeFields();
  renderFlagFields();
  updateEstimate();
  runButton.disabled = !trusted;
}

function renderModeFields(): void {
  rateField.replaceChildren();
  if (form?.mode === 'rate') rateField.append(field('Rate (req/s, all connections)', input('rate', 'number', { min: 1 }), 'A fixed rate at 50–70% of the maximum gives the fairest latency and GC comparison.'));
}

function updateEstimate(): void {
  if (!form) return;
  const values = form.values.split(/[\s,;]+/).filter(Boolean).length;
  const seconds = values * form.rounds * (form.warmupSeconds + form.durationSeconds + 3);
  estimate.textContent = `${values * form.rounds} runs, about ${formatDuration(seconds)}.`;
}

function syncButtons(): void {
  runButton.disabled = running;
  cancelButton.disabled = !running;
  document.documentElement.toggleAttribute('data-running', running);
}

// -------------------------------------------------------------------------------------- progress

let current = { run: 0, setting: '', round: 0, phase: '' };

/** "64 MB", "4": a run's value with the flag's unit (an older host sent only semiSpaceMB). */
function runSetting(flag: string | undefined, value: number | undefined, semiSpaceMB: number | null | undefined): string {
  return formatValueWithUnit(flag ?? SEMI_SPACE_FLAG, value ?? semiSpaceMB ?? NaN);
}

function onProgress(p: SweepProgress): void {
  switch (p.type) {
    case 'run-start':
      current = { run: p.run, setting: runSetting(p.flag, p.value, p.semiSpaceMB), round: p.round, phase: 'starting' };
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
      if (p.run.status !== 'ok') setProgress(`Run ${p.run.index + 1} (${runSetting(p.run.flag, p.run.value, p.run.semiSpaceMB)}): ${p.run.reason ?? p.run.status}`, true);
      break;
    case 'output':
      break;
  }
}

function progressLine(): string {
  return `Run ${current.run + 1}/${runCount} · ${current.setting} · round ${current.round + 1} · ${current.phase}`;
}

function setProgress(text: string, problem = false): void {
  progressSection.replaceChildren(el('p', { className: problem ? 'warning' : 'status', text }));
}

// --------------------------------------------------------------------------------------- results

const fmt = (v: number | null, digits = 1) => (v === null ? '–' : v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }));
const pct = (v: number | null) => (v === null ? '–' : `${(v * 100).toFixed(1)}%`);

type ChangeKey = 'rps' | 'gcMsPer1k' | 'markCompactMsPer1k';

function change(s: SweepSettingResult, key: ChangeKey): string {
  const c = s.vsBaseline[key];
  if (!c || c.ratio === null) return '';
  const delta = `${c.ratio >= 1 ? '+' : '−'}${Math.abs((c.ratio - 1) * 100).toFixed(0)}%`;
  return c.significant ? `${delta} (p ${c.p === null ? '' : `= ${c.p.toFixed(2)}`})` : `${delta} ~`;
}

interface LabColumn {
  head: string;
  cell(s: SweepSettingResult, isBaseline: boolean): string;
}

/** Failed requests of a setting (summed from its runs for a result without the total). */
function failedOf(s: SweepSettingResult): number {
  if (typeof s.failedRequests === 'number') return s.failedRequests;
  return s.runs.filter((r) => r.status !== 'cancelled').reduce((n, r) => n + (r.load ? r.load.errors + r.load.timeouts + r.load.non2xx : 0), 0);
}

/**
 * The table's columns for this sweep. The semi-space (and other young-generation flags): the
 * columns the lab always had, with "failed requests" after the valid runs as soon as any run lost
 * one. An old-space flag: failed requests always, Mark-Compacts and their pause per 1k requests
 * (the primary metric) and peak RSS before the scavenge figures.
 */
function labColumns(result: SweepResult): LabColumn[] {
  const flag = sweepFlag(result.config);
  const old = isOldSpaceFlag(flag);
  const unit = sweepFlagInfo(flag).unit;
  const anyFailed = result.results.some((s) => failedOf(s) > 0);
  const withChange = (text: string, s: SweepSettingResult, isBaseline: boolean, key: ChangeKey) => `${text} ${isBaseline ? '' : change(s, key)}`.trim();
  const setting: LabColumn =
    flag === SEMI_SPACE_FLAG
      ? { head: 'MB (effective)', cell: (s) => `${settingValue(s)}${s.effectiveSemiSpaceMB === null ? '' : ` (${fmt(s.effectiveSemiSpaceMB, 0)})`}` }
      : { head: `--${flag}${unit ? ` (${unit})` : ''}`, cell: (s) => String(settingValue(s)) };
  const valid: LabColumn = { head: 'valid runs', cell: (s) => `${s.validRuns}/${s.runs.length}` };
  const failed: LabColumn = { head: 'failed requests', cell: (s) => failedOf(s).toLocaleString('en-US') };
  const rps: LabColumn = { head: 'req/s', cell: (s, b) => withChange(fmt(s.median.rps, 0), s, b, 'rps') };
  const latency: LabColumn = { head: 'p50 / p99 ms', cell: (s) => `${fmt(s.median.p50Ms, 0)} / ${fmt(s.median.p99Ms, 0)}` };
  const scavenges: LabColumn = { head: 'scavenges / 1k req', cell: (s) => fmt(s.median.scavengesPer1k, 2) };
  const gcMs: LabColumn = { head: 'GC ms / 1k req', cell: (s, b) => (old ? fmt(s.median.gcMsPer1k, 1) : withChange(fmt(s.median.gcMsPer1k, 1), s, b, 'gcMsPer1k')) };
  const scavengeMs: LabColumn = { head: 'mean / p95 scavenge ms', cell: (s) => `${fmt(s.median.meanScavengeMs, 2)} / ${fmt(s.median.p95ScavengeMs, 2)}` };
  const wall: LabColumn = { head: 'GC % of wall time', cell: (s) => pct(s.median.gcWallShare) };
  const cpu: LabColumn = { head: 'GC % of process CPU', cell: (s) => pct(s.median.gcCpuShare) };
  const rss: LabColumn = { head: 'peak RSS MB', cell: (s) => fmt(s.median.peakRssMB, 0) };
  const markCompacts: LabColumn = { head: 'Mark-Compacts / 1k req', cell: (s) => fmt(s.median.markCompactsPer1k ?? null, 3) };
  const markCompactMs: LabColumn = { head: 'Mark-Compact ms / 1k req', cell: (s, b) => withChange(fmt(s.median.markCompactMsPer1k ?? null, 2), s, b, 'markCompactMsPer1k') };
  const effective: LabColumn = { head: 'semi-space MB reached', cell: (s) => fmt(s.effectiveSemiSpaceMB, 1) };
  if (old) return [setting, valid, failed, rps, latency, markCompacts, markCompactMs, rss, gcMs, scavenges, wall, cpu];
  return [
    setting,
    valid,
    ...(anyFailed ? [failed] : []),
    rps,
    latency,
    scavenges,
    gcMs,
    scavengeMs,
    wall,
    cpu,
    rss,
    ...(flag !== SEMI_SPACE_FLAG && sweepFlagInfo(flag).kind === 'young' ? [effective] : []),
  ];
}

function renderResults(result: SweepResult, final: boolean): void {
  lastResult = result;
  for (const c of charts.splice(0)) c.destroy();
  const flag = sweepFlag(result.config);
  const marked = result.results.find((s) => s.baseline === true);
  const baseline = marked ? settingValue(marked) : (sweepValues(result.config)[0] ?? (result.results[0] ? settingValue(result.results[0]) : undefined));
  const columns = labColumns(result);
  const table = el('table', { id: 'lab-table', attrs: { 'data-flag': flag } });
  table.append(el('thead', {}, el('tr', {}, ...columns.map((c) => el('th', { text: c.head })))));
  const body = el('tbody');
  const recommended = recommendedValue(result.recommendation);
  for (const s of result.results) {
    const value = settingValue(s);
    const isBaseline = value === baseline;
    const row = el('tr', { attrs: { 'data-value': value, ...(flag === SEMI_SPACE_FLAG ? { 'data-size': value } : {}) } }, ...columns.map((c) => el('td', { text: c.cell(s, isBaseline) })));
    if (failedOf(s) > 0) row.classList.add('lost-requests');
    if (recommended === value) row.classList.add('recommended');
    body.append(row);
  }
  table.append(body);

  const rec = result.recommendation;
  const recBox = el('div', { id: 'lab-recommendation', className: final ? 'recommendation' : 'recommendation partial' },
    el('strong', { text: !final ? 'So far: ' : recommended === null ? 'Keep the default. ' : `Recommended: ${formatSetting(flag, recommended)}. ` }),
    // The reason may open with the verdict itself; the heading already says it.
    el('span', { text: final ? rec.reason.replace(/^Keep the default[:.]\s*/, '') : rec.reason }),
  );
  const actions = el('div', { className: 'buttons' });
  if (final && recommended !== null && !resultsOnly) {
    const apply = el('button', { id: 'lab-apply', className: 'primary', text: `Apply ${formatSetting(flag, recommended)}…` });
    apply.onclick = () => post({ type: 'apply', value: recommended });
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
    el('ul', {}, ...invalid.map((r) => el('li', { text: `Run ${r.index + 1} · ${runSetting(r.flag ?? flag, r.value, r.semiSpaceMB)} · round ${r.round + 1}: ${r.status === 'cancelled' ? 'cancelled' : r.reason ?? 'invalid'}` }))),
  );
  const chartsBox = el('div', { className: 'charts' });
  const baseText = baseline === undefined ? 'the baseline' : formatSetting(flag, baseline);
  resultsSection.replaceChildren(
    el('h2', { text: final ? `Results · ${result.status}` : 'Results so far' }),
    el('p', { className: 'hint', text: `--${flag} · ${result.environment.nodeVersion} · ${result.environment.cpus} cores · ${result.config.rounds} rounds · ${result.config.load.rate === null ? 'closed loop' : `${result.config.load.rate} req/s`} · medians; "~" = no detectable difference from ${baseText}` }),
    recBox,
    actions,
    applyBox,
    el('div', { className: 'table-wrap' }, table),
    ...(invalidList ? [invalidList] : []),
    chartsBox,
    ...result.warnings.map((w) => el('p', { className: 'warning', text: w })),
  );
  const labels = result.results.map((s) => formatValueWithUnit(flag, settingValue(s)));
  // The GC-cost chart shows what the recommendation compares: GC ms or Mark-Compact ms per 1k requests.
  const primary = result.recommendation.metric ?? primaryMetricOf(flag);
  chartsBox.append(
    chart('req/s (median)', labels, result.results.map((s) => s.median.rps), '--vscode-charts-blue'),
    chart(metricLabel(primary), labels, result.results.map((s) => s.median[primary] ?? null), '--vscode-charts-orange'),
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
