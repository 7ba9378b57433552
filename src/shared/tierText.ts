/**
 * A hot function's way through V8's tiers in one line, for the report's tier table, the hot-function
 * CodeLens and the deopt hover: "TurboFan at 1.20 s, deoptimized 3×, now Maglev".
 */
import type { TierHistory, TierHistoryEntry } from './model/summary';

const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;

/** "TurboFan", "deoptimized", "not optimized on its own", or "unknown" when the trace cannot name it. */
export function tierNowText(entry: TierHistoryEntry): string {
  if (entry.tierNow !== null) return entry.tierNow;
  if (entry.events.length > 0) return 'deoptimized';
  return entry.traced ? 'not optimized on its own' : 'unknown (anonymous)';
}

export function tierSummaryText(entry: TierHistoryEntry): string {
  const first = entry.events.find((e) => e.kind === 'optimized');
  if (!first) return entry.traced ? 'never optimized on its own (interpreted, or inlined into its callers)' : 'its tiers are unknown: V8 traces anonymous functions without a name';
  const parts = [`${first.tier}${first.atMs === null ? '' : ` at ${seconds(first.atMs)}`}`];
  if (entry.deopts > 0) parts.push(`deoptimized ${entry.deopts}×`);
  if (entry.reoptimizations > 0) parts.push(`re-optimized ${entry.reoptimizations}×`);
  parts.push(entry.tierNow === null ? 'ended deoptimized' : entry.deopts > 0 || entry.tierNow !== first.tier ? `now ${entry.tierNow}` : `still ${entry.tierNow}`);
  return parts.join(', ');
}

/** The entry for the function starting at url:line:column, if it is among the listed ones. */
export function tierEntryAt(history: TierHistory | null | undefined, url: string, line: number, column: number): TierHistoryEntry | undefined {
  return history?.functions.find((f) => f.url === url && f.line === line && f.column === column);
}
