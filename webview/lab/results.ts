/**
 * The lab's results: the recommendation and its buttons (Apply, Open results, Reveal sweep.json),
 * the table, the runs that did not count, the charts and the sweep's warnings; and the Apply
 * dialogue's box (the diff is in the editor, the page asks before anything is written).
 */
import { formatSetting } from '../../src/shared/sweepFlags';
import { SEMI_SPACE_FLAG, recommendedValue, settingValue, sweepFlag, sweepValues } from '../../src/shared/model/sweep';
import type { SweepResult } from '../../src/shared/labProtocol';
import { el } from '../common/dom';
import { labCharts } from './charts';
import { predictionView } from './predictionView';
import { failedOf, labColumns } from './columns';
import { runSetting } from './labFormat';
import type { LabPage } from './page';

export interface ResultsView {
  /** Draws a result: the figures so far, or the sweep's last (`final`: with its recommendation and Apply). */
  render(result: SweepResult, final: boolean): void;
  /** Apply: the change is open in the editor; asks whether to write it. */
  proposeApply(flag: string, value: number, where: string): void;
  /** What Apply did (or that nothing was written). */
  applied(message: string): void;
}

export function resultsView(section: HTMLElement, page: LabPage): ResultsView {
  const charts = labCharts();
  const applyBox = el('div', { id: 'lab-apply-box', attrs: { 'aria-live': 'polite' } });

  function render(result: SweepResult, final: boolean): void {
    charts.clear();
    const flag = sweepFlag(result.config);
    const marked = result.results.find((s) => s.baseline === true);
    const baseline = marked ? settingValue(marked) : (sweepValues(result.config)[0] ?? (result.results[0] ? settingValue(result.results[0]) : undefined));
    const columns = labColumns(result, !page.resultsOnly);
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
      // "Keep the baseline, 16 MB": the first value swept, which need not be Node's default.
      el('strong', { text: !final ? 'So far: ' : recommended === null ? `${/^(Keep the baseline, [^:]+|No recommendation)/.exec(rec.reason)?.[1] ?? (baseline === undefined ? 'No recommendation' : `Keep ${formatSetting(flag, baseline)}`)}. ` : `Recommended: ${formatSetting(flag, recommended)}. ` }),
      // The reason opens with the verdict itself; the heading already says it.
      el('span', { text: final ? rec.reason.replace(/^(Keep the baseline, [^:]+|No recommendation|Keep the default)[:.]\s*/, '') : rec.reason }),
    );
    const actions = el('div', { className: 'buttons' });
    if (final && recommended !== null && !page.resultsOnly) {
      const apply = el('button', { id: 'lab-apply', className: 'primary', text: `Apply ${formatSetting(flag, recommended)}…` });
      apply.onclick = () => page.post({ type: 'apply', value: recommended });
      actions.append(apply);
    }
    if (!page.resultsOnly) {
      const open = el('button', { text: 'Open results' });
      open.onclick = () => page.post({ type: 'openResults' });
      actions.append(open);
    }
    const folder = el('button', { text: 'Reveal sweep.json' });
    folder.onclick = () => page.post({ type: 'revealFolder' });
    actions.append(folder);

    // Every run that did not count, with its one-line reason (never ready, crashed, lost requests).
    const invalid = result.results.flatMap((r) => r.runs).filter((r) => r.status !== 'ok').sort((a, b) => a.index - b.index);
    const invalidList = invalid.length === 0 ? null : el('div', { id: 'lab-invalid' },
      el('h3', { text: `Runs that did not count (${invalid.length})` }),
      el('ul', {}, ...invalid.map((r) => el('li', { text: `Run ${r.index + 1} · ${runSetting(r.flag ?? flag, r.value, r.semiSpaceMB)} · ${r.purpose === 'profile' ? 'profiling run' : r.purpose === 'survivors' ? 'survivors run' : `round ${r.round + 1}`}: ${r.status === 'cancelled' ? 'cancelled' : r.reason ?? 'invalid'}` }))),
    );
    const chartsBox = el('div', { className: 'charts' });
    const baseText = baseline === undefined ? 'the baseline' : formatSetting(flag, baseline);
    section.replaceChildren(
      el('h2', { text: final ? `Results · ${result.status}` : 'Results so far' }),
      el('p', { className: 'hint', text: `--${flag} · ${result.environment.nodeVersion} · ${result.environment.cpus} cores · ${result.config.rounds} rounds · ${result.config.load.rate === null ? 'closed loop' : `${result.config.load.rate} req/s`} · medians; "~" = no detectable difference from ${baseText}` }),
      recBox,
      actions,
      applyBox,
      el('div', { className: 'table-wrap' }, table),
      ...[predictionView(result)].filter((v): v is HTMLElement => v !== null),
      ...(page.resultsOnly ? [] : [el('p', { className: 'hint', text: 'Latency, scavenge pauses, GC shares, memory and allocations: Open results.' })]),
      ...(invalidList ? [invalidList] : []),
      chartsBox,
      ...result.warnings.map((w) => el('p', { className: 'warning', text: w })),
    );
    charts.draw(chartsBox, result);
  }

  return {
    render,
    proposeApply(flag, value, where) {
      const write = el('button', { id: 'lab-apply-write', className: 'primary', text: 'Write it' });
      const discard = el('button', { id: 'lab-apply-discard', text: 'Discard' });
      write.onclick = () => page.post({ type: 'applyConfirm', write: true });
      discard.onclick = () => page.post({ type: 'applyConfirm', write: false });
      applyBox.replaceChildren(
        el('p', { text: `The editor shows the change: --${flag}=${value} in the ${where}. Write it? (Undo in the editor takes it back.)` }),
        el('div', { className: 'buttons' }, write, discard),
      );
    },
    applied(message) {
      applyBox.replaceChildren(el('p', { className: 'status', id: 'lab-applied', text: message }));
    },
  };
}
