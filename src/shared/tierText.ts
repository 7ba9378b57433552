/**
 * A hot function's way through V8's tiers in one line, for the report's tier table, the hot-function
 * CodeLens and the deopt hover: "TurboFan at 1.20 s, deoptimized 3×, now Maglev".
 */
import type { TierHistory, TierHistoryEntry } from './model/summary';

const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;

/**
 * Beyond this error a time is marked approximate: the agent reads the code trace every 50 ms, so a
 * time it dated on schedule is within 25 ms; twice that means readings were missed (the event loop
 * was busy with the app's synchronous code).
 */
export const APPROXIMATE_TIER_TIME_MS = 50;

/** "1.20 s", or "≈ 0.14 s (± 0.11 s)" when the event loop kept the agent from dating it closely. */
export function tierTimeText(atMs: number, errorMs: number | undefined): string {
  if (errorMs === undefined || errorMs <= APPROXIMATE_TIER_TIME_MS) return seconds(atMs);
  return `≈ ${seconds(atMs)} (± ${seconds(errorMs)})`;
}

/** The largest error of the dated events, ms; null when none says (older runs, undated traces). */
export function largestTierError(history: TierHistory): number | null {
  let largest: number | null = null;
  for (const f of history.functions) for (const e of f.events) if (e.atMs !== null && e.atErrorMs !== undefined) largest = Math.max(largest ?? 0, e.atErrorMs);
  return largest;
}

/** How close the tier times are, in a sentence for the table's header and the CLI. */
export function tierClockText(history: TierHistory): string {
  if (!history.timed) return 'in trace order, not dated';
  const largest = largestTierError(history);
  if (largest === null) return 'times on the GC trace’s clock, within 25 ms';
  if (largest <= APPROXIMATE_TIER_TIME_MS) return `times on the GC trace’s clock, within ${Math.max(1, Math.ceil(largest))} ms`;
  return `times on the GC trace’s clock; ≈ marks times within up to ± ${seconds(largest)}: V8 Lens's agent dates the code trace between the app's work, and the event loop was busy`;
}

/** "TurboFan", "deoptimized", "not optimized on its own", or "unknown" when the trace cannot name it. */
export function tierNowText(entry: TierHistoryEntry): string {
  if (entry.tierNow !== null) return entry.tierNow;
  if (entry.events.length > 0) return 'deoptimized';
  return entry.traced ? 'not optimized on its own' : 'unknown (anonymous)';
}

export function tierSummaryText(entry: TierHistoryEntry): string {
  const first = entry.events.find((e) => e.kind === 'optimized');
  if (!first) return entry.traced ? 'never optimized on its own (interpreted, or inlined into its callers)' : 'its tiers are unknown: V8 traces anonymous functions without a name';
  const parts = [`${first.tier}${first.atMs === null ? '' : ` at ${tierTimeText(first.atMs, first.atErrorMs)}`}`];
  if (entry.deopts > 0) parts.push(`deoptimized ${entry.deopts}×`);
  if (entry.reoptimizations > 0) parts.push(`re-optimized ${entry.reoptimizations}×`);
  parts.push(entry.tierNow === null ? 'ended deoptimized' : entry.deopts > 0 || entry.tierNow !== first.tier ? `now ${entry.tierNow}` : `still ${entry.tierNow}`);
  return parts.join(', ');
}

/** The entry for the function starting at url:line:column, if it is among the listed ones. */
export function tierEntryAt(history: TierHistory | null | undefined, url: string, line: number, column: number): TierHistoryEntry | undefined {
  return history?.functions.find((f) => f.url === url && f.line === line && f.column === column);
}
