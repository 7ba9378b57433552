/**
 * The survivors pass in words (SurvivorsSummary), the same in the text report, the page and the
 * lab. Pure.
 */
import { fmtBytes } from './formatBytes';
import type { SurvivorFunction, SurvivorsSummary } from './model/summary';
import type { SweepRun } from './model/sweep';

/** "90%" for a survival rate; sampling can put one a little above what was allocated: said as "≈100%". */
export function survivalRateText(rate: number | null): string {
  if (rate === null) return '–';
  return rate >= 1 ? '≈100%' : `${(rate * 100).toFixed(rate < 0.1 ? 1 : 0)}%`;
}

/** "V8's young GCs in the pass: 41, 147 ms of pause, 44.1 MB kept young and 11.5 MB promoted". */
export function survivorsYoungGcText(s: SurvivorsSummary): string {
  const y = s.youngGc;
  const copied = y.copiedBytes !== null ? `, ${fmtBytes(y.copiedBytes)} copied in the young generation and ${fmtBytes(y.promotedBytes ?? 0)} promoted` : '';
  return `${y.count.toLocaleString('en-US')} young GC${y.count === 1 ? '' : 's'}, ${ms(y.pauseMs)} of pause${copied}`;
}

/** "154 MB that no young GC freed (25% of the 612 MB V8 counted allocated)". */
export function survivorsTotalText(s: SurvivorsSummary): string {
  const share = s.survivalShare !== null ? ` (${(s.survivalShare * 100).toFixed(1)}% of all allocated, by V8's own count)` : '';
  const perRequest = s.bytesPerRequest !== null ? `, ${fmtBytes(s.bytesPerRequest)} per request` : '';
  return `${fmtBytes(s.totalBytes)} that no young GC freed${share}${perRequest}`;
}

/** How the survival rates were had, or why there are none. */
export function survivalRateBasisText(s: SurvivorsSummary): string {
  if (s.comparedBy === 'requests') return 'Survival rate: its survivors per request over what it allocated per request in the run (both under the same load).';
  if (s.comparedBy === 'fixed work') return 'Survival rate: its survivors over what it allocated in the run (both runs did the same work, the script to its end).';
  return `No survival rates: ${s.notComparable ?? 'the two runs could not be compared'}.`;
}

/** "keeps 90% of what it allocates past a young GC" or "83% of all survivors". */
export function survivorHeadline(f: SurvivorFunction): string {
  return f.survivalRate !== null ? `keeps ${survivalRateText(f.survivalRate)} of what it allocates past a young GC` : `${(f.share * 100).toFixed(1)}% of all survivors`;
}

/** What the copy estimate is, for a title or a hover. */
export const COPY_ESTIMATE_NOTE =
  "Estimate: the function's share of the survivors × what V8 says its young GCs copied and promoted, and × their pause (a scavenge costs what it copies).";

function ms(value: number): string {
  return value >= 100 ? `${Math.round(value).toLocaleString('en-US')} ms` : `${value.toFixed(value >= 10 ? 1 : 2)} ms`;
}

/**
 * A lab setting's survivors per request from its survivors run, with their share of what its
 * profiling run allocated per request: "62.1 KB (24%)"; null without a survivors run.
 */
export function labSurvivorsCell(runs: readonly Pick<SweepRun, 'purpose' | 'status' | 'survivorBytesPerRequest' | 'allocBytesPerRequest'>[]): string | null {
  const survivors = runs.find((r) => r.purpose === 'survivors' && r.status === 'ok' && typeof r.survivorBytesPerRequest === 'number');
  if (!survivors) return null;
  const bytes = survivors.survivorBytesPerRequest!;
  const allocated = runs.find((r) => r.purpose === 'profile' && typeof r.allocBytesPerRequest === 'number')?.allocBytesPerRequest;
  const share = typeof allocated === 'number' && allocated > 0 ? ` (${Math.round(Math.min(1, bytes / allocated) * 100)}%)` : '';
  return `${fmtBytes(bytes)}${share}`;
}

export const LAB_SURVIVORS_HEAD = 'survived / req (of allocated)';
