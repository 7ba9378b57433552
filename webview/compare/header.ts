/** The compare header: both runs, A (the base) and B, with their metadata and the host actions. */
import type { CompareModel, CompareRunInfo, FromCompareWebview } from '../../src/shared/compareProtocol';
import { el } from '../common/dom';
import { fmtDuration, fmtMB } from '../common/format';
import type { Host } from '../common/host';

const KIND_LABELS: Record<CompareRunInfo['kind'], string> = {
  run: 'run folder',
  cpuprofile: 'CPU profile (.cpuprofile)',
  'gc-trace': 'GC trace (--trace-gc output)',
  'v8-log': 'V8 log',
  heapprofile: 'heap profile (.heapprofile)',
  pprof: 'pprof profile',
};

export function renderHeader(root: HTMLElement, model: CompareModel, host: Host<FromCompareWebview>): void {
  const actions = el('div', { className: 'actions' });
  if (host.connected) {
    const swap = el('vscode-button', { id: 'compare-swap', attrs: { secondary: true, title: 'Compare the other way round: B becomes the base' }, text: 'Swap A ⇄ B' });
    swap.addEventListener('click', () => host.post({ type: 'swap' }));
    actions.append(swap);
  }
  root.append(
    el(
      'div',
      { className: 'title-row' },
      el('div', { className: 'title-block' }, el('span', { className: 'eyebrow', text: 'V8 Lens comparison' }), el('h1', { id: 'compare-title', text: `${model.base.program} ⇄ ${model.other.program}` })),
      actions,
    ),
  );
  root.append(el('div', { id: 'compare-runs' }, runCard(model.base, host), el('span', { className: 'versus', attrs: { 'aria-hidden': 'true' }, text: 'vs' }), runCard(model.other, host)));
}

function runCard(run: CompareRunInfo, host: Host<FromCompareWebview>): HTMLElement {
  const letter = run.side === 'base' ? 'A' : 'B';
  const card = el('section', { className: 'run-card', attrs: { 'data-side': run.side, 'aria-label': `Run ${letter}` } });
  const heading = el(
    'div',
    { className: 'run-heading' },
    el('span', { className: 'run-badge', text: letter, title: run.side === 'base' ? 'A: the base' : 'B: compared with A' }),
    el('span', { className: 'run-label', attrs: { 'data-run-label': run.side }, text: `${letter}: ${run.label}`, title: run.title }),
  );
  card.append(heading);
  const meta = el('dl', { className: 'run-meta' });
  const add = (label: string, value: string | null, key: string, mono = false) => {
    if (!value) return;
    meta.append(el('div', { className: 'meta-item', attrs: { 'data-meta': key } }, el('dt', { text: label }), el('dd', { className: mono ? 'mono' : '', text: value, title: value })));
  };
  if (run.nodeVersion) add('Node', `${run.nodeVersion}${run.v8Version ? ` (V8 ${run.v8Version})` : ''}`, 'node');
  add('Flags', run.flags, 'flags', true);
  if (!run.flags) {
    const semi = run.semiSpaceRequestedMB !== null ? `--max-semi-space-size=${run.semiSpaceRequestedMB}` : run.semiSpaceMB !== null ? `${fmtMB(run.semiSpaceMB)} reached` : null;
    add('Semi-space', semi, 'semi-space');
  }
  add(run.kind === 'run' ? 'Started' : 'Modified', run.startedAt ? new Date(run.startedAt).toLocaleString('en-GB') : null, 'started');
  add('Duration', run.durationMs !== null ? fmtDuration(run.durationMs) : null, 'duration');
  add('Source', KIND_LABELS[run.kind] ?? run.kind, 'kind');
  add('From', run.source, 'source', true);
  card.append(meta);
  if (run.warnings.length > 0) {
    const list = el('ul', { className: 'run-warnings', attrs: { 'aria-label': `Warnings of run ${letter}` } });
    for (const w of run.warnings) list.append(el('li', { text: w }));
    card.append(list);
  }
  if (host.connected) {
    const open = el('vscode-button', { className: 'open-report', attrs: { secondary: true, 'data-side': run.side, title: `Open run ${letter}'s own report` }, text: `Open ${letter}'s report` });
    open.addEventListener('click', () => host.post({ type: 'openReport', side: run.side }));
    card.append(el('div', { className: 'run-actions' }, open));
  }
  return card;
}
