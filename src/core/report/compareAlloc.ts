/**
 * Two runs' allocations side by side: the rate and total (and, under load, bytes per request: see
 * compareLoad.ts), and the functions whose allocation changed most, matched across the runs the way
 * the CPU tables match them (name and file, then nearest line). Per request when both runs were
 * under load (so runs that served different amounts compare), else per second.
 */
import type { AllocFunctionSummary, AllocSummary, Summary } from '../../shared/model/summary';
import { TOP_CHANGES, type AllocatorChange, type AllocatorChanges, type MetricRow } from '../../shared/model/compareModel';
import { round } from '../util/stats';
import { matchFunctions, type MatchOptions } from './functionMatch';
import { metricRow } from './metricRow';

/** Allocation rate and total; none when neither run sampled allocations. */
export function allocMetricRows(a: Summary, b: Summary): { rate: MetricRow; total: MetricRow } | null {
  const xa = a.alloc ?? null;
  const xb = b.alloc ?? null;
  if (!xa && !xb) return null;
  return {
    rate: metricRow('alloc.rate', 'Allocation rate', 'alloc', 'bytes/s', 'lower', xa?.bytesPerSecond ?? null, xb?.bytesPerSecond ?? null, {
      hint: 'Bytes allocated per second while sampling, garbage included: what the young GC has to collect.',
      ...notCollected(xa, xb),
    }),
    total: metricRow('alloc.total', 'Allocated, total', 'alloc', 'bytes', 'lower', xa?.totalBytes ?? null, xb?.totalBytes ?? null, notCollected(xa, xb)),
  };
}

function notCollected(xa: AllocSummary | null, xb: AllocSummary | null): Pick<MetricRow, 'baseText' | 'otherText'> {
  return { ...(xa ? {} : { baseText: 'not collected' }), ...(xb ? {} : { otherText: 'not collected' }) };
}

/** The top allocator changes, or why there are none. */
export function allocatorChanges(a: Summary, b: Summary, options: MatchOptions = {}, limit = TOP_CHANGES): { changes: AllocatorChanges | null; missing: string | null } {
  const xa = a.alloc ?? null;
  const xb = b.alloc ?? null;
  if (!xa || !xb) {
    if (!xa && !xb) return { changes: null, missing: null };
    const without = !xa ? 'A' : 'B';
    return { changes: null, missing: `${without} did not sample allocations (not collected), so the allocators cannot be compared.` };
  }
  const perRequest = xa.bytesPerRequest !== null && xb.bytesPerRequest !== null;
  const scale = (x: AllocSummary) => (perRequest ? x.bytesPerRequest! : x.bytesPerSecond);
  if (scale(xa) === null || scale(xb) === null) return { changes: null, missing: 'a run\'s allocation rate is unknown, so its allocators cannot be compared.' };
  const amount = (x: AllocSummary, f: AllocFunctionSummary) => f.share * scale(x)!;
  const match = matchFunctions(xa.functions, xb.functions, options);
  const joined = new Map<string, { base: AllocFunctionSummary | null; other: AllocFunctionSummary | null }>();
  for (const f of xa.functions) joined.set(match.identity('base', f), { base: f, other: null });
  for (const f of xb.functions) {
    const key = match.identity('other', f);
    const entry = joined.get(key);
    if (entry) entry.other = f;
    else joined.set(key, { base: null, other: f });
  }
  const functions: AllocatorChange[] = [];
  for (const { base, other } of joined.values()) {
    const f = (other ?? base)!;
    const from = base ? amount(xa, base) : 0;
    const to = other ? amount(xb, other) : 0;
    const change = to - from;
    if (change === 0) continue;
    functions.push({ name: f.name, url: f.url, line: f.line, column: f.column, base: round(from, 1), other: round(to, 1), change: round(change, 1), presence: base && other ? 'both' : base ? 'base' : 'other' });
  }
  functions.sort((x, y) => Math.abs(y.change) - Math.abs(x.change));
  return { changes: { unit: perRequest ? 'bytes/request' : 'bytes/s', functions: functions.slice(0, limit) }, missing: null };
}
