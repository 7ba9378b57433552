/**
 * The tier table: the hottest functions' way through V8's tiers (when Maglev or TurboFan code was
 * made for them, when it was thrown away, where they ended), with a warm-up chart: optimizations per
 * second over the run, and req/s of the same seconds under load (warmupChart.ts). Built from summary.tierHistory; "not collected" when the run has none.
 */
import type { TierEvent, TierHistory, TierHistoryEntry } from '../../src/shared/model/summary';
import type { FromReportWebview } from '../../src/shared/reportProtocol';
import { el, emptyNote, openOnActivate } from '../common/dom';
import { fmtNum, formatLocation, type LocationContext } from '../common/format';
import { canOpen, type Host } from '../common/host';
import { tierClockText, tierNowText, tierTimeText } from '../../src/shared/tierText';
import { renderWarmupChart } from './warmupChart';

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** An event's time, marked ≈ with its error when the event loop kept the agent from dating it closely. */
const timeOf = (e: TierEvent | undefined) => (e === undefined || e.atMs === null ? '–' : tierTimeText(e.atMs, e.atErrorMs));

/** "TurboFan at 0.41 s → deopt (wrong map) at 1.20 s → TurboFan at 1.52 s". */
export function historyText(entry: TierHistoryEntry, limit = 6): string {
  const steps = entry.events.slice(0, limit).map((e) => `${e.kind === 'deopt' ? `deopt (${e.reason ?? 'no reason'})` : e.tier}${e.atMs === null ? '' : ` at ${timeOf(e)}`}`);
  if (entry.events.length > limit) steps.push(`… ${entry.events.length - limit} more`);
  return steps.join(' → ');
}

/**
 * `rps`: under load, the load generator's answers per second as [ms on the same clock, req/s],
 * drawn with the optimizations on the same seconds: throughput rising while V8 warms up.
 */
export function renderTierSection(section: HTMLElement, tiers: TierHistory | null | undefined, missing: string, host: Host<FromReportWebview>, loc: LocationContext, rps: [number, number][] = []): void {
  section.append(el('h2', { text: 'Tiers: how the hot functions warmed up' }));
  if (!tiers || tiers.functions.length === 0) {
    section.append(el('div', { id: 'tier-table', className: 'is-empty' }, emptyNote('Not collected:', missing)));
    return;
  }
  const optimizedAtEnd = tiers.functions.filter((f) => f.tierNow !== null).length;
  section.append(
    el('p', {
      className: 'hint',
      text:
        `The ${tiers.functions.length} hottest functions by self time: ${optimizedAtEnd} ended in optimized code. ` +
        (tiers.timed ? `${capitalized(tierClockText(tiers))}.` : 'This run did not date its code trace: events are in the order V8 wrote them.') +
        ' “Not optimized on its own”: V8 made no optimized code for it (it ran in the interpreter or Sparkplug, or inlined into its callers).',
    }),
  );
  if (tiers.optimizationsPerSecond?.some((n) => n > 0)) section.append(renderWarmupChart(tiers.optimizationsPerSecond, rps));
  const body = el('tbody');
  for (const f of tiers.functions) body.append(row(f, host, loc));
  const head = el('tr', {}, ...['Function', 'Self ms', 'Tier now', 'Optimized at', 'TurboFan at', 'Deopts', 'Re-opt.', 'History', 'Location'].map((h, i) => el('th', { className: i === 1 || (i >= 3 && i <= 6) ? 'num' : '', attrs: { scope: 'col' }, text: h })));
  section.append(el('div', { className: 'table-wrap' }, el('table', { id: 'tier-table', className: 'data-table' }, el('thead', {}, head), body)));
}

function row(f: TierHistoryEntry, host: Host<FromReportWebview>, loc: LocationContext): HTMLElement {
  const where = formatLocation(f.url, f.line, f.column, loc);
  const state = tierNowText(f);
  const tr = el(
    'tr',
    { attrs: { 'data-function': f.function, 'data-tier-now': state } },
    el('td', { className: 'fn-name', text: f.function }),
    el('td', { className: 'num', text: fmtNum(f.selfMs, 1) }),
    el('td', { className: `tier-now tier-${f.tierNow !== null ? 'opt' : state === 'deoptimized' ? 'deopt' : 'none'}`, text: state }),
    el('td', { className: 'num', text: timeOf(f.events.find((e) => e.kind === 'optimized')) }),
    el('td', { className: 'num', text: timeOf(f.events.find((e) => e.kind === 'optimized' && e.tier === 'TurboFan')) }),
    el('td', { className: 'num', text: String(f.deopts) }),
    el('td', { className: 'num', text: String(f.reoptimizations) }),
    el('td', { className: 'tier-history', text: historyText(f) }),
    el('td', { className: 'location', text: where.text, title: where.full }),
  );
  if (host.connected && canOpen(f.url, f.line)) openOnActivate(tr, 'Open in the editor', () => host.openSource({ type: 'openSource', url: f.url, line: f.line, column: f.column }));
  return tr;
}

/** Every dated event of the listed functions, for the timeline's markers. */
export function tierMarks(tiers: TierHistory | null | undefined, process: string | null): { atMs: number; event: TierEvent; fn: TierHistoryEntry }[] {
  if (!tiers?.timed) return [];
  return tiers.functions.flatMap((fn) =>
    fn.events.filter((e) => e.atMs !== null && (process === null || e.process === undefined || e.process === process)).map((event) => ({ atMs: event.atMs!, event, fn })),
  );
}
