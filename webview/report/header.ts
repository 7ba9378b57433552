/** The report header: title, the run's metadata, the summary's warnings, and the host actions. */
import { fmtBytes } from '../../src/shared/formatBytes';
import { runDateTime } from '../../src/shared/runTime';
import { selfCheckGaps } from '../../src/shared/selfCheckText';
import { semiSpaceFlagText } from '../../src/shared/youngGenerationText';
import type { FromReportWebview, ReportModel } from '../../src/shared/reportProtocol';
import type { SessionRecord } from '../../src/shared/model/session';
import { el } from '../common/dom';
import { fmtDuration, fmtNum } from '../common/format';
import type { Host } from '../common/host';

const SOURCE_KIND_LABELS: Record<string, string> = {
  run: 'run folder',
  cpuprofile: 'CPU profile (.cpuprofile)',
  'gc-trace': 'GC trace (--trace-gc output)',
  'v8-log': 'V8 log',
};

export function renderHeader(root: HTMLElement, model: ReportModel, host: Host<FromReportWebview>): void {
  const title = el('h1', { id: 'report-title', text: model.title });
  const actions = el('div', { className: 'actions' });
  if (host.connected) {
    const exportButton = el('vscode-button', { id: 'export-html', attrs: { title: 'Save this report as one self-contained HTML file' }, text: 'Export report' });
    const revealButton = el('vscode-button', { id: 'reveal-folder', attrs: { secondary: true, title: 'Show the run folder' }, text: 'Reveal folder' });
    exportButton.addEventListener('click', () => host.post({ type: 'exportHtml' }));
    revealButton.addEventListener('click', () => host.post({ type: 'revealRunFolder' }));
    actions.append(exportButton);
    if (model.summary.source.kind === 'run') actions.append(revealButton);
  }
  root.append(el('div', { className: 'title-row' }, el('div', { className: 'title-block' }, el('span', { className: 'eyebrow', text: 'V8 Lens report' }), title), actions));
  renderSelfCheck(root, model);

  const meta = el('dl', { id: 'run-meta' });
  const add = (label: string, value: string, key: string, mono = false, title = value) => {
    if (!value) return;
    meta.append(el('div', { className: 'meta-item', attrs: { 'data-meta': key } }, el('dt', { text: label }), el('dd', { className: mono ? 'mono' : '', text: value, title })));
  };
  const s = model.session;
  const cpu = model.summary.cpu;
  if (s) {
    add('Node', `${s.node.version}${s.node.v8Version ? ` (V8 ${s.node.v8Version})` : ''}`, 'node');
    add('Command', describeCommand(s), 'command', true, [s.launch.command, ...s.launch.argv].join(' '));
    add('Flags', describeFlags(s, model.summary.gc?.semiSpaceRequestedMB ?? s.flags.semiSpaceMB), 'flags', true);
    const load = model.summary.load;
    // Which URL was loaded: runs of one service under two routes differ only there.
    const secs = (v: number) => (Number.isInteger(v) ? String(v) : fmtNum(v, 1));
    if (load) add('Loaded', `${load.url} · ${load.connections} connections · ${load.rate === null ? 'as fast as it answers' : `${load.rate.toLocaleString('en-US')} req/s`} · ${secs(load.warmupSeconds)} s warm-up + ${secs(load.durationSeconds)} s measured`, 'load', true);
    add('Duration', s.durationMs !== null ? fmtDuration(s.durationMs) : s.status === 'running' ? 'still running' : '–', 'duration');
    add('Exit', describeExit(s), 'exit');
    add('Started', runDateTime(s.startedAt), 'started');
  } else {
    add('Source', SOURCE_KIND_LABELS[model.summary.source.kind] ?? model.summary.source.kind, 'kind');
    if (cpu) add('Profiled', `${fmtDuration(cpu.durationMs)}, ${cpu.sampleCount.toLocaleString('en-US')} samples every ~${fmtNum(cpu.sampleIntervalMs, 2)} ms`, 'duration');
  }
  add('From', model.source, 'source', true);
  root.append(meta);

  // The summary's warnings already hold the launch's limitations (analyzeRun copies them): show one list.
  const notes = model.summary.warnings;
  if (notes.length > 0) {
    const list = el('ul', { id: 'run-warnings', attrs: { 'aria-label': 'Warnings' } });
    for (const w of notes) list.append(el('li', { text: w }));
    root.append(list);
  }
}

/**
 * What V8 wrote that V8 Lens could not read (the run's self-check), first and apart from the other
 * warnings: the figures below it are short, and this says by how much.
 */
function renderSelfCheck(root: HTMLElement, model: ReportModel): void {
  const gaps = selfCheckGaps(model.summary.selfCheck);
  if (gaps.length === 0) return;
  const box = el('div', { id: 'self-check', attrs: { role: 'alert' } }, el('strong', { text: 'Not everything V8 wrote was read. ' }));
  const list = el('ul', {});
  for (const gap of gaps) list.append(el('li', { text: gap.text, attrs: { 'data-kind': gap.kind } }));
  box.append(list);
  root.append(box);
}

/** What the user ran (node app.js args, or npm run start), without the flags V8 Lens added. */
function describeCommand(s: SessionRecord): string {
  const t = s.target;
  const cwd = t.cwd.replace(/[\\/]+$/, '');
  const program = t.program.startsWith(`${cwd}/`) || t.program.startsWith(`${cwd}\\`) ? t.program.slice(cwd.length + 1) : t.program;
  const words = t.kind === 'script' ? ['node', program, ...t.args] : [program, ...t.args];
  return words.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : JSON.stringify(w))).join(' ');
}

/** `askedMB`: the semi-space the run was given wherever it was (the summary's), else V8 Lens's option. */
function describeFlags(s: SessionRecord, askedMB: number | null): string {
  const f = s.flags;
  const parts: string[] = [];
  if (f.preset) parts.push(`preset ${f.preset}`);
  const collected = (['cpu', 'gc', 'deopts', 'alloc'] as const).filter((k) => f.capture[k]).map((k) => (k === 'alloc' ? 'allocations' : k));
  parts.push(collected.length > 0 ? `collects ${collected.join(' + ')}` : 'collects nothing');
  if (f.capture.cpu) parts.push(`sampling ${f.samplingIntervalUs} µs`);
  if (f.capture.alloc && f.allocSamplingBytes !== undefined) parts.push(`an allocation sample every ${fmtBytes(f.allocSamplingBytes)}`);
  if (f.exactAllocSites) parts.push('exact allocation sites (inlining off)');
  // Said once: by the flags or NODE_OPTIONS below when the size was given there.
  const semi = semiSpaceFlagText(askedMB, [...f.extra, ...(f.inheritedNodeOptions ?? '').split(/\s+/)]);
  if (semi !== null) parts.push(semi);
  if (f.stableDeopts && !f.extra.includes('--no-concurrent-recompilation')) parts.push('--no-concurrent-recompilation');
  parts.push(...f.extra);
  if (f.inheritedNodeOptions) parts.push(`NODE_OPTIONS=${f.inheritedNodeOptions}`);
  if (f.timeoutS !== null) parts.push(`timeout ${f.timeoutS} s`);
  return parts.join(' · ');
}

function describeExit(s: SessionRecord): string {
  const e = s.exit;
  if (!e) return s.status;
  const how = e.signal ? `signal ${e.signal}` : `code ${e.code ?? '?'}`;
  const why = e.requested === 'stop' ? (e.hardKilled ? 'stopped, then killed after the grace period' : 'stopped by V8 Lens') : e.requested === 'kill' ? 'killed by V8 Lens' : '';
  return `${s.status}, ${how}${why ? ` (${why})` : ''}`;
}
