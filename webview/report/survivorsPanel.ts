/**
 * "Survivors: who the young GC copies", under the allocations panel when the run has a survivors
 * pass: what outlived a young GC, each function's survival rate (its survivors over what it
 * allocated), and its estimated part of the copying, with the mode's meaning and its limit.
 */
import { fmtBytes } from '../../src/shared/formatBytes';
import type { FromReportWebview } from '../../src/shared/reportProtocol';
import type { SurvivorsSummary } from '../../src/shared/model/summary';
import { COPY_ESTIMATE_NOTE, survivalRateBasisText, survivalRateText, survivorsTotalText, survivorsYoungGcText } from '../../src/shared/survivorsText';
import { el, openOnActivate } from '../common/dom';
import { fmtMs, formatLocation, plural, type LocationContext } from '../common/format';
import { canOpen, type Host } from '../common/host';

/** How many functions the panel lists. */
export const TOP_SURVIVORS = 8;

export function renderSurvivorsPanel(section: HTMLElement, s: SurvivorsSummary, host: Host<FromReportWebview>, loc: LocationContext, processPicked: boolean): void {
  section.append(el('h2', { id: 'survivors-heading', text: `Survivors: who the young GC copies${processPicked ? ' · the whole run' : ''}` }));
  const panel = el('div', { id: 'survivors-panel' });
  section.append(panel);
  panel.append(el('p', { className: 'section-note', attrs: { 'data-note': 'survivors-meaning' }, text: s.meaning }));
  panel.append(el('p', { className: 'section-note', attrs: { 'data-note': 'survivors-total' }, text: `${survivorsTotalText(s)}. V8's young GCs in that run: ${survivorsYoungGcText(s)}.` }));
  panel.append(el('p', { className: s.comparedBy === null ? 'section-note note-warn' : 'section-note', attrs: { 'data-note': 'survival-rate' }, text: survivalRateBasisText(s) }));
  const rows = s.functions.slice(0, TOP_SURVIVORS);
  if (rows.length === 0) return;
  const body = el('tbody');
  for (const f of rows) {
    const where = f.url ? formatLocation(f.url, f.line, f.column, loc) : null;
    const copy = f.copiedBytesEstimate !== null ? `≈ ${fmtBytes(f.copiedBytesEstimate)}${f.copyMsEstimate !== null ? ` · ${fmtMs(f.copyMsEstimate)}` : ''}` : f.copyMsEstimate !== null ? `≈ ${fmtMs(f.copyMsEstimate)}` : '–';
    const tr = el(
      'tr',
      { attrs: { 'data-function': f.name } },
      el('td', { className: 'num', text: `${(f.share * 100).toFixed(1)}%` }),
      el('td', { className: 'num', text: fmtBytes(f.bytes) }),
      el('td', { className: 'num', attrs: { 'data-survival': f.survivalRate === null ? '' : String(f.survivalRate) }, text: survivalRateText(f.survivalRate) }),
      el('td', { className: 'num', text: copy, title: COPY_ESTIMATE_NOTE }),
      el('td', {}, el('span', { className: 'fn-name', text: f.name })),
      el('td', {}, where ? el('span', { className: 'location', text: where.text, title: where.full }) : el('span', { className: 'muted', text: 'native / VM' })),
    );
    if (host.connected && f.url && canOpen(f.url, f.line)) {
      openOnActivate(tr, 'Open in the editor', () => host.openSource({ type: 'openSource', url: f.url, line: f.line, column: f.column }));
    }
    body.append(tr);
  }
  const columns: [string, string?][] = [['Share'], ['Survived'], ['Survival rate', survivalRateBasisText(s)], ['Est. copying', COPY_ESTIMATE_NOTE], ['Function'], ['Location']];
  const head = el('tr', {}, ...columns.map(([h, title]) => el('th', { attrs: { scope: 'col' }, text: h, ...(title ? { title } : {}) })));
  panel.append(el('table', { id: 'survivor-functions', className: 'data-table' }, el('caption', { text: `Top ${plural(rows.length, 'function')} by bytes that no young GC freed` }), el('thead', {}, head), body));
}
