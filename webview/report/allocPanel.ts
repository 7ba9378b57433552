/**
 * The "GC ← allocations" panel beside the GC cards: how fast the program allocates (what the GC
 * has to collect) and the functions that allocate most, each a link to its source. A run without
 * sampled allocations says "not collected", never 0.
 */
import { PAUSE_ESTIMATE_NOTE, pauseEstimateText, traceAgreementText, youngGcCadenceDetail } from '../../src/shared/allocText';
import { fmtBytes } from '../../src/shared/formatBytes';
import type { FromReportWebview } from '../../src/shared/reportProtocol';
import type { AllocSummary } from '../../src/shared/model/summary';
import { el, emptyNote, openOnActivate } from '../common/dom';
import { formatLocation, plural, type LocationContext } from '../common/format';
import { canOpen, type Host } from '../common/host';

/** How many allocators the panel lists. */
export const TOP_ALLOCATORS = 8;

/** Said when a summary written before the reasons existed has none. */
export const NOT_COLLECTED = 'not collected (the default preset samples them)';

/** `missing`: why there are none (summary.json's allocMissing, the run's or the picked thread's). */
export function renderAllocPanel(section: HTMLElement, alloc: AllocSummary | null | undefined, host: Host<FromReportWebview>, loc: LocationContext, missing?: string): void {
  section.append(el('h2', { text: 'GC ← allocations' }));
  if (!alloc) {
    section.append(el('div', { id: 'alloc-panel', className: 'is-empty' }, emptyNote('Allocations:', missing ? `not collected (${missing})` : NOT_COLLECTED)));
    return;
  }
  const card = (label: string, value: string, detail: string, name: string) =>
    el('div', { className: 'card', attrs: { 'data-card': name } }, el('div', { className: 'card-label', text: label }), el('div', { className: 'card-value', text: value }), el('div', { className: 'card-detail', text: detail }));
  const cards = el(
    'div',
    { id: 'alloc-cards', className: 'cards' },
    card('Allocation rate', alloc.bytesPerSecond === null ? 'unknown' : `${fmtBytes(alloc.bytesPerSecond)}/s`, alloc.liveOnly ? 'not known: the profile kept live objects only' : 'garbage included: what the GC has to collect', 'rate'),
    card('Per request', alloc.bytesPerRequest === null ? '–' : fmtBytes(alloc.bytesPerRequest), alloc.bytesPerRequest === null ? 'not under load' : 'in the measured window', 'per-request'),
    alloc.liveOnly
      ? card('In use when taken', fmtBytes(alloc.totalBytes), `live objects only (what the GC had not collected)${alloc.samplingIntervalBytes > 0 ? `, sampled every ${fmtBytes(alloc.samplingIntervalBytes)}` : ''}`, 'total')
      : card('Allocated in total', fmtBytes(alloc.totalBytes), `${plural(alloc.sampleCount, 'sample')}, one every ${fmtBytes(alloc.samplingIntervalBytes)}`, 'total'),
  );
  const link = alloc.gcLink;
  if (link) {
    const agreement = traceAgreementText(link);
    cards.append(card('Young GCs while sampling', String(link.youngGcs), youngGcCadenceDetail(link), 'young-gcs'));
    section.append(cards);
    if (agreement) section.append(el('p', { className: link.disagreement ? 'section-note note-warn' : 'section-note', attrs: { 'data-note': 'agreement' }, text: link.disagreement ?? `Checked against V8's own account: ${agreement}.` }));
  } else {
    section.append(cards);
  }
  if (alloc.inliningCaveat) section.append(el('p', { className: 'section-note', attrs: { 'data-note': 'inlining' }, text: alloc.inliningCaveat }));
  if (alloc.exactSites) section.append(el('p', { className: 'section-note', attrs: { 'data-note': 'exact-sites' }, text: 'Exact allocation sites: sampled with V8\'s inlining off, so every function\'s bytes are its own (and the app ran slower than usual).' }));
  const rows = alloc.functions.slice(0, TOP_ALLOCATORS);
  if (rows.length === 0) return;
  const body = el('tbody');
  for (const f of rows) {
    const where = f.url ? formatLocation(f.url, f.line, f.column, loc) : null;
    const tr = el(
      'tr',
      {},
      el('td', { className: 'num', text: `${(f.share * 100).toFixed(1)}%` }),
      el('td', { className: 'num', text: fmtBytes(f.selfBytes) }),
      ...(link ? [el('td', { className: 'num', text: f.youngGcPauseMsEstimate === null || f.youngGcPauseMsEstimate === undefined ? '–' : pauseEstimateText(f.youngGcPauseMsEstimate), title: PAUSE_ESTIMATE_NOTE })] : []),
      el('td', {}, el('span', { className: 'fn-name', text: f.name })),
      el('td', {}, where ? el('span', { className: 'location', text: where.text, title: where.full }) : el('span', { className: 'muted', text: 'native / VM' })),
    );
    if (host.connected && f.url && canOpen(f.url, f.line)) {
      openOnActivate(tr, 'Open in the editor', () => host.openSource({ type: 'openSource', url: f.url, line: f.line, column: f.column }));
    }
    body.append(tr);
  }
  const columns = ['Share', 'Self bytes', ...(link ? ['Est. young-GC pause'] : []), 'Function', 'Location'];
  const head = el('tr', {}, ...columns.map((h) => el('th', { attrs: { scope: 'col' }, text: h, ...(h.startsWith('Est.') ? { title: PAUSE_ESTIMATE_NOTE } : {}) })));
  section.append(el('table', { id: 'alloc-functions', className: 'data-table' }, el('caption', { text: `Top ${plural(rows.length, 'allocator')} by bytes allocated in the function itself` }), el('thead', {}, head), body));
}
